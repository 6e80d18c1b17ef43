package dev.finegrain.compiler.backend.gpu.mechanism;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.dsl.ChannelPolicy;
import dev.finegrain.dsl.LockMechanism;

import java.util.Optional;

/**
 * Seed 001's tiny-lock: Fermi's shared-memory lock bits as channels. A producer takes its word's lock bit before
 * anything runs and stores its value with STSUL, which frees the bit; a consumer's LDSLK succeeds only then, and loads
 * the value with it (Listing 4). Shared channels use the data word's own bit; private ones a word per channel.
 */
final class TinyLock implements GpuMechanism {

    @Override
    public LockMechanism id() {
        return LockMechanism.TINY_LOCK;
    }

    @Override
    public Optional<String> unsupportedOn(GpuTarget target) {
        return target.lockBits() == 0 && !target.lockBitsAsWords()
                ? Optional.of(id() + " needs shared-memory lock bits, which " + target.called() + " does not have")
                : Optional.empty();
    }

    @Override
    public Optional<LockMechanism> warpSharedForm() {
        return Optional.of(LockMechanism.WARP_VOTE);
    }

    @Override
    public TokenStorage storage(ChannelPolicy policy, GpuTarget target) {
        if (policy == ChannelPolicy.PRIVATE) {
            return TokenStorage.TOKEN_WORD;
        }
        return target.lockBits() > 0 ? TokenStorage.LOCK_BIT_OF_DATA_WORD : TokenStorage.READY_BIT_BESIDE_VALUE;
    }

    /**
     * Between blocks its token is the ready bit beside the value, one 64-bit word of device memory any block can read, on
     * every machine: a lock bit belongs to one SM, so where the machine has them they serve the tiles, not the bands.
     */
    @Override
    public Optional<String> noDeviceTokens(GpuTarget target) {
        return Optional.empty();
    }

    @Override
    public TokenStorage deviceStorage(GpuTarget target) {
        return TokenStorage.READY_BIT_BESIDE_VALUE;
    }

    @Override
    public boolean claimsLockBit(GpuTarget target) {
        return target.lockBits() > 0;
    }
}
