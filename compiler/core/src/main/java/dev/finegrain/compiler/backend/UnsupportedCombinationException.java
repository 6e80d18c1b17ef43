package dev.finegrain.compiler.backend;

/**
 * A backend cannot run this combination (kernel, schedule, mechanism, size, machine), found only when it lowers the
 * variant for its size: a sweep shows the combination as skipped, with this message as the reason; a single run
 * reports it as a usage error.
 */
public class UnsupportedCombinationException extends RuntimeException {

    public UnsupportedCombinationException(String message) {
        super(message);
    }
}
