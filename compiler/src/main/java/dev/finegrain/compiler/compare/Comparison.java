package dev.finegrain.compiler.compare;

import java.util.List;

/**
 * What a comparison produced: one row per combination in sweep order, and the notes about what it left out or
 * ignored (also printed as {@code note:} lines on the progress stream).
 */
public record Comparison(List<ResultRow> rows, List<String> notes) {

    public Comparison {
        rows = List.copyOf(rows);
        notes = List.copyOf(notes);
    }

    /** Whether a row is wrong or failed: what makes the command's exit status 1. */
    public boolean hasProblems() {
        return rows.stream().anyMatch(row -> row.status().isProblem());
    }

    /** Whether some row ran at all (every row skipped means nothing was compared). */
    public boolean anyRan() {
        return rows.stream().anyMatch(row -> row.status() != RowStatus.SKIPPED);
    }
}
