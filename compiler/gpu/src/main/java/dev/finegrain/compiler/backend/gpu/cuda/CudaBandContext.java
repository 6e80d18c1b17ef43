package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.gpu.BandMapping;
import dev.finegrain.compiler.ir.IrField;

/**
 * What a mechanism's band-edge protocol ({@link CudaSync#bandWait} and the rest) needs of the kernel {@link CudaBands}
 * writes: the writer, the mapping, and the names of the device-memory tokens and of the loop variables in scope.
 */
final class CudaBandContext {

    /** The pointer to the edge tokens in the run's scratch memory. */
    static final String TOKENS = "tokens";

    final CudaWriter out;
    final BandMapping mapping;
    private final CudaFields fields;

    CudaBandContext(CudaWriter out, BandMapping mapping, CudaFields fields) {
        this.out = out;
        this.mapping = mapping;
        this.fields = fields;
    }

    /** Tokens each band publishes: one per group of rows. */
    int tokensPerBand() {
        return mapping.edge().tokensPerBand(mapping.rows());
    }

    /** The token word {@code token} of band {@code band} (expressions). */
    String tokenWord(String band, String token) {
        return TOKENS + "[(" + band + ") * " + tokensPerBand() + " + " + token + "]";
    }

    /**
     * Opens the loop of a token-word protocol's wait: each lane takes the left band's tokens not yet {@code seen}, 32
     * apart, up to the one that covers row {@code last}; the loop variable is {@code t}. Returns the last token's
     * index (an expression); the caller writes the loop's body and its closing brace, then {@link #markTokensSeen}.
     */
    String openPendingTokens(String last, String seen) {
        int group = mapping.edge().groupRows();
        String upTo = group == 1 ? last : last + " / " + group;
        out.line("for (int t = " + seen + " + lane; t <= " + upTo + "; t += 32) {");
        return upTo;
    }

    /** Marks every token up to {@code upTo} as seen. */
    void markTokensSeen(String seen, String upTo) {
        out.line(seen + " = " + upTo + " + 1;");
    }

    /**
     * Copies the left band's edge value into {@code target} with a relaxed device-scope load, for protocols whose
     * token wait has already ordered it (token words: the acquire or the fence after the wait).
     */
    void loadEdgeRelaxed(IrField field, String row, String slot, String target) {
        out.line(target + " = fg::load_relaxed_gpu(&" + fieldElement(field, row, "32 * band - " + mapping.edge().columns()
                + " + " + slot) + ");");
    }

    /** Tiny-lock's ready word of edge field {@code field}, band {@code band}, edge slot {@code slot}, row {@code row}. */
    String readyWord(IrField field, String band, String slot, String row) {
        int k = mapping.edge().fields().indexOf(field);
        return TOKENS + "[((long long) (" + k + " * " + mapping.bands() + " + " + band + ") * " + mapping.edge().columns()
                + " + " + slot + ") * " + mapping.rows() + " + " + row + "]";
    }

    /** The field's array element at a point of the domain (expressions for row and column). */
    String fieldElement(IrField field, String row, String column) {
        return "f." + CudaNames.member(field.name()) + "[" + fields.index(new String[] {row, column}) + "]";
    }

    String type(IrField field) {
        return CudaExpressions.type(field.type());
    }
}
