package dev.finegrain.compiler.backend.gpu.primitive;

import dev.finegrain.runtime.jvm.WaitPolicy;
import dev.finegrain.runtime.jvm.Watchdog;

import java.util.Map;

/**
 * Stuart and Owens' spin-lock semaphore (Algorithm 4), with or without backoff in wait: the word holds the free
 * slots plus one, 0 while a block updates it. Wait swaps in 0: above 1, a slot is free and the block stores one less;
 * exactly 1, full, put back; 0, busy, try again (backing off when asked). Post swaps in 0 until it reads non-zero and
 * stores one more, never backing off. Several atomics per operation on one word.
 *
 * @param backoff whether wait's failed attempts back off ({@link Backoff})
 */
public record SpinSemaphore(boolean backoff) implements SyncPrimitive {

    @Override
    public String name() {
        return backoff ? "spin-semaphore-backoff" : "spin-semaphore";
    }

    @Override
    public PrimitiveKind kind() {
        return PrimitiveKind.SEMAPHORE;
    }

    @Override
    public String paperName() {
        return backoff ? "Spin with Backoff" : "Spin";
    }

    @Override
    public String algorithm() {
        return "wait: atomicExch(sem, 0): above 1 store one less, 1 put back, 0 retry" + (backoff ? " (backing off)" : "")
                + "; post: atomicExch(sem, 0) until non-zero, store one more";
    }

    @Override
    public Map<Integer, Integer> initialWords(int capacity) {
        return Map.of(PrimitiveLayout.WORD_A, capacity + 1);
    }

    @Override
    public void sassEnter(SassText out) {
        String sem = SassText.hex(PrimitiveLayout.WORD_A);
        if (backoff) {
            Backoff.sassSetUp(out);
        }
        out.label("ss_wait");
        out.line("ATOM.EXCH R10, [" + sem + "], RZ");
        out.line("ISETP.GT.AND P1, PT, R10, R5, PT");
        out.line("@P1 BRA ss_take");
        out.line("ISETP.EQ.AND P2, PT, R10, R5, PT");
        out.line("@P2 ATOM.EXCH RZ, [" + sem + "], R5");
        if (backoff) {
            Backoff.sass(out, "ss");
        }
        out.line("BRA ss_wait");
        out.label("ss_take");
        out.line("IADD R11, R10, -0x1");
        out.line("ATOM.EXCH RZ, [" + sem + "], R11");
    }

    @Override
    public void sassLeave(SassText out) {
        String sem = SassText.hex(PrimitiveLayout.WORD_A);
        out.line("MEMBAR.GL");
        out.label("ss_post");
        out.line("ATOM.EXCH R12, [" + sem + "], RZ");
        out.line("ISETP.GT.AND P1, PT, R12, RZ, PT");
        out.line("@!P1 BRA ss_post");
        out.line("IADD R13, R12, 0x1");
        out.line("ATOM.EXCH RZ, [" + sem + "], R13");
    }

    @Override
    public String cudaEnter() {
        return "fgp::spin_wait(s, " + backoff + ", backoff_i, mine);";
    }

    @Override
    public String cudaLeave() {
        return "fgp::spin_post(s);";
    }

    @Override
    public WaitPolicy jvmWaitPolicy() {
        return backoff ? WaitPolicy.BACKOFF : WaitPolicy.SPIN;
    }

    @Override
    public JvmPrimitive jvm(int parties, int capacity, Watchdog watchdog) {
        return JvmPrimitive.of(new dev.finegrain.runtime.jvm.SpinSemaphore(capacity, watchdog));
    }
}
