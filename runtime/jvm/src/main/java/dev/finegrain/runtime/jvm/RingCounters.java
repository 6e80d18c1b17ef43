package dev.finegrain.runtime.jvm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The counters of seed 002's buffered channels (mechanism spsc-ring) over a 1D domain cut into blocks dealt to the
 * workers in turn: block b is worker (b mod workers)'s (b / workers)-th. Each worker has one counter, the blocks it has
 * finished, on a cache line of its own, written by that worker alone with a release store and read by the others with
 * acquire loads. A worker's counter is the tail of the ring its blocks fill (a consumer waits until the block it reads
 * is counted) and the head of the rings it reads (a producer waits until the block that reads a slot's old value is
 * counted before it overwrites the slot): Lamport's single-producer single-consumer ring, whose two single-writer
 * counters replace a bounded buffer's pair of counting semaphores (free slots, full slots; {@link SpinSemaphore},
 * {@link SleepingSemaphore}) so that neither side needs an atomic read-modify-write. Waits pause as the run's wait
 * policy has it, as the semaphores' do.
 *
 * <p>On a 2D domain the workers own bands of columns and walk every row in order ({@link #finishRows}, {@link
 * #awaitRows}): a worker's counter is then the rows of its band it has finished, the tail of the ring of rows its
 * neighbours read and the head of the ones it reads.
 *
 * <p>ABA: a counter only grows, and each value is written by one thread, so a reader can never mistake a later state
 * for an earlier one; this holds without a garbage collector too (no node is freed or reused, only slots whose
 * reuse the counters themselves order).
 */
public final class RingCounters {
    private static final VarHandle COUNT = MethodHandles.arrayElementVarHandle(long[].class);
    /** Longs per counter: one per 64-byte line, so two workers' counters never share a line. */
    public static final int STRIDE = 8;
    /** The channel number of a wait for space (the watchdog's report names it), beside the plan's channel numbers. */
    public static final int SPACE_CHANNEL = -3;

    private RingCounters() {
    }

    /** The counters of a team of {@code workers}, every count 0. */
    public static long[] create(int workers) {
        return new long[Math.multiplyExact(workers, STRIDE)];
    }

    /** Counts block {@code block} finished by its worker, after the block's writes (release). */
    public static void finish(long[] counters, int block, int workers) {
        COUNT.setRelease(counters, (block % workers) * STRIDE, (long) (block / workers) + 1);
    }

    /** Whether block {@code block} has finished (acquire: its writes are then visible to the caller). */
    public static boolean finished(long[] counters, int block, int workers) {
        return (long) COUNT.getAcquire(counters, (block % workers) * STRIDE) > block / workers;
    }

    /**
     * Returns once block {@code block} has finished (nothing to wait for when it is negative); until then pauses as the
     * watchdog's wait policy has it. {@code channel}, {@code consumerPoint} and {@code producerPoint} name the wait in
     * a stall report.
     */
    public static void awaitBlock(long[] counters, int block, int workers, Watchdog watchdog, int channel,
            int consumerPoint, int producerPoint) {
        if (block >= 0 && !finished(counters, block, workers)) {
            awaitSlowly(counters, block, workers, watchdog, channel, consumerPoint, producerPoint);
        }
    }

    /**
     * Returns once every block up to {@code last} has finished: since each worker finishes its blocks in order, once
     * the last {@code workers} of them have (one per worker).
     */
    public static void awaitBlocksThrough(long[] counters, int last, int workers, Watchdog watchdog, int consumerPoint,
            int blockSize) {
        for (int block = Math.max(0, last - workers + 1); block <= last; block++) {
            awaitBlock(counters, block, workers, watchdog, SPACE_CHANNEL, consumerPoint, block * blockSize);
        }
    }

    /** Counts the first {@code rows} rows of worker {@code worker}'s band finished, after their writes (release). */
    public static void finishRows(long[] counters, int worker, int rows) {
        COUNT.setRelease(counters, worker * STRIDE, (long) rows);
    }

    /**
     * Returns once every worker from {@code fromWorker} to {@code toWorker} (clipped to the team) has finished its first
     * {@code rows} rows; until then pauses as the watchdog's wait policy has it.
     */
    public static void awaitRows(long[] counters, int fromWorker, int toWorker, int rows, int workers, Watchdog watchdog,
            int channel, long consumerPoint, long producerPoint) {
        for (int w = Math.max(0, fromWorker); w <= Math.min(workers - 1, toWorker); w++) {
            if ((long) COUNT.getAcquire(counters, w * STRIDE) < rows) {
                long start = Watchdog.CLOCK_NOT_STARTED;
                for (long attempt = 0; (long) COUNT.getAcquire(counters, w * STRIDE) < rows; attempt++) {
                    start = watchdog.waitPolicy().pause(attempt, start, watchdog, channel, consumerPoint, producerPoint);
                }
            }
        }
    }

    private static void awaitSlowly(long[] counters, int block, int workers, Watchdog watchdog, int channel,
            int consumerPoint, int producerPoint) {
        long start = Watchdog.CLOCK_NOT_STARTED;
        for (long attempt = 0; !finished(counters, block, workers); attempt++) {
            start = watchdog.waitPolicy().pause(attempt, start, watchdog, channel, consumerPoint, producerPoint);
        }
    }
}
