package dev.finegrain.compiler.resolve;

import dev.finegrain.compiler.backend.Backend;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;

import java.util.Objects;
import java.util.Optional;

/**
 * What a caller asks for: a kernel under a schedule (with its lock choices) on a target, with a lock mechanism or,
 * when {@code mechanism} is empty, the one the schedule or kernel names, else the target's default.
 */
public record VariantRequest(Kernel kernel, Schedule schedule, Backend target, Optional<LockMechanism> mechanism) {

    public VariantRequest {
        Objects.requireNonNull(kernel, "kernel");
        Objects.requireNonNull(schedule, "schedule");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(mechanism, "mechanism");
    }

    /** The default mechanism: the schedule's or kernel's own, else the target's. */
    public static VariantRequest of(Kernel kernel, Schedule schedule, Backend target) {
        return new VariantRequest(kernel, schedule, target, Optional.empty());
    }

    public VariantRequest withMechanism(LockMechanism chosen) {
        return new VariantRequest(kernel, schedule, target, Optional.of(chosen));
    }
}
