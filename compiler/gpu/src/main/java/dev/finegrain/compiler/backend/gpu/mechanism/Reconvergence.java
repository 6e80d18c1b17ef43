package dev.finegrain.compiler.backend.gpu.mechanism;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.dsl.LockMechanism;

import java.util.Optional;

/** The requirement of the warp mechanisms whose representative publishes for the whole warp. */
final class Reconvergence {

    private Reconvergence() {}

    static Optional<String> required(LockMechanism mechanism, GpuTarget target) {
        return target.reconvergesWarps() ? Optional.empty() : Optional.of(mechanism + " publishes a warp's token after"
                + " its lanes reconverge, which independent thread scheduling (" + target.called() + ") does not"
                + " guarantee; use a Fermi profile or a per-thread mechanism");
    }
}
