package dev.finegrain.compiler.backend.gpu.mechanism;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.dsl.ChannelPolicy;
import dev.finegrain.dsl.LockMechanism;

import java.util.Optional;

/**
 * A warp-shared lock bit (seed 001 Listing 9): a computing warp takes its bit; every lane of a consumer warp tries the
 * producer warp's bit and the warp goes on when a vote says one lane got it; the representative frees the bits.
 */
final class WarpVote implements GpuMechanism {

    @Override
    public LockMechanism id() {
        return LockMechanism.WARP_VOTE;
    }

    @Override
    public Optional<String> unsupportedOn(GpuTarget target) {
        return Reconvergence.required(id(), target).or(() -> target.lockBits() == 0 && !target.lockBitsAsWords()
                ? Optional.of(id() + " needs shared-memory lock bits, which " + target.called() + " does not have")
                : Optional.empty());
    }

    @Override
    public Optional<LockMechanism> warpSharedForm() {
        return Optional.of(id());
    }

    @Override
    public TokenStorage storage(ChannelPolicy policy, GpuTarget target) {
        return TokenStorage.TOKEN_WORD;
    }

    @Override
    public boolean claimsLockBit(GpuTarget target) {
        return target.lockBits() > 0;
    }
}
