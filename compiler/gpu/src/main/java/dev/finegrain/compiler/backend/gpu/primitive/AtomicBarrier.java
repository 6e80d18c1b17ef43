package dev.finegrain.compiler.backend.gpu.primitive;

import dev.finegrain.runtime.jvm.CountingBarrier;
import dev.finegrain.runtime.jvm.Watchdog;

/**
 * The two-stage atomic barrier (Xiao and Feng's "simple" barrier, the one Stuart and Owens measure XF against): a block
 * barrier, then the master thread increments one counter in global memory and polls it until it reaches the number of
 * blocks times the step, then a block barrier again. One contended atomic per block and step, all on one word.
 */
public record AtomicBarrier() implements SyncPrimitive {

    @Override
    public String name() {
        return "atomic-barrier";
    }

    @Override
    public PrimitiveKind kind() {
        return PrimitiveKind.BARRIER;
    }

    @Override
    public String paperName() {
        return "Atomic";
    }

    @Override
    public String algorithm() {
        return "block barrier; the master fences, increments one global counter, polls it until it reaches blocks x step"
                + " and fences; block barrier";
    }

    @Override
    public void sassEnter(SassText out) {
        out.line("BAR.SYNC 0x0");
        out.line("@!P0 BRA ab_done");
        out.line("MEMBAR.GL");
        out.line("ATOM.ADD RZ, [" + SassText.hex(PrimitiveLayout.WORD_A) + "], R5");
        out.line("IMUL R10, R4, R2");
        out.label("ab_poll");
        out.line("LDG R11, [" + SassText.hex(PrimitiveLayout.WORD_A) + "]");
        out.line("ISETP.LT.AND P1, PT, R11, R10, PT");
        out.line("@P1 BRA ab_poll");
        out.line("MEMBAR.GL");
        out.label("ab_done");
        out.line("BAR.SYNC 0x0");
    }

    @Override
    public String cudaEnter() {
        return "fg::grid_barrier(s.at(fgp::WORD_A), step * s.blocks);";
    }

    @Override
    public JvmPrimitive jvm(int parties, int capacity, Watchdog watchdog) {
        return JvmPrimitive.of(new CountingBarrier(parties), watchdog);
    }
}
