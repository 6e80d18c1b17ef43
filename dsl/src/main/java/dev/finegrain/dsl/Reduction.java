package dev.finegrain.dsl;

/**
 * A reduction of a state field over the whole domain, given with a run's result beside the fields it keeps: the
 * largest or smallest value (and, when asked, the first point in row-major order that holds it), or the sum, with
 * Java's wrapping arithmetic. Over INT and LONG fields, so that every backend and every order gives the same bits.
 */
public enum Reduction {
    MAX("max"),
    MIN("min"),
    SUM("sum");

    private final String cliName;

    Reduction(String cliName) {
        this.cliName = cliName;
    }

    public String cliName() {
        return cliName;
    }

    /** Whether it has a point where it is reached (an extreme does; a sum does not). */
    public boolean hasPosition() {
        return this != SUM;
    }

    /** The name of its value in a result: {@code max(h)}. */
    public String of(String field) {
        return cliName + "(" + field + ")";
    }

    @Override
    public String toString() {
        return cliName;
    }
}
