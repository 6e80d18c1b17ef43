package dev.finegrain.compiler.compare;

/**
 * What became of one combination of a comparison. Only {@link #VERIFIED} rows are data points: {@link #NOT_VERIFIED}
 * is a bug (the outputs differ from the oracle's), {@link #FAILED} an error while running (a division by zero, a
 * stalled wait, a fault), and {@link #SKIPPED} a combination the backend cannot run at all, with the reason.
 */
public enum RowStatus {
    VERIFIED("verified"),
    NOT_VERIFIED("NOT VERIFIED"),
    FAILED("failed"),
    SKIPPED("skipped");

    private final String label;

    RowStatus(String label) {
        this.label = label;
    }

    /** How tables, CSV, JSON and the report spell it. */
    public String label() {
        return label;
    }

    /** Whether the row counts against the comparison's exit status: a wrong result or an error. */
    public boolean isProblem() {
        return this == NOT_VERIFIED || this == FAILED;
    }

    public static RowStatus fromLabel(String label) {
        for (RowStatus status : values()) {
            if (status.label.equals(label)) {
                return status;
            }
        }
        throw new IllegalArgumentException("not a row status: " + label);
    }

    @Override
    public String toString() {
        return label;
    }
}
