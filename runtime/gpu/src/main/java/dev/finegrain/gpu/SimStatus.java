package dev.finegrain.gpu;

/** How a run ended, with the process exit code a command line should use for it. */
public enum SimStatus {
    /** Every thread exited. */
    COMPLETED(0),
    /** No warp could issue, or nothing changed for the watchdog's cycles: see {@link SimResult#deadlock()}. */
    DEADLOCK(3),
    /** The run reached its cycle limit while still changing state (perhaps a livelock). */
    MAX_CYCLES(4);

    /** The exit code a command line should give a user error ({@link SimUserException}). */
    public static final int USER_ERROR_EXIT_CODE = 2;

    private final int exitCode;

    SimStatus(int exitCode) {
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
