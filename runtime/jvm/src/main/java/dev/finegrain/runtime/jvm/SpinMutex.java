package dev.finegrain.runtime.jvm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Stuart and Owens' spin-lock mutex (their Algorithms 1 and 2): lock swaps 1 into the word until the old value is 0;
 * unlock stores 0. Every attempt is an atomic on the one word all waiters share, which is what makes it collapse
 * under contention on machines whose contended atomics are slow. Between failed attempts a waiter pauses as its wait
 * policy has it: {@link WaitPolicy#SPIN} for the plain spin lock, {@link WaitPolicy#BACKOFF} for the one with backoff.
 *
 * <p>Ordering: the swap that finds 0 is a volatile read-modify-write and the unlock a release store, so the next
 * holder sees every write the last one made inside.
 */
public final class SpinMutex implements Exclusion {
    private static final VarHandle WORD;

    static {
        try {
            WORD = MethodHandles.lookup().findVarHandle(SpinMutex.class, "word", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Watchdog watchdog;
    @SuppressWarnings("unused") // through WORD
    private volatile int word;

    public SpinMutex(Watchdog watchdog) {
        this.watchdog = watchdog;
    }

    @Override
    public void acquire(int worker) {
        long start = Watchdog.CLOCK_NOT_STARTED;
        for (long attempt = 0; (int) WORD.getAndSet(this, 1) != 0; attempt++) {
            start = watchdog.waitPolicy().pause(attempt, start, watchdog, Exclusion.WAIT_CHANNEL, worker, -1);
        }
    }

    @Override
    public void release(int worker) {
        WORD.setRelease(this, 0);
    }

    @Override
    public int capacity() {
        return 1;
    }
}
