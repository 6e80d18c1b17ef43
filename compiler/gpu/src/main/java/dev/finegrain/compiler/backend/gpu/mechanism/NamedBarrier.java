package dev.finegrain.compiler.backend.gpu.mechanism;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.dsl.ChannelPolicy;
import dev.finegrain.dsl.LockMechanism;

import java.util.Optional;

/**
 * Named warp barriers (seed 001 Listing 12): a producer warp arrives at the barrier named after it once it has fired,
 * its consumer warp syncs on it, and the hardware counts the warps; no token words at all. A block has 16 of them, so
 * one producer warp pairs with one consumer warp through one channel.
 */
final class NamedBarrier implements GpuMechanism {

    @Override
    public LockMechanism id() {
        return LockMechanism.NAMED_BARRIER;
    }

    @Override
    public Optional<String> unsupportedOn(GpuTarget target) {
        return Optional.empty();
    }

    @Override
    public Optional<LockMechanism> warpSharedForm() {
        return Optional.of(id());
    }

    @Override
    public TokenStorage storage(ChannelPolicy policy, GpuTarget target) {
        return TokenStorage.NONE;
    }

    @Override
    public int maxThreadsPerBlock(GpuTarget target, int tokenArrays, int warpsBack) {
        return Math.min(target.maxThreadsPerBlock(), GpuTarget.WARP * (GpuTarget.NAMED_BARRIERS + Math.max(1, warpsBack)));
    }

    @Override
    public int namedBarriers(int warps, int distance) {
        return warps - distance;
    }

    @Override
    public Optional<String> unsupportedChannels(String kernel, int channels) {
        return channels == 1 ? Optional.empty() : Optional.of("named-barrier pairs one producer warp with one consumer"
                + " warp (seed 001 Listing 12); " + kernel + " synchronises " + channels + " channels per point");
    }
}
