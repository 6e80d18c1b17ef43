package dev.finegrain.runtime.jvm;

/**
 * Where the instances that became ready wait for a worker to fire them, in dynamic dataflow: a producer whose token
 * completes a consumer's last channel {@link #put puts} the consumer (an instance or tile number, 0 or more), and an
 * idle worker {@link #take takes} one. Three forms answer the question of the fine-grained and lock-free lecture
 * (seed 002) for Finegrain's own problem, so that it is measured rather than told: {@link LockedReadyQueue} (one queue
 * under one lock), {@link MichaelScottQueue} (lock-free, every worker on one head and one tail) and
 * {@link WorkStealingDeques} (a Chase-Lev deque per worker: pushes and pops at its own end, steals at the others').
 * All are safe for any number of workers; each item put is taken exactly once.
 */
public interface ReadyStructure {
    /** What {@link #take} returns when it found nothing. */
    int EMPTY = -1;

    /** Adds {@code item} (at least 0), by worker {@code worker}. */
    void put(int worker, int item);

    /** An item, or {@link #EMPTY} when the structure held none at the moment it looked. */
    int take(int worker);
}
