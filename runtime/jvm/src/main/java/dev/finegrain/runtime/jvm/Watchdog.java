package dev.finegrain.runtime.jvm;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Declares a stall when one wait makes no progress for the timeout, so that a broken plan (a token nobody
 * publishes) ends in a {@link StallException} naming the waiters instead of a hung run.
 *
 * <p>Waits do not read the clock on their fast path: the token waits check through {@link WaitPolicy} once they
 * stop spinning (at every yield and park), the barrier's spin once per {@link #SPINS_PER_CHECK} spins, passing the
 * time their wait began (read lazily, at the first check). Once any
 * waiter declares a stall, every later {@code check} of any waiter throws too, so all workers of the run stop
 * quickly, each adding its own wait to the shared report. A watchdog stays stalled: use a new one per run.
 */
public final class Watchdog {
    /** Ten seconds: long enough for any honest wait on a loaded machine, short enough to report a broken plan. */
    public static final long DEFAULT_TIMEOUT_NANOS = 10_000_000_000L;
    /** {@link SenseBarrier}'s spin calls {@link #check} once per this many spins (a power of two, so the test is a mask). */
    public static final int SPINS_PER_CHECK = 1024;

    /** The start time a wait holds before its first check; {@link WaitPolicy#pause} replaces it with the clock. */
    static final long CLOCK_NOT_STARTED = 0L;

    private final long timeoutNanos;
    private final WaitDescriber describer;
    private final WaitPolicy waitPolicy;
    private volatile boolean stalled;
    private volatile boolean aborted;
    private final List<String> waits = new ArrayList<>();

    public Watchdog(long timeoutNanos, WaitDescriber describer) {
        this(timeoutNanos, describer, WaitPolicy.ADAPTIVE);
    }

    /** A watchdog for a run whose token waits pause as {@code waitPolicy} has it. */
    public Watchdog(long timeoutNanos, WaitDescriber describer, WaitPolicy waitPolicy) {
        if (timeoutNanos <= 0) {
            throw new IllegalArgumentException("timeoutNanos must be positive, got " + timeoutNanos);
        }
        this.timeoutNanos = timeoutNanos;
        this.describer = Objects.requireNonNull(describer, "describer");
        this.waitPolicy = Objects.requireNonNull(waitPolicy, "waitPolicy");
    }

    /** How the run's token waits pause between looks: one choice for the whole run, made by its schedule. */
    public WaitPolicy waitPolicy() {
        return waitPolicy;
    }

    /**
     * Called from spin loops. Throws StallException when the wait that began at startNanos has lasted longer than
     * the timeout, or when another waiter already declared a stall; records this waiter's description (via the
     * describer) in the report either way.
     */
    public void check(long startNanos, int channel, long consumerPoint, long producerPoint) {
        if (!stalled && System.nanoTime() - startNanos <= timeoutNanos) {
            return;
        }
        declareStall(channel, consumerPoint, producerPoint);
    }

    /**
     * Declares a stall now, whatever the clock says: for a wait that knows it can never end (a barrier that a
     * worker left without arriving), or that must end because another waiter declared one. Records this waiter's
     * description and throws.
     */
    public void declareStall(int channel, long consumerPoint, long producerPoint) {
        stalled = true;
        String wait = describer.describe(channel, consumerPoint, producerPoint);
        synchronized (waits) {
            waits.add(wait);
        }
        throw new StallException(this);
    }

    /**
     * Ends every wait of the run at its next check: called when a worker fails, so the others stop waiting for
     * tokens it will never publish instead of sitting out the timeout.
     */
    public void abort() {
        aborted = true;
        stalled = true;
    }

    /**
     * Whether the waits ended because a worker failed ({@link #abort}) rather than because one timed out: then the
     * worker's own failure, not the abandoned waits, is what went wrong.
     */
    public boolean aborted() {
        return aborted;
    }

    /** Whether some waiter has declared a stall. */
    public boolean stalled() {
        return stalled;
    }

    public long timeoutNanos() {
        return timeoutNanos;
    }

    List<String> recordedWaits() {
        synchronized (waits) {
            return List.copyOf(waits);
        }
    }
}
