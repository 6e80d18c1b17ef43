package dev.finegrain.compiler.backend.gpu.mechanism;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.dsl.ChannelPolicy;
import dev.finegrain.dsl.LockMechanism;

import java.util.Optional;

/**
 * Hopper's mbarrier with warp-shared granularity: one per warp in shared memory, armed for the warp's 32 lanes; every
 * lane arrives once its value is stored (a release of its own writes), so the phase completes with the warp's last
 * store and no representative or reconvergence is needed; a consumer warp waits until the producer warp's phase 0
 * completed. One token per warp, as the warp vote keeps, where {@link Mbarrier} keeps one per thread.
 */
final class MbarrierWarp implements GpuMechanism {

    @Override
    public LockMechanism id() {
        return LockMechanism.MBARRIER_WARP;
    }

    @Override
    public Optional<String> unsupportedOn(GpuTarget target) {
        return target.hasMbarrier() ? Optional.empty() : Optional.of(id() + " needs a profile with feature.mbarrier"
                + " (hopper-h100, hopper-h200); " + target.name() + " has none");
    }

    @Override
    public Optional<LockMechanism> warpSharedForm() {
        return Optional.of(id());
    }

    @Override
    public int tokenWordBytes(GpuTarget target) {
        return target.mbarrierBytes();
    }

    @Override
    public TokenStorage storage(ChannelPolicy policy, GpuTarget target) {
        return TokenStorage.TOKEN_WORD;
    }
}
