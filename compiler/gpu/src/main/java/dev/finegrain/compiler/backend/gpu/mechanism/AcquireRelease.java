package dev.finegrain.compiler.backend.gpu.mechanism;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.dsl.ChannelPolicy;
import dev.finegrain.dsl.LockMechanism;

import java.util.Optional;

/**
 * A ready flag per token: the producer stores its value, fences, and sets the flag (a release); a consumer reads the
 * flag until it is set (an acquire), then reads the value. Nothing is taken, so nothing is restored.
 */
final class AcquireRelease implements GpuMechanism {

    @Override
    public LockMechanism id() {
        return LockMechanism.ACQUIRE_RELEASE_FLAG;
    }

    @Override
    public Optional<String> unsupportedOn(GpuTarget target) {
        return Optional.empty();
    }

    @Override
    public Optional<LockMechanism> warpSharedForm() {
        return Optional.empty();
    }

    @Override
    public TokenStorage storage(ChannelPolicy policy, GpuTarget target) {
        return TokenStorage.TOKEN_WORD;
    }

    /** Its token words can live in device memory, released and acquired at device scope. */
    @Override
    public Optional<String> noDeviceTokens(GpuTarget target) {
        return Optional.empty();
    }
}
