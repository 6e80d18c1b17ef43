package dev.finegrain.compiler.backend.gpu.mechanism;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.dsl.ChannelPolicy;
import dev.finegrain.dsl.LockMechanism;

import java.util.Optional;

/**
 * Seed 003's lock-box on a GPU that has one (a model profile with {@code feature.lockBox}): a lock per token, keyed
 * by its shared-memory word and held from the launch; the producer releases it once it has stored its value, and a
 * consumer's acquire suspends the lane, issuing nothing, until a release grants it the lock (FIFO per lock). A
 * blocking acquire cannot be tried, so a lane waits for its tokens in turn; a shared token goes to the next consumer
 * at once, so no lane holds one token while it waits for another.
 */
final class LockBoxGpu implements GpuMechanism {

    @Override
    public LockMechanism id() {
        return LockMechanism.LOCK_BOX;
    }

    @Override
    public Optional<String> unsupportedOn(GpuTarget target) {
        return target.lockBox() ? Optional.empty() : Optional.of(id() + " needs a lock-box unit, which " + target.called()
                + " does not have (no real GPU has one); on the model, set the feature: gpu-model:PROFILE@feature.lockBox=true");
    }

    @Override
    public Optional<LockMechanism> warpSharedForm() {
        return Optional.empty();
    }

    @Override
    public TokenStorage storage(ChannelPolicy policy, GpuTarget target) {
        return TokenStorage.TOKEN_WORD;
    }

    @Override
    public boolean suspendsWaiters() {
        return true;
    }
}
