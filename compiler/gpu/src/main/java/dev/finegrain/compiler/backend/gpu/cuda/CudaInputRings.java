package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.gpu.BandMapping;
import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;

/**
 * A band's input rings ({@link BandMapping#inputRings}): the copies that bring a chunk's rows of each input into the
 * warp's shared memory a chunk ahead ({@code cp.async}), an element a lane where a lane owns one column, whole rows
 * coalesced where it owns several, and whole aligned words for an input kept in bytes.
 */
final class CudaInputRings {

    private final CudaBandContext cx;
    private final BandMapping mapping;
    private final CudaFields fields;
    private final CudaWriter out;
    private final int lanes;
    private final int width;

    CudaInputRings(CudaBandContext cx, CudaFields fields) {
        this.cx = cx;
        this.mapping = cx.mapping;
        this.fields = fields;
        this.out = cx.out;
        this.lanes = mapping.laneColumns();
        this.width = mapping.bandWidth();
    }

    /**
     * Whether a lane reads values another lane wrote into shared memory (columns of several lanes, or a ring of bytes
     * copied in words), so that the warp meets after its copies land and before a chunk's copies overwrite a row.
     */
    boolean sharesCopies() {
        return lanes > 1 || mapping.inputRings().stream().anyMatch(BandMapping.Ring::packsBytes);
    }

    /**
     * At a band's end, for the warp that copied: its last chunks' copies reach past the domain's rows (into the halo,
     * or none) and may still be landing in the slots the next band's first rows go into.
     */
    void waitForLastCopies() {
        out.line("fg::cp_async_wait_all();   // no copy of this band lands after the next band's");
    }

    /** Starts the copies of rows {@code from} to {@code to} (clamped to the padded field) of an input ring. */
    void stage(BandMapping.Ring ring, String from, String to) {
        int low = -fields.halo().low()[0];
        int high = mapping.rows() - 1 + fields.halo().high()[0];
        if (ring.packsBytes()) {
            stageBytes(ring, from, to, low, high);
            return;
        }
        String bytes = GpuTarget.elementBytes(ring.field().type()) + ");";
        if (lanes == 1) {
            out.open("if (j < " + mapping.columns() + ")");
            out.open("for (int r = max(" + from + ", " + low + "); r <= min(" + to + ", " + high + "); r++)");
            out.line("fg::cp_async(&" + CudaBandContext.ring(ring.field(), "in") + "[" + cx.ringSlot(ring, "r", 0) + "], &f."
                    + CudaNames.member(ring.field().name()) + "[" + fields.index(new String[] {"r", "j"}) + "], " + bytes);
            out.close();
            out.close();
            return;
        }
        // the lanes copy each row together, 32 consecutive columns at a time, so that every copy is coalesced
        out.line(CudaBands.UNROLL_COPIES);
        out.open("for (int r = max(" + from + ", " + low + "); r <= min(" + to + ", " + high + "); r++)");
        out.line("#pragma unroll");
        out.open("for (int e = lane; e < " + width + "; e += 32)");
        out.open("if (band * " + width + " + e < " + mapping.columns() + ")");
        out.line("fg::cp_async(&" + CudaBandContext.ring(ring.field(), "in") + "[(r & " + (ring.rows() - 1) + ") * " + ring.stride() + " + e], &f."
                + CudaNames.member(ring.field().name()) + "[" + fields.index(new String[] {"r", "band * " + width + " + e"}) + "], " + bytes);
        out.close();
        out.close();
        out.close();
    }

    /**
     * A byte ring's rows: the lanes copy each row's band together in whole aligned words (a copy moves 4, 8 or 16 bytes),
     * from the word holding the band's first column, one word past its width so that the last column is in; a word
     * that starts past the array's end is not copied (the harness rounds every array up to 16 bytes).
     */
    private void stageBytes(BandMapping.Ring ring, String from, String to, int low, int high) {
        int words = width / 4 + 1;
        String field = "f." + CudaNames.member(ring.field().name());
        out.line(CudaBands.UNROLL_COPIES);
        out.open("for (int r = max(" + from + ", " + low + "); r <= min(" + to + ", " + high + "); r++)");
        out.line("const long long first = (" + fields.index(new String[] {"r", "band * " + width}) + ") & ~3ll;   // the word holding the band's first column");
        out.line("#pragma unroll");
        out.open("for (int e = lane; e < " + words + "; e += 32)");
        out.open("if (first + 4 * e < " + fields.paddedLength() + "ll)");
        out.line("fg::cp_async(&" + CudaBandContext.ring(ring.field(), "in") + "[(r & " + (ring.rows() - 1) + ") * " + ring.stride()
                + " + 4 * e], &" + field + "[first + 4 * e], 4);");
        out.close();
        out.close();
        out.close();
    }
}
