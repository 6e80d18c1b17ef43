package dev.finegrain.runtime.jvm;

import java.util.List;

/**
 * Thrown by every waiter of a run whose {@link Watchdog} declared a stall. All waiters of one run share one
 * report: {@link #waits()} lists each wait recorded so far, one line per waiting actor instance as worded by the
 * run's {@link WaitDescriber}. Once {@link WorkerTeam#run} has rethrown it, every worker has stopped, so the
 * report is complete.
 */
public final class StallException extends RuntimeException {
    private final transient Watchdog watchdog;
    /** Read when thrown, so that an abort after a timed-out wait cannot relabel that wait. */
    private final boolean afterAbort;

    StallException(Watchdog watchdog) {
        this.watchdog = watchdog;
        this.afterAbort = watchdog.aborted();
    }

    /** Every recorded wait: which actor instance waits on which channel for which producer. */
    public List<String> waits() {
        return watchdog.recordedWaits();
    }

    /** Whether these waits were abandoned because a worker failed, rather than timed out. */
    public boolean afterAbort() {
        return afterAbort;
    }

    /** A one-line summary: why the waits ended (the timeout, or a failed worker) and the recorded waits. */
    @Override
    public String getMessage() {
        List<String> waits = waits();
        String why = afterAbort() ? "stopped waiting because another worker failed; "
                : "stall: a wait made no progress for " + watchdog.timeoutNanos() / 1_000_000 + " ms; ";
        return why + waits.size() + (waits.size() == 1 ? " wait: " : " waits: ") + String.join("; ", waits);
    }
}
