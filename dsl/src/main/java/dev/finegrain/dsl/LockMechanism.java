package dev.finegrain.dsl;

import java.util.Arrays;
import java.util.Optional;

/**
 * The lock mechanisms a backend may implement a channel with. Each names a seed mechanism; backends state which
 * ones they support. The reference backend models sync points abstractly and uses none of them.
 */
public enum LockMechanism {
    /** Fermi shared-memory lock bits, LDSLK/STSUL (seed 001 Listing 4). */
    TINY_LOCK("tiny-lock"),
    /** A CAS mutex word per lock (seed 001 Listings 2, 14). */
    ATOMIC_SPIN_LOCK("atomic-spin-lock"),
    /** One atomic spin-lock shared by a warp (seed 001 Table 1, "shrd lock"). */
    SHARED_SPIN_LOCK("shared-spin-lock"),
    /** Named warp barriers, bar.sync/bar.arrive (seed 001 Listing 12). */
    NAMED_BARRIER("named-barrier"),
    /** A warp-shared lock bit with a warp vote (seed 001 Listing 9). */
    WARP_VOTE("warp-vote"),
    /** A ready flag written with release and read with acquire ordering. */
    ACQUIRE_RELEASE_FLAG("acquire-release"),
    /** Hopper's transaction barrier in shared memory. */
    MBARRIER("mbarrier"),
    /**
     * Hopper's transaction barrier, one per warp armed for its 32 lanes (mbarrier with warp-shared granularity): every
     * lane of the producer warp arrives, and the consumer warp waits for the phase.
     */
    MBARRIER_WARP("mbarrier-warp"),
    /** Spin briefly, then block: a ready flag whose waiters park after a short spin. */
    BLOCKING("blocking"),
    /**
     * Seed 003's lock-box: a lock per token whose waiters are suspended (never spinning) and whose release hands the lock
     * straight to the oldest waiter (no barging, starvation-free).
     */
    LOCK_BOX("lock-box"),
    /**
     * Seed 002's buffered channel: a bounded single-producer single-consumer ring per worker's blocks of a 1D domain,
     * its tail the producer's count of finished blocks and its head the consumer's, each written by one worker alone
     * (Lamport's ring: no read-modify-write). A field the kernel does not keep whole lives in the ring's
     * {@link Schedule.LockDataflow#capacity capacity} slots, so a producer runs at most that far ahead of the consumers
     * that read it, and the run holds that many values, not the domain's.
     */
    SPSC_RING("spsc-ring");

    private final String cliName;

    LockMechanism(String cliName) {
        this.cliName = cliName;
    }

    public String cliName() {
        return cliName;
    }

    /**
     * Whether the mechanism keeps one token per warp (group) by construction, whatever granularity the kernel asks
     * for: the warp's shared spin-lock, its vote over one lock bit, and a named barrier all synchronise whole warps.
     */
    public boolean oneTokenPerWarp() {
        return switch (this) {
            case SHARED_SPIN_LOCK, WARP_VOTE, NAMED_BARRIER, MBARRIER_WARP -> true;
            case TINY_LOCK, ATOMIC_SPIN_LOCK, ACQUIRE_RELEASE_FLAG, MBARRIER, BLOCKING, LOCK_BOX, SPSC_RING -> false;
        };
    }

    /** The granularity a kernel that asks for {@code asked} gets under this mechanism: warp-shared when it keeps one token per warp. */
    public LockGranularity granularityFor(LockGranularity asked) {
        return oneTokenPerWarp() ? LockGranularity.WARP_SHARED : asked;
    }

    public static Optional<LockMechanism> fromCliName(String name) {
        return Arrays.stream(values()).filter(m -> m.cliName.equals(name)).findFirst();
    }

    @Override
    public String toString() {
        return cliName;
    }
}
