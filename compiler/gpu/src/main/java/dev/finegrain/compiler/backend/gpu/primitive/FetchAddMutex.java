package dev.finegrain.compiler.backend.gpu.primitive;

import dev.finegrain.runtime.jvm.WaitPolicy;
import dev.finegrain.runtime.jvm.Watchdog;

/**
 * Stuart and Owens' fetch-and-add (FA) mutex (Algorithm 3): lock draws a ticket with one {@code atomicAdd} on the
 * ticket word and polls the turn word with volatile loads, backing off between polls (the paper's improvement);
 * unlock fences and stores turn + 1 with no atomic, since only the holder writes it. Fair: tickets are served in
 * order.
 */
public record FetchAddMutex() implements SyncPrimitive {

    @Override
    public String name() {
        return "fa-mutex";
    }

    @Override
    public PrimitiveKind kind() {
        return PrimitiveKind.MUTEX;
    }

    @Override
    public String paperName() {
        return "FA";
    }

    @Override
    public String algorithm() {
        return "ticket = atomicAdd(next, 1); poll turn until it equals the ticket, backing off; unlock: fence, turn ="
                + " ticket + 1";
    }

    @Override
    public void sassEnter(SassText out) {
        Backoff.sassSetUp(out);
        out.line("ATOM.ADD R10, [" + SassText.hex(PrimitiveLayout.WORD_A) + "], R5");
        out.label("fa_poll");
        out.line("LDG R11, [" + SassText.hex(PrimitiveLayout.WORD_B) + "]");
        out.line("ISETP.EQ.AND P1, PT, R11, R10, PT");
        out.line("@P1 BRA fa_locked");
        Backoff.sass(out, "fa");
        out.line("BRA fa_poll");
        out.label("fa_locked");
    }

    @Override
    public void sassLeave(SassText out) {
        out.line("IADD R12, R10, 0x1");
        out.line("MEMBAR.GL");
        out.line("STG [" + SassText.hex(PrimitiveLayout.WORD_B) + "], R12");
    }

    @Override
    public String cudaEnter() {
        return "const unsigned ticket = fgp::fa_lock(s, backoff_i, mine);";
    }

    @Override
    public String cudaLeave() {
        return "fgp::fa_unlock(s, ticket);";
    }

    @Override
    public WaitPolicy jvmWaitPolicy() {
        return WaitPolicy.BACKOFF;
    }

    @Override
    public JvmPrimitive jvm(int parties, int capacity, Watchdog watchdog) {
        return JvmPrimitive.of(new dev.finegrain.runtime.jvm.FetchAddMutex(watchdog));
    }
}
