package dev.finegrain.compiler.backend.gpu.mechanism;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.dsl.ChannelPolicy;
import dev.finegrain.dsl.LockMechanism;

import java.util.Optional;

/**
 * A mutex word per token (seed 001 Listings 2, 11, 14): the producer holds it from the start and unlocks it once its
 * value is stored; a consumer takes it with an atomic exchange and, for a shared channel, gives it back at once.
 */
final class AtomicSpinLock implements GpuMechanism {

    @Override
    public LockMechanism id() {
        return LockMechanism.ATOMIC_SPIN_LOCK;
    }

    @Override
    public Optional<String> unsupportedOn(GpuTarget target) {
        return Optional.empty();
    }

    @Override
    public Optional<LockMechanism> warpSharedForm() {
        return Optional.of(LockMechanism.SHARED_SPIN_LOCK);
    }

    @Override
    public TokenStorage storage(ChannelPolicy policy, GpuTarget target) {
        return TokenStorage.TOKEN_WORD;
    }

    @Override
    public boolean tokenIsMutex() {
        return true;
    }

    @Override
    public boolean claimsLockBit(GpuTarget target) {
        return target.sharedAtomicsAsLockLoops();
    }

    /** Its token words can live in device memory, released and acquired at device scope. */
    @Override
    public Optional<String> noDeviceTokens(GpuTarget target) {
        return Optional.empty();
    }
}
