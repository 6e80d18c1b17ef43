package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.gpu.BandMapping;
import dev.finegrain.compiler.backend.gpu.LaneProfile;
import dev.finegrain.compiler.ir.IrField;

/**
 * What a mechanism's band-edge protocol ({@link CudaSync#bandWait} and the rest) and the band's step
 * ({@link CudaBandStep}) need of the kernel {@link CudaBands} writes: the writer, the mapping, and the names of the
 * device-memory tokens, the rings, the registers and the loop variables in scope.
 */
final class CudaBandContext {

    /** The pointer to the edge tokens in the run's scratch memory. */
    static final String TOKENS = "tokens";
    /** The pointer to a ring's free counters: per band, the rows of the left band's edge it will not read again. */
    static final String FREED = "freed";

    final CudaWriter out;
    final BandMapping mapping;
    private final CudaFields fields;

    CudaBandContext(CudaWriter out, BandMapping mapping, CudaFields fields) {
        this.out = out;
        this.mapping = mapping;
        this.fields = fields;
    }

    /** Whether each edge value is a word of its own with its ready bit (the mapping's choice), not a token per rows. */
    boolean readyWords() {
        return mapping.edge().readyWords();
    }

    /** Tokens each band publishes: one per group of rows. */
    int tokensPerBand() {
        return mapping.edge().tokensPerBand(mapping.rows());
    }

    /** Whether the edge is a ring of rows, its tokens and values tagged with their lap. */
    boolean ring() {
        return mapping.edge().ring();
    }

    /** The token word {@code token} of band {@code band} (expressions); in a ring, its slot. */
    String tokenWord(String band, String token) {
        return TOKENS + "[(" + band + ") * " + tokensPerBand() + " + " + (ring() ? "((" + token + ") & " + (tokensPerBand() - 1) + ")" : token) + "]";
    }

    /** What a token word holds once token {@code token} is published: 1, or in a ring its lap (1 for the first). */
    String tokenValue(String token) {
        return ring() ? lap(token, tokensPerBand()) : "1";
    }

    /**
     * The lap of slot number {@code index} (never negative) in a ring of {@code period} slots, counted from 1 (0 is a slot
     * never written); divided unsigned, a shift, where a signed division would round towards zero in four instructions.
     */
    private static String lap(String index, int period) {
        return "(int) ((unsigned) (" + index + ") / " + period + "u) + 1";
    }

    /** Whether {@code loaded}, a token word's value, is not yet token {@code token} published. */
    String tokenPending(String loaded, String token) {
        return ring() ? loaded + " != " + tokenValue(token) : loaded + " == 0";
    }

    /** Where row {@code row} (not negative) lies among the rows the edge holds. */
    private String heldRow(String row) {
        if (!ring()) {
            return row;
        }
        int held = mapping.edge().ringRows();
        return Integer.bitCount(held) == 1 ? "((" + row + ") & " + (held - 1) + ")" : "((" + row + ") % " + held + ")";
    }

    /** Tiny-lock's ready tag of a value at row {@code row} in the high half of its word: 1, or in a ring its lap. */
    String readyTag(String row) {
        return ring() ? "((fg::u64) (" + lap(row, mapping.edge().ringRows()) + ") << 32)" : "(1ull << 32)";
    }

    /** Whether a ready word {@code word} does not yet hold the value of row {@code row}. */
    String readyPending(String word, String row) {
        return ring() ? "(" + word + " >> 32) != (fg::u64) (" + lap(row, mapping.edge().ringRows()) + ")" : "(" + word + " >> 32) == 0";
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
        String element = mapping.folding().hasEdgeArray(field)
                ? edgeArray(field) + "[" + edgeIndex("band - 1", slot, row) + "]"
                : fieldElement(field, row, mapping.bandWidth() + " * band - " + mapping.edge().columns() + " + " + slot);
        out.line(target + " = fg::load_relaxed_gpu(&" + element + ");");
    }

    /** A folded field's edge array in scratch memory: per band, its edge columns, each over the rows. */
    static String edgeArray(IrField field) {
        return "edge_" + CudaNames.member(field.name());
    }

    /** The index in an edge array of band {@code band}'s edge slot {@code slot} at row {@code row} (expressions). */
    String edgeIndex(String band, String slot, String row) {
        return "((long long) (" + band + ") * " + mapping.edge().columns() + " + " + slot + ") * " + mapping.edge().heldRows(mapping.rows())
                + " + " + heldRow(row);
    }

    /** A folded field's kept values in scratch memory. */
    static String keptArray(IrField field) {
        return "kept_" + CudaNames.member(field.name());
    }

    /**
     * The field's value at a point of its halo above the domain (row negative): in its padded array, or in a folded
     * field's frame.
     */
    String aboveElement(IrField field, String row, String column) {
        return mapping.folding().folds(field)
                ? "f." + CudaNames.member(field.name()) + "[" + fields.frameAbove(row, column) + "]"
                : fieldElement(field, row, column);
    }

