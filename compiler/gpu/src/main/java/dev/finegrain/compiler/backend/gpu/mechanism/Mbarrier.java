package dev.finegrain.compiler.backend.gpu.mechanism;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.dsl.ChannelPolicy;
import dev.finegrain.dsl.LockMechanism;

import java.util.Optional;

/**
 * Hopper's transaction barrier in shared memory, one per token word, armed for its producer's one arrival: the
 * producer arrives once its value is stored, a consumer tries to wait until phase 0 has completed.
 */
final class Mbarrier implements GpuMechanism {

    @Override
    public LockMechanism id() {
        return LockMechanism.MBARRIER;
    }

    @Override
    public Optional<String> unsupportedOn(GpuTarget target) {
        return target.hasMbarrier() ? Optional.empty() : Optional.of(id() + " needs a profile with feature.mbarrier"
                + " (hopper-h100, hopper-h200); " + target.name() + " has none");
    }

    @Override
    public Optional<LockMechanism> warpSharedForm() {
        return Optional.of(LockMechanism.MBARRIER_WARP);
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
