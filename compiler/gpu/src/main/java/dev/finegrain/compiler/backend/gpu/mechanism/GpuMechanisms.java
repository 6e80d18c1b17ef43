package dev.finegrain.compiler.backend.gpu.mechanism;

import dev.finegrain.dsl.LockMechanism;

import java.util.Optional;

/** The registry: the one place a {@link LockMechanism} becomes the {@link GpuMechanism} that implements it on GPUs. */
public final class GpuMechanisms {

    private GpuMechanisms() {}

    /** The GPU implementation of a mechanism, or empty for one that has no GPU analogue. */
    public static Optional<GpuMechanism> of(LockMechanism mechanism) {
        return Optional.ofNullable(switch (mechanism) {
            case TINY_LOCK -> new TinyLock();
            case ATOMIC_SPIN_LOCK -> new AtomicSpinLock();
            case SHARED_SPIN_LOCK -> new SharedSpinLock();
            case NAMED_BARRIER -> new NamedBarrier();
            case WARP_VOTE -> new WarpVote();
            case ACQUIRE_RELEASE_FLAG -> new AcquireRelease();
            case MBARRIER -> new Mbarrier();
            case MBARRIER_WARP -> new MbarrierWarp();
            case LOCK_BOX -> new LockBoxGpu();
            case BLOCKING, SPSC_RING -> null;
        });
    }

    /** Why a mechanism has no GPU implementation. */
    public static String whyNoGpuForm(LockMechanism mechanism) {
        return mechanism == LockMechanism.SPSC_RING
                ? mechanism + " rings a few threads' blocks and band rows; on a GPU every instance is a thread of its own"
                        + " (the GPU's ring is dynamic-dataflow's)"
                : mechanism + " parks waiting threads, a CPU mechanism with no GPU analogue";
    }
}
