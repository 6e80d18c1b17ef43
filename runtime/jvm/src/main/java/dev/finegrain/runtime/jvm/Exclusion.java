package dev.finegrain.runtime.jvm;

/**
 * A primitive that admits at most {@link #capacity} workers between {@link #acquire} and {@link #release}: a mutex
 * (capacity 1) or a counting semaphore. Stuart and Owens ("Efficient synchronization primitives for GPUs") give each
 * of theirs block semantics, one request per block; here a worker (a thread) is the block. Waits pause as the
 * watchdog's wait policy has it and report a stall through it, naming the primitive, instead of hanging.
 */
public interface Exclusion {
    /** The channel a primitive's wait reports to its watchdog's describer, with the waiting worker as the point. */
    int WAIT_CHANNEL = -3;

    /** Waits until this worker may enter. */
    void acquire(int worker);

    /** Leaves, letting one waiter in. */
    void release(int worker);

    /** How many workers may be inside at once. */
    int capacity();
}
