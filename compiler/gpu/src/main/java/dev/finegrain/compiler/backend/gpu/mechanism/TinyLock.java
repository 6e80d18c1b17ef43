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

    /** On a machine without lock bits its token is a ready bit beside the value, a word any block can read. */
    @Override
    public Optional<String> noDeviceTokens(GpuTarget target) {
        return target.lockBits() > 0 ? Optional.of(id() + " takes its tokens from " + target.called() + "'s lock bits, which"
                + " belong to one SM, and the bands of lock-dataflow:persistent hand tokens between blocks; use"
                + " acquire-release or atomic-spin-lock") : Optional.empty();
    }

    @Override
    public boolean claimsLockBit(GpuTarget target) {
        return target.lockBits() > 0;
    }
}
