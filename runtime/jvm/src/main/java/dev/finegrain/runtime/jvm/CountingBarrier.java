package dev.finegrain.runtime.jvm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The atomic barrier Stuart and Owens measure against Xiao and Feng's (their Figure 1): each arrival increments one
 * shared counter and polls it until it reaches {@code parties} times the step number. One atomic per worker and step,
 * all on one word: centralised, simple, and as slow as that word's contention. The counter is never reset (a reset
 * would need a second phase); the comparison is by difference, so it wraps harmlessly.
 *
 * <p>Ordering: each arrival is a volatile read-modify-write, and the poll a volatile read that sees the last one, so
 * every write made before the wait is visible after it.
 */
public final class CountingBarrier implements StepBarrier {
    private static final VarHandle COUNT;
    private static final int PAD = 16;

    static {
        try {
            COUNT = MethodHandles.lookup().findVarHandle(CountingBarrier.class, "count", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int parties;
    /** Each worker's step number, on its own cache line. */
    private final int[] steps;
    @SuppressWarnings("unused") // through COUNT
    private volatile int count;

    public CountingBarrier(int parties) {
        if (parties < 1) {
            throw new IllegalArgumentException("a barrier needs at least one worker, was " + parties);
        }
        this.parties = parties;
        this.steps = new int[parties * PAD];
    }

    @Override
    public void await(int worker, Watchdog watchdog) {
        int goal = (steps[worker * PAD] += 1) * parties;
        COUNT.getAndAdd(this, 1);
        long start = Watchdog.CLOCK_NOT_STARTED;
        for (long attempt = 0; (int) COUNT.getVolatile(this) - goal < 0; attempt++) {
            start = watchdog.waitPolicy().pause(attempt, start, watchdog, Exclusion.WAIT_CHANNEL, worker, -1);
        }
    }

    @Override
    public int parties() {
        return parties;
    }
}
