package dev.finegrain.compiler.backend;

/**
 * How to run: the seed (for interleavings), worker threads, whether to measure (warm up, then report the median
 * of several timed runs) or run once, and how long a wait may make no progress before the run is declared stalled.
 */
public record RunSettings(long seed, int threads, boolean measure, long stallTimeoutNanos) {

    public static final long DEFAULT_STALL_TIMEOUT_NANOS = 10_000_000_000L;

    public static RunSettings once(long seed, int threads) {
        return new RunSettings(seed, threads, false, DEFAULT_STALL_TIMEOUT_NANOS);
    }

    /** The same settings with another number of worker threads (a sweep over thread counts). */
    public RunSettings withThreads(int workers) {
        return workers == threads ? this : new RunSettings(seed, workers, measure, stallTimeoutNanos);
    }

    public static int defaultThreads() {
        return Runtime.getRuntime().availableProcessors();
    }
}
