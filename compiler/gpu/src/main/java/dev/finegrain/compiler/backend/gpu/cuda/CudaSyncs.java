package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.dsl.LockMechanism;

/**
 * The CUDA target's registry: the one place a lock mechanism becomes its spelling in CUDA C++. The mechanism's
 * facts ({@code GpuMechanism}) know no emitter; each emitter names its own spellings here, and the switch's
 * exhaustiveness makes a new mechanism name its CUDA spelling.
 */
final class CudaSyncs {

    private CudaSyncs() {}

    static CudaSync of(LockMechanism mechanism) {
        return switch (mechanism) {
            case TINY_LOCK -> new TinyLockCuda();
            case ATOMIC_SPIN_LOCK -> new AtomicSpinLockCuda();
            case SHARED_SPIN_LOCK -> new SharedSpinLockCuda();
            case NAMED_BARRIER -> new NamedBarrierCuda();
            case WARP_VOTE -> new WarpVoteCuda();
            case ACQUIRE_RELEASE_FLAG -> new AcquireReleaseCuda();
            case MBARRIER -> new MbarrierCuda();
            case MBARRIER_WARP -> new MbarrierWarpCuda();
            case BLOCKING, LOCK_BOX, SPSC_RING -> throw new IllegalArgumentException(mechanism + " has no GPU form");
        };
    }
}
