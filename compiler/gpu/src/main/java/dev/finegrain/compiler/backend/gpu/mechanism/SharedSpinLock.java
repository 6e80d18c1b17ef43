package dev.finegrain.compiler.backend.gpu.mechanism;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.dsl.ChannelPolicy;
import dev.finegrain.dsl.LockMechanism;

import java.util.Optional;

/**
 * One mutex per warp (seed 001 Table 1, "shrd lock"): the warp's representative lane takes the producer warp's mutex
 * and gives it back, and unlocks its own once the warp's lanes have reconverged after firing.
 */
final class SharedSpinLock implements GpuMechanism {

    @Override
    public LockMechanism id() {
        return LockMechanism.SHARED_SPIN_LOCK;
    }

    @Override
    public Optional<String> unsupportedOn(GpuTarget target) {
        return Reconvergence.required(id(), target);
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
    public boolean tokenIsMutex() {
        return true;
    }

    @Override
    public boolean claimsLockBit(GpuTarget target) {
        return target.sharedAtomicsAsLockLoops();
    }
}
