package dev.finegrain.gpu;

/** Why a group of lanes cannot move, most specific first; a report's kind is the first one present. */
public enum DeadlockKind {
    /**
     * Seed 001 §4.4.2: the lock bit the lane waits for is held through a different, aliased address (by itself, or by
     * a thread that in turn waits, typically at a barrier).
     */
    ALIAS("alias deadlock"),
    /**
     * Seed 001 §4.4.1: the lock bit is held by a lane of the same warp that is masked off, waiting at a reconvergence
     * point for the very lanes that spin; or lanes spin (on a mutex in memory, say) while lanes of their own warp are
     * masked off waiting for them.
     */
    SIMD("SIMD deadlock"),
    /** The lock bit is held by a thread that exited or that spins itself: a circular or abandoned lock. */
    LOCK("lock deadlock"),
    /**
     * Suspended by the lock box on a lock nobody will release: held since the launch by its initial token, by a
     * thread that exited, by the lane itself, or by a lane that cannot move (itself suspended on a lock this one holds,
     * waiting at a barrier, or masked off waiting for this lane to reconverge).
     */
    LOCK_BOX("lock-box deadlock"),
    /** Waiting at a barrier that not enough threads will reach. */
    BARRIER("barrier deadlock"),
    /** Masked off under Fermi, waiting for lanes of its own warp to reconverge. */
    RECONVERGENCE("waiting to reconverge"),
    /** Issuing, but changing nothing (a spin on a value that never comes). */
    SPIN("spinning without progress");

    private final String description;

    DeadlockKind(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
