package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.gpu.BandMapping;
import dev.finegrain.compiler.backend.gpu.BandMapping.BandEdge;
import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;

/**
 * Spells a band's two helper warps ({@link BandMapping#helpers}). Warp 1 copies the input rows two chunks ahead of
 * warp 0's steps (a cp.async group a chunk) and, while warp 0 steps through chunk c, waits for the left band's edge of chunk
 * c + 1 into the other of two windows; warp 2 writes the rows warp 0 finished in chunk c back to global memory while
 * warp 0 steps through chunk c + 1. Two named barriers hand the chunks over: warp 1 arrives at
 * {@link BandMapping#CHUNK_READY_BARRIER} when a chunk's rows and window are in shared memory and warp 0 waits there;
 * warp 0 arrives at {@link BandMapping#CHUNK_DONE_BARRIER} when its values of a chunk are in the ring and the chunk's
 * window is read, and both helpers wait there. A barrier orders the shared-memory accesses before it for the threads
 * that meet at it, and warp 1 arrives for chunk c + 1 only after it met warp 0 for chunk c, so each barrier has at most
 * one phase open. Warp 1 copies the rows of chunk c + 3 after meeting warp 0 for chunk c: the 256-row ring then holds
 * the rows of chunks c + 1 and c + 2, which warp 0 may read, apart from those being copied; warp 2 writes chunk c's
 * rows while warp 0 writes chunk c + 1's into the other half of the 128-row output ring.
 */
final class CudaBandHelpers {

    private static final String READY = String.valueOf(BandMapping.CHUNK_READY_BARRIER);
    private static final String DONE = String.valueOf(BandMapping.CHUNK_DONE_BARRIER);
    /** Warp 0 and warp 1 meet at the ready barrier; all three at the done barrier. */
    private static final int PAIR = 2 * GpuTarget.WARP;
    private static final int ALL = BandMapping.threadsPerBlock(true, 1);

    private final CudaBandContext cx;
    private final BandMapping mapping;
    private final CudaWriter out;
    private final BandEdge edge;
    private final CudaBandEdge chunkEdge;
    private final CudaInputRings inputs;

    CudaBandHelpers(CudaBandContext cx, CudaBandEdge chunkEdge, CudaInputRings inputs) {
        this.cx = cx;
        this.mapping = cx.mapping;
        this.out = cx.out;
        this.edge = mapping.edge();
        this.chunkEdge = chunkEdge;
        this.inputs = inputs;
    }

    /** Warp 0, at a chunk's start: wait until warp 1 has its rows and window; the window it reads. */
    void stepperWaits() {
        out.line("fg::bar_sync(" + READY + ", " + PAIR + ");   // warp 1 has this chunk's input rows and edge window in shared memory");
        out.line("const int cb = c & 1;   // the window of the two that warp 1 filled for this chunk");
        if (edge.crossed()) {
            out.line("const int wb = base - " + edge.lookbackRows() + ";   // the window's first row");
        }
    }

    /** Warp 0, at a chunk's end: hand the chunk to both helpers. */
    void stepperHandsBack() {
        out.line("__syncwarp();   // every lane's values of this chunk are in the ring");
        out.line("fg::bar_arrive(" + DONE + ", " + ALL + ");   // warp 2 may write the chunk's rows back, warp 1 fill its window again");
    }

    /** Warp 1: the input rows two chunks ahead of the steps and each next chunk's edge window. */
    void copier() {
        boolean copies = !mapping.inputRings().isEmpty();
        if (edge.crossed() && !edge.readyWords()) {
            out.line("int seen = 0;   // tokens of the band to the left already waited for");
        }
        if (copies) {
            out.comment("the first three chunks' input rows, a group of copies each");
            for (int chunk = 0; chunk < 3; chunk++) {
                for (BandMapping.Ring ring : mapping.inputRings()) {
                    inputs.stage(ring, chunk == 0 ? "-31 - " + ring.highestRowBack() : (32 * chunk) + " - " + ring.lowestRowBack(),
                            (32 * chunk + 31) + " - " + ring.lowestRowBack());
                }
                out.line("fg::cp_async_commit();");
            }
            out.line("fg::cp_async_wait_group<2>();   // the first chunk's rows have landed");
        }
        edgeWindow("first", "0", "0", "0");
        out.line("__syncwarp();   // every lane's copies and window rows are in");
        out.line("fg::bar_arrive(" + READY + ", " + PAIR + ");");
        out.open("for (int base = 0, c = 0; base < " + mapping.stepsPerBand() + "; base += 32, c++)");
        out.line("const int next = base + 32;");
        out.open("if (next < " + mapping.stepsPerBand() + ")");
        if (copies) {
            out.line("fg::cp_async_wait_group<1>();   // the next chunk's rows have landed (the newest group is the chunk after it)");
        }
        edgeWindow("next", "next", "(c + 1) & 1", "c & 1");
        out.line("__syncwarp();");
        out.close();
        out.line("fg::bar_sync(" + DONE + ", " + ALL + ");   // warp 0 is done with chunk c and its window");
        out.line("if (next < " + mapping.stepsPerBand() + ") fg::bar_arrive(" + READY + ", " + PAIR + ");");
        if (copies) {
            out.comment("the rows new in chunk c + 3, which land while warp 0 steps through c + 1 and c + 2");
            for (BandMapping.Ring ring : mapping.inputRings()) {
                inputs.stage(ring, "base + 96 - " + ring.lowestRowBack(), "base + 127 - " + ring.lowestRowBack());
            }
            out.line("fg::cp_async_commit();");
        }
        out.close();
        if (copies) {
            inputs.waitForLastCopies();
        }
    }

    /** Warp 1: the edge window of the {@code which} chunk, at {@code base}, into window {@code into} (its shared rows from {@code from}). */
    private void edgeWindow(String which, String base, String into, String from) {
        if (!edge.crossed()) {
            return;
        }
        out.open("/* the " + which + " chunk's edge window */");
        out.line("const int base = " + base + ";");
        chunkEdge.copyEdge(into, from);
        out.close();
    }

    /** Warp 2: after each chunk, its finished rows, written whole. */
    void writer(Runnable writeFinishedRows) {
        out.open("for (int base = 0; base < " + mapping.stepsPerBand() + "; base += 32)");
        out.line("fg::bar_sync(" + DONE + ", " + ALL + ");   // warp 0's values of this chunk are in the ring");
        writeFinishedRows.run();
        out.close();
    }
}
