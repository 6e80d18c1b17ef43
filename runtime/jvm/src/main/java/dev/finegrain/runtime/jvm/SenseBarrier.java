package dev.finegrain.runtime.jvm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Sense-reversing barrier for a fixed number of workers (a wavefront step, a block-diagonal).
 *
 * <p>Each arrival decrements a shared count; the last one resets it and flips the shared sense, which the others
 * spin on. Ordering: the decrements are volatile read-modify-writes, each reading the one before, and the sense
 * flip is a volatile store read by every waiter, so every write any worker made before {@code await} is visible
 * to every worker after {@code await}. The barrier is reusable at once: a worker's own sense (kept per worker
 * index) alternates between phases, and the count is reset before the flip that releases anyone.
 */
public final class SenseBarrier {
    private static final VarHandle COUNT;
    /** Ints between two workers' own senses, so that each sits on its own cache line. */
    private static final int PAD = 16;

    static {
        try {
            COUNT = MethodHandles.lookup().findVarHandle(SenseBarrier.class, "count", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int parties;
    private final int[] workerSense;
    private volatile int count;
    private volatile int sense;

    public SenseBarrier(int parties) {
        if (parties < 1) {
            throw new IllegalArgumentException("parties must be at least 1, got " + parties);
        }
        this.parties = parties;
        this.workerSense = new int[parties * PAD];
        this.count = parties;
    }

    public int parties() {
        return parties;
    }

    /** Waits until all parties have arrived; spins with {@link Thread#onSpinWait}, checks the watchdog. */
    public void await(int worker, Watchdog watchdog) {
        int mySense = workerSense[worker * PAD] ^ 1;
        workerSense[worker * PAD] = mySense;
        if ((int) COUNT.getAndAdd(this, -1) == 1) {
            count = parties;
            sense = mySense;
        } else if (sense != mySense) {
            spin(mySense, watchdog);
        }
    }

    private void spin(int mySense, Watchdog watchdog) {
        long start = Watchdog.CLOCK_NOT_STARTED;
        for (int spins = 1; sense != mySense; spins++) {
            Thread.onSpinWait();
            if ((spins & (Watchdog.SPINS_PER_CHECK - 1)) == 0) {
                start = watchdog.tick(start, -1, -1, -1);
            }
        }
    }
}
