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
 *
 * <p>Watchdog. A barrier wait has no timeout: a worker that waits here while a peer computes a long step is idle,
 * not stuck, however long the step. It can end without release in two ways only: the run's watchdog stalled (a
 * token wait elsewhere timed out, or a worker failed), or a worker {@link #depart departed}, finishing its task
 * without arriving, so that the barrier can never complete (a broken plan whose workers take different numbers of
 * steps). A departure is told apart from a normal finish by reading the sense after it: a worker that left after
 * the last step had seen the release that this waiter is about to see.
 */
public final class SenseBarrier {
    private static final VarHandle COUNT;
    /** The channel a barrier wait reports to its watchdog's describer (no token channel has a negative number). */
    public static final int WAIT_CHANNEL = -1;
    /** The channel reported by a wait that a departed worker left with no way to complete. */
    public static final int ABANDONED_CHANNEL = -2;
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
    private volatile boolean departed;

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

    /** Says that a worker has finished its task and will not arrive again; every worker calls it once, at its end. */
    public void depart() {
        departed = true;
    }

    private void spin(int mySense, Watchdog watchdog) {
        for (int spins = 1; sense != mySense; spins++) {
            Thread.onSpinWait();
            if ((spins & (Watchdog.SPINS_PER_CHECK - 1)) == 0) {
                if (watchdog.stalled()) {
                    watchdog.declareStall(WAIT_CHANNEL, -1, -1);
                }
                if (departed && sense != mySense) {
                    watchdog.declareStall(ABANDONED_CHANNEL, -1, -1);
                }
                // a peer sharing this core on an oversubscribed machine gets to run
                Thread.yield();
            }
        }
    }
}
