package dev.finegrain.compiler.backend.gpu.primitive;

import dev.finegrain.runtime.jvm.WaitPolicy;
import dev.finegrain.runtime.jvm.Watchdog;

/**
 * Stuart and Owens' spin-lock mutex (Algorithm 2), with or without their backoff: lock swaps 1 into the lock word
 * ({@code atomicExch}) until the old value is 0, backing off after each failure when asked; unlock fences and stores
 * 0. Every attempt is a contended atomic on one word.
 *
 * @param backoff whether a failed attempt backs off ({@link Backoff})
 */
public record SpinMutex(boolean backoff) implements SyncPrimitive {

    @Override
    public String name() {
        return backoff ? "spin-mutex-backoff" : "spin-mutex";
    }

    @Override
    public PrimitiveKind kind() {
        return PrimitiveKind.MUTEX;
    }

    @Override
    public String paperName() {
        return backoff ? "Spin with Backoff" : "Spin";
    }

    @Override
    public String algorithm() {
        return "atomicExch(lock, 1) until it returns 0" + (backoff ? ", backing off after each failure" : "")
                + "; unlock: fence, store 0";
    }

    @Override
    public void sassEnter(SassText out) {
        String lock = SassText.hex(PrimitiveLayout.WORD_A);
        if (backoff) {
            Backoff.sassSetUp(out);
        }
        out.label("sm_try");
        out.line("ATOM.EXCH R10, [" + lock + "], R5");
        out.line("ISETP.EQ.AND P1, PT, R10, RZ, PT");
        out.line("@P1 BRA sm_locked");
        if (backoff) {
            Backoff.sass(out, "sm");
        }
        out.line("BRA sm_try");
        out.label("sm_locked");
    }

    @Override
    public void sassLeave(SassText out) {
        out.line("MEMBAR.GL");
        out.line("STG [" + SassText.hex(PrimitiveLayout.WORD_A) + "], RZ");
    }

    @Override
    public String cudaEnter() {
        return "fgp::spin_lock(s, " + backoff + ", backoff_i, mine);";
    }

    @Override
    public String cudaLeave() {
        return "fgp::spin_unlock(s);";
    }

    @Override
    public WaitPolicy jvmWaitPolicy() {
        return backoff ? WaitPolicy.BACKOFF : WaitPolicy.SPIN;
    }

    @Override
    public JvmPrimitive jvm(int parties, int capacity, Watchdog watchdog) {
        return JvmPrimitive.of(new dev.finegrain.runtime.jvm.SpinMutex(watchdog));
    }
}
