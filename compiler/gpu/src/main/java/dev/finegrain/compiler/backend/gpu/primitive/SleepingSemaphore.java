package dev.finegrain.compiler.backend.gpu.primitive;

import dev.finegrain.runtime.jvm.Watchdog;

/**
 * Stuart and Owens' sleeping semaphore (Algorithm 5): wait does {@code atomicAdd(count, 1)}; below the capacity the
 * block is in, else it draws a ticket ({@code atomicAdd(ticket, 1)}) and polls the turn word with volatile loads
 * until turn passes its ticket. Post does {@code atomicAdd(count, -1)} and, when the old count was above the
 * capacity (someone waits), {@code atomicAdd(turn, 1)}. At most two atomics per operation; post never waits.
 */
public record SleepingSemaphore() implements SyncPrimitive {

    @Override
    public String name() {
        return "sleeping-semaphore";
    }

    @Override
    public PrimitiveKind kind() {
        return PrimitiveKind.SEMAPHORE;
    }

    @Override
    public String paperName() {
        return "Sleeping";
    }

    @Override
    public String algorithm() {
        return "wait: atomicAdd(count, 1) below capacity enters, else ticket = atomicAdd(ticket, 1) and poll turn past"
                + " it; post: atomicAdd(count, -1), above capacity atomicAdd(turn, 1)";
    }

    @Override
    public void sassEnter(SassText out) {
        out.line("ATOM.ADD R10, [" + SassText.hex(PrimitiveLayout.WORD_A) + "], R5");
        out.line("ISETP.LT.AND P1, PT, R10, R8, PT");
        out.line("@P1 BRA zs_in");
        out.line("ATOM.ADD R11, [" + SassText.hex(PrimitiveLayout.WORD_B) + "], R5");
        out.label("zs_poll");
        out.line("LDG R12, [" + SassText.hex(PrimitiveLayout.WORD_C) + "]");
        out.line("ISETP.GT.AND P2, PT, R12, R11, PT");
        out.line("@!P2 BRA zs_poll");
        out.label("zs_in");
    }

    @Override
    public void sassLeave(SassText out) {
        out.line("MEMBAR.GL");
        out.line("ATOM.ADD R13, [" + SassText.hex(PrimitiveLayout.WORD_A) + "], -0x1");
        out.line("ISETP.GT.AND P1, PT, R13, R8, PT");
        out.line("@P1 ATOM.ADD RZ, [" + SassText.hex(PrimitiveLayout.WORD_C) + "], R5");
    }

    @Override
    public String cudaEnter() {
        return "fgp::sleeping_wait(s, capacity);";
    }

    @Override
    public String cudaLeave() {
        return "fgp::sleeping_post(s, capacity);";
    }

    @Override
    public JvmPrimitive jvm(int parties, int capacity, Watchdog watchdog) {
        return JvmPrimitive.of(new dev.finegrain.runtime.jvm.SleepingSemaphore(capacity, watchdog));
    }
}
