package dev.finegrain.compiler.resolve;

import dev.finegrain.compiler.backend.Variant;

import java.util.Optional;

/** What the resolver answers: a runnable variant, or a skip with its reason. */
public sealed interface Resolution {

    /** A variant the target can run: the plan with its lock choices, and the mechanism resolved. */
    record Resolved(Variant runnable) implements Resolution {}

    record Skipped(Skip because) implements Resolution {}

    default Optional<Variant> variant() {
        return this instanceof Resolved resolved ? Optional.of(resolved.runnable()) : Optional.empty();
    }

    default Optional<Skip> skip() {
        return this instanceof Skipped skipped ? Optional.of(skipped.because()) : Optional.empty();
    }

    /** The variant, or the skip's message as an exception of the caller's choosing. */
    default <X extends RuntimeException> Variant orElseThrow(java.util.function.Function<Skip, X> refusal) {
        return switch (this) {
            case Resolved resolved -> resolved.runnable();
            case Skipped skipped -> throw refusal.apply(skipped.because());
        };
    }
}
