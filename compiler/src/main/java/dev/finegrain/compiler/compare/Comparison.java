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

    /**
     * This comparison with rows read from results files after its own: those of {@code kernel}; rows of other kernels
     * are left out, and a note says how many were merged and left out.
     */
    public Comparison withImported(List<ResultRow> imported, String kernel, String from) {
        if (imported.isEmpty()) {
            return this;
        }
        List<ResultRow> merged = new java.util.ArrayList<>(rows);
        List<ResultRow> ofKernel = imported.stream().filter(row -> row.kernel().equals(kernel)).toList();
        merged.addAll(ofKernel);
        List<String> allNotes = new java.util.ArrayList<>(notes);
        allNotes.add("merged " + ofKernel.size() + " rows of kernel '" + kernel + "' from " + from
                + (ofKernel.size() == imported.size() ? "" : "; left out " + (imported.size() - ofKernel.size())
                + " rows of other kernels"));
        return new Comparison(merged, allNotes);
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
