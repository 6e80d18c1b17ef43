package dev.finegrain.gpu;

/**
 * A mistake of the user, not of the simulator: a file that cannot be read or parsed, an unknown profile, a bad
 * argument, a kernel that faults (an address out of range, an instruction the profile lacks). The message is one line,
 * starting with {@code file:line:column:} when there is a place in the program to point at.
 */
public final class SimUserException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SimUserException(String message) {
        super(message);
    }

    public SimUserException(String message, Throwable cause) {
        super(message, cause);
    }
}
