package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.dsl.LockMechanism;

/**
 * The GPU model's registry: the one place a lock mechanism becomes its spelling in the model ISA. The mechanism's
 * facts ({@code GpuMechanism}) know no emitter; each emitter names its own spellings here, and the switch's
 * exhaustiveness makes a new mechanism name its model spelling.
 */
final class SimtSyncs {

    private SimtSyncs() {}

    static SimtSync of(LockMechanism mechanism) {
        return switch (mechanism) {
            case TINY_LOCK -> new TinyLockSimt();
            case ATOMIC_SPIN_LOCK -> new AtomicSpinLockSimt();
            case SHARED_SPIN_LOCK -> new SharedSpinLockSimt();
            case NAMED_BARRIER -> new NamedBarrierSimt();
            case WARP_VOTE -> new WarpVoteSimt();
            case ACQUIRE_RELEASE_FLAG -> new AcquireReleaseSimt();
            case MBARRIER -> new MbarrierSimt();
            case MBARRIER_WARP -> new MbarrierWarpSimt();
            case LOCK_BOX -> new LockBoxSimt();
            case BLOCKING, SPSC_RING -> throw new IllegalArgumentException(mechanism + " has no GPU form");
        };
    }
}
