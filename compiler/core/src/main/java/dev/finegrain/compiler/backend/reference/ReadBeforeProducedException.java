package dev.finegrain.compiler.backend.reference;

/** An actor read a state value whose producer had not fired: the plan being checked lacks a sync point. */
final class ReadBeforeProducedException extends RuntimeException {

    ReadBeforeProducedException(String message) {
        super(message, null, false, false);
    }
}
