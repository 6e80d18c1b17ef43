package dev.finegrain.runtime.jvm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Sense-reversing barrier for a fixed number of workers (a wavefront step, a block-diagonal): spins, then parks.
 *
 * <p>Each arrival decrements a shared count; the last one resets it and flips the shared sense, which the others
 * wait on. Ordering: the decrements are volatile read-modify-writes, each reading the one before, and the sense
 * flip is a volatile store read by every waiter, so every write any worker made before {@code await} is visible
 * to every worker after {@code await}. The barrier is reusable at once: a worker's own sense (kept per worker
 * index) alternates between phases, and the count is reset before the flip that releases anyone.
 *
 * <p>Spin, then park. On a quiet machine the workers of a step arrive within microseconds of each other, and a
 * waiter that spins leaves the barrier about as soon as the last one arrives (a cache line's round trip between
 * two cores). When the machine has more runnable threads than cores, the last worker may not be running at all,
 * and a waiter that spun on would hold the core it needs; so a waiter spins for at most {@link #SPIN_NANOS}, then
 * parks, and the last arrival unparks whoever parked. No lost wakeup: a waiter records its thread, counts itself
 * parked (a volatile read-modify-write) and re-reads the sense before it parks; the last arrival stores the sense
 * and then reads the parked count. Volatile accesses are totally ordered, so either the arrival sees the count and
 * unparks the waiter, or the waiter's re-read comes after the flip and it does not park. An unpark that lands
 * before the park leaves a permit, and every wakeup re-reads the sense, so early and spurious wakeups are harmless.
 *
 * <p>Watchdog. A barrier wait has no timeout: a worker that waits here while a peer computes a long step is idle,
 * not stuck, however long the step. It can end without release in two ways only: the run's watchdog stalled (a
 * token wait elsewhere timed out, or a worker failed), or a worker {@link #depart departed}, finishing its task
 * without arriving, so that the barrier can never complete (a broken plan whose workers take different numbers of
 * steps). A departure is told apart from a normal finish by reading the sense after it: a worker that left after
 * the last step had seen the release that this waiter is about to see. A parked waiter looks at both every
 * {@link #PARK_SLICE_NANOS}.
 */
public final class SenseBarrier implements StepBarrier {
    private static final VarHandle COUNT;
    private static final VarHandle PARKED;
    /** The channel a barrier wait reports to its watchdog's describer (no token channel has a negative number). */
    public static final int WAIT_CHANNEL = -1;
    /** The channel reported by a wait that a departed worker left with no way to complete. */
    public static final int ABANDONED_CHANNEL = -2;
    /**
     * How long a waiter spins before it parks: far longer than the imbalance of a step on a quiet machine, and about
     * what a park and its unpark cost in system calls and wake-up latency, so that a waiter never spins much longer
     * than blocking would have cost it (the competitive spin-then-block bound).
     */
    public static final long SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    /** How long a parked waiter sleeps before looking at the watchdog and at departures again. */
    static final long PARK_SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** Spins between two reads of the clock, which costs about as much as a few dozen pauses. */
    private static final int SPINS_PER_CLOCK_READ = 64;
    /** Ints between two workers' own senses, so that each sits on its own cache line. */
    private static final int PAD = 16;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            COUNT = lookup.findVarHandle(SenseBarrier.class, "count", int.class);
            PARKED = lookup.findVarHandle(SenseBarrier.class, "parked", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int parties;
    private final long spinNanos;
    private final long parkSliceNanos;
    private final int[] workerSense;
    /** The thread of each worker that has parked in this barrier (written before it counts itself parked). */
    private final Thread[] parkedThreads;
    private volatile int count;
    private volatile int sense;
    private volatile int parked;
    private volatile boolean departed;

    /** A barrier whose waiters spin for {@link #SPIN_NANOS}, then park. */
    public SenseBarrier(int parties) {
        this(parties, SPIN_NANOS);
    }

    /**
     * A barrier whose waiters spin for {@code spinNanos} before parking: 0 parks at once (tests of the parking path
     * use it), {@link Long#MAX_VALUE} never parks.
     */
    public SenseBarrier(int parties, long spinNanos) {
        this(parties, spinNanos, PARK_SLICE_NANOS);
    }

    SenseBarrier(int parties, long spinNanos, long parkSliceNanos) {
        if (parties < 1) {
            throw new IllegalArgumentException("parties must be at least 1, got " + parties);
        }
        if (spinNanos < 0) {
            throw new IllegalArgumentException("spinNanos must not be negative, got " + spinNanos);
        }
        this.parties = parties;
        this.spinNanos = spinNanos;
        this.parkSliceNanos = parkSliceNanos;
        this.workerSense = new int[parties * PAD];
        this.parkedThreads = new Thread[parties];
        this.count = parties;
    }

    @Override
    public int parties() {
        return parties;
    }

    /** Waits until all parties have arrived: spins, then parks; checks the watchdog. */
    @Override
    public void await(int worker, Watchdog watchdog) {
        int mySense = workerSense[worker * PAD] ^ 1;
        workerSense[worker * PAD] = mySense;
        if ((int) COUNT.getAndAdd(this, -1) == 1) {
            count = parties;
            sense = mySense;
            if (parked != 0) {
                unparkWaiters();
            }
        } else if (sense != mySense && !spin(mySense, watchdog)) {
            park(worker, mySense, watchdog);
        }
    }

    /** A departure makes every waiter that can no longer be released report it, instead of waiting for the timeout. */
    @Override
    public void depart() {
        departed = true;
    }

    /** Whether the sense flipped within the spin budget. */
    private boolean spin(int mySense, Watchdog watchdog) {
        long spinStart = 0L;
        for (int spins = 1; sense != mySense; spins++) {
            Thread.onSpinWait();
            if ((spins & (SPINS_PER_CLOCK_READ - 1)) == 0) {
                long now = System.nanoTime();
                if (spinStart == 0L) {
                    spinStart = now;
                } else if (now - spinStart >= spinNanos) {
                    return sense == mySense;
                }
                if ((spins & (Watchdog.SPINS_PER_CHECK - 1)) == 0) {
                    checkAbandoned(mySense, watchdog);
                }
            }
            if (spinNanos == 0L) {
                return sense == mySense;
            }
        }
        return true;
    }

    private void park(int worker, int mySense, Watchdog watchdog) {
        parkedThreads[worker] = Thread.currentThread();
        PARKED.getAndAdd(this, 1);
        try {
            while (sense != mySense) {
                LockSupport.parkNanos(this, parkSliceNanos);
                if (sense != mySense) {
                    checkAbandoned(mySense, watchdog);
                }
            }
        } finally {
            // only this worker writes its slot; a last arrival that still finds it set unparks a running thread,
            // which leaves a permit that makes its next park return early (harmless, as above)
            parkedThreads[worker] = null;
            PARKED.getAndAdd(this, -1);
        }
    }

    private void unparkWaiters() {
        for (Thread waiter : parkedThreads) {
            if (waiter != null) {
                LockSupport.unpark(waiter);
            }
        }
    }

    private void checkAbandoned(int mySense, Watchdog watchdog) {
        if (watchdog.stalled()) {
            watchdog.declareStall(WAIT_CHANNEL, -1, -1);
        }
        if (departed && sense != mySense) {
            watchdog.declareStall(ABANDONED_CHANNEL, -1, -1);
        }
    }
}
