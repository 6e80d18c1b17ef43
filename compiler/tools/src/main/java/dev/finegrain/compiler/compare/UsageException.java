package dev.finegrain.compiler.compare;

/** A command-line mistake: an unknown name or a bad value. The message is one line saying what to do. */
public final class UsageException extends RuntimeException {

    public UsageException(String message) {
        super(message);
    }
}
