package dev.finegrain.compiler.backend;

/**
 * How to run: the seed (for interleavings), worker threads, whether to measure (warm up, then time {@code timedRuns}
 * runs and report their median, with their minimum and maximum as the spread) or run once, and how long a wait may
 * make no progress before the run is declared stalled.
 */
public record RunSettings(long seed, int threads, boolean measure, int timedRuns, long stallTimeoutNanos) {

    public static final long DEFAULT_STALL_TIMEOUT_NANOS = 10_000_000_000L;

    /** Timed runs of a measured row unless the user asks for more ({@code --repeat}). */
    public static final int DEFAULT_TIMED_RUNS = 7;

    public RunSettings {
        if (timedRuns < 1) {
            throw new IllegalArgumentException("timed runs must be positive: " + timedRuns);
        }
    }

    /** Settings with the default number of timed runs when measuring. */
    public RunSettings(long seed, int threads, boolean measure, long stallTimeoutNanos) {
        this(seed, threads, measure, DEFAULT_TIMED_RUNS, stallTimeoutNanos);
    }

    public static RunSettings once(long seed, int threads) {
        return new RunSettings(seed, threads, false, DEFAULT_STALL_TIMEOUT_NANOS);
    }

    /** How many runs a backend times: {@link #timedRuns} when measuring, else the one run. */
    public int runsToTime() {
        return measure ? timedRuns : 1;
    }

    /** The same settings with another number of worker threads (a sweep over thread counts). */
    public RunSettings withThreads(int workers) {
        return workers == threads ? this : new RunSettings(seed, workers, measure, timedRuns, stallTimeoutNanos);
    }

    public static int defaultThreads() {
        return Runtime.getRuntime().availableProcessors();
    }
}