    /** The field's value at a point of its halo above or left of the domain (expressions), as {@link #aboveElement}. */
    String haloElement(IrField field, String row, String column) {
        return mapping.folding().folds(field)
                ? "f." + CudaNames.member(field.name()) + "[" + row + " < 0 ? " + fields.frameAbove(row, column) + " : "
                        + fields.frameLeft(row, column) + "]"
                : fieldElement(field, row, column);
    }

    /** Tiny-lock's ready word of edge field {@code field}, band {@code band}, edge slot {@code slot}, row {@code row}. */
    String readyWord(IrField field, String band, String slot, String row) {
        int k = mapping.edge().fields().indexOf(field);
        return TOKENS + "[((long long) (" + k + " * " + mapping.bands() + " + " + band + ") * " + mapping.edge().columns()
                + " + " + slot + ") * " + mapping.edge().heldRows(mapping.rows()) + " + " + heldRow(row) + "]";
    }

    /** The field's array element at a point of the domain (expressions for row and column). */
    String fieldElement(IrField field, String row, String column) {
        return "f." + CudaNames.member(field.name()) + "[" + fields.index(new String[] {row, column}) + "]";
    }

    /** A lookup table's copy in the block's shared memory. */
    String stagedTable(int table) {
        return "s_table_" + CudaNames.member(mapping.graph().kernel().tables().get(table).name());
    }

    /** A warp's query profile of a lookup table ({@link LaneProfile}); "_first" where the lane's value is the first index. */
    String profile(LaneProfile profile) {
        return "p_" + CudaNames.member(mapping.graph().kernel().tables().get(profile.table()).name()) + "_"
                + CudaNames.member(profile.sequence().name()) + (profile.laneAxis() == 0 ? "_first" : "");
    }

    /** A sequence input along the columns at my column {@code column}, read once per band. */
    String laneSequence(IrField field, int column) {
        return "q_" + CudaNames.member(field.name()) + (mapping.laneColumns() == 1 ? "" : "_c" + column);
    }

    /** My column {@code c}, of the columns per lane side by side that start at j. */
    String column(int c) {
        return c == 0 ? "j" : "(j + " + c + ")";
    }

    /** Where row {@code row} (an expression) of a ring holds my column {@code c}. */
    String ringSlot(BandMapping.Ring ring, String row, int c) {
        String at = "(" + row + " & " + (ring.rows() - 1) + ") * " + ring.stride() + " + "
                + (ring.packsBytes() ? "(" + byteShift(row) + ") + " : "");
        return mapping.laneColumns() == 1 ? at + "lane" : at + "lane * " + mapping.laneColumns() + " + " + c;
    }

    /** Where the band's first column of row {@code row} lies in the first word a byte ring copied of it. */
    String byteShift(String row) {
        return BandMapping.ByteShift.of(fields.halo().low()[0], fields.extent(1), fields.halo().low()[1]).spell(row);
    }

    /** A warp's ring of a field: {@code in} for an input, {@code out} for a state field. */
    static String ring(IrField field, String kind) {
        return kind + "_" + CudaNames.member(field.name());
    }

    /** The shared-memory window of the left band's edge values of a field. */
    static String window(IrField field) {
        return "s_edge_" + CudaNames.member(field.name());
    }

    /**
     * Which window a chunk's steps read: the warp's, or, where helper warps fill the next chunk's window while this
     * one steps ({@link BandMapping#helpers}), the chunk's of the two.
     */
    String windowBuffer() {
        return mapping.helpers() ? "cb" : "warp";
    }

    /** My value of {@code field} in my column {@code c}, {@code back} + 1 steps back. */
    String history(IrField field, int c, int back) {
        return "h_" + CudaNames.member(field.name()) + (mapping.laneColumns() == 1 ? "" : "_c" + c) + "_" + back;
    }

    /** My column {@code c}'s value of {@code field} in the halo row {@code up} + 1 above the domain, loaded once a band. */
    String above(IrField field, int c, int up) {
        return "a_" + CudaNames.member(field.name()) + (mapping.laneColumns() == 1 ? "" : "_c" + c) + "_" + up;
    }

    /** My value of {@code field} in my column {@code c} in this step. */
    String own(IrField field, int c) {
        return "o_" + CudaNames.member(field.name()) + (mapping.laneColumns() == 1 ? "" : "_c" + c);
    }

    /** The state fields whose values a lane keeps for later steps. */
    java.util.List<IrField> stateFieldsWithHistory() {
        return mapping.graph().fields().stream().filter(field -> mapping.history()[field.id()] > 0).toList();
    }

    String type(IrField field) {
        return CudaExpressions.type(field.type());
    }
}
