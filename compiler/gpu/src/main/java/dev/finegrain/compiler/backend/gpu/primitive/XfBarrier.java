package dev.finegrain.compiler.backend.gpu.primitive;

import dev.finegrain.runtime.jvm.Watchdog;

/**
 * Xiao and Feng's lock-free barrier ("XF", the best at scale on both of Stuart and Owens' GPUs): each block's master
 * stores the step into the block's arrival flag; the threads of block 0 poll every arrival flag (thread t the flags
 * t, t + threads, ...), meet at a block barrier, and store the step into every block's release flag; each block's
 * master polls its own release flag, and a block barrier lets the block go. No atomics; the flags are arrays, so
 * block 0 reads and writes them coalesced.
 */
public record XfBarrier() implements SyncPrimitive {

    @Override
    public String name() {
        return "xf-barrier";
    }

    @Override
    public PrimitiveKind kind() {
        return PrimitiveKind.BARRIER;
    }

    @Override
    public String paperName() {
        return "XF";
    }

    @Override
    public String algorithm() {
        return "each master fences and stores the step in its arrival flag; block 0's threads poll all arrival flags,"
                + " block barrier, fence, store the step in every release flag; each master polls its release flag and"
                + " fences; block barrier";
    }

    @Override
    public void sassEnter(SassText out) {
        String flags = SassText.hex(PrimitiveLayout.XF_FLAGS);
        out.line("SHL R34, R2, 0x2");
        out.line("@P0 MEMBAR.GL");
        out.line("@P0 STG [R7+" + flags + "], R4");
        out.line("ISETP.NE.AND P1, PT, R1, RZ, PT");
        out.line("@P1 BRA xf_wait");
        out.comment("block 0: thread t polls the arrival flags t, t + threads, ...");
        out.line("MOV R30, R0");
        out.label("xf_next_in");
        out.line("ISETP.GE.AND P2, PT, R30, R2, PT");
        out.line("@P2 BRA xf_all_in");
        out.line("SHL R31, R30, 0x2");
        out.label("xf_poll_in");
        out.line("LDG R32, [R31+" + flags + "]");
        out.line("ISETP.NE.AND P3, PT, R32, R4, PT");
        out.line("@P3 BRA xf_poll_in");
        out.line("IADD R30, R30, R33");
        out.line("BRA xf_next_in");
        out.label("xf_all_in");
        out.line("BAR.SYNC 0x0");
        out.line("MEMBAR.GL");
        out.comment("the release flags follow the blocks' arrival flags");
        out.line("MOV R30, R0");
        out.label("xf_next_out");
        out.line("ISETP.GE.AND P2, PT, R30, R2, PT");
        out.line("@P2 BRA xf_wait");
        out.line("SHL R31, R30, 0x2");
        out.line("IADD R31, R31, R34");
        out.line("STG [R31+" + flags + "], R4");
        out.line("IADD R30, R30, R33");
        out.line("BRA xf_next_out");
        out.label("xf_wait");
        out.line("@!P0 BRA xf_done");
        out.line("IADD R31, R7, R34");
        out.label("xf_poll_out");
        out.line("LDG R32, [R31+" + flags + "]");
        out.line("ISETP.NE.AND P3, PT, R32, R4, PT");
        out.line("@P3 BRA xf_poll_out");
        out.line("MEMBAR.GL");
        out.label("xf_done");
        out.line("BAR.SYNC 0x0");
    }

    @Override
    public String cudaEnter() {
        return "fg::xf_grid_barrier(s.at(fgp::XF_FLAGS), s.blocks, step);";
    }

    @Override
    public JvmPrimitive jvm(int parties, int capacity, Watchdog watchdog) {
        return JvmPrimitive.of(new dev.finegrain.runtime.jvm.XfBarrier(parties), watchdog);
    }
}
