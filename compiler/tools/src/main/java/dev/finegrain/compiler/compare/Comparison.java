package dev.finegrain.compiler.compare;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

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
     * This comparison with rows read from results files after its own: those of {@code kernel}, and of the sizes
     * asked for when {@code sizes} names some. A row that repeats one computed here (same kernel, size, schedule,
     * backend, mechanism, granularity and channels) is left out, the computed one kept: merging an earlier
     * {@code --out} into a run of the same backends would otherwise list each twice. A note says how many rows
     * were merged and how many left out, and why.
     */
    public Comparison withImported(List<ResultRow> imported, String kernel, List<String> sizes, String from) {
        if (imported.isEmpty()) {
            return this;
        }
        Set<String> computed = new HashSet<>();
        rows.forEach(row -> computed.add(identity(row)));
        List<ResultRow> merged = new ArrayList<>(rows);
        int otherKernels = 0;
        int otherSizes = 0;
        int repeats = 0;
        for (ResultRow row : imported) {
            if (!row.kernel().equals(kernel)) {
                otherKernels++;
            } else if (!sizes.isEmpty() && !sizes.contains(row.size())) {
                otherSizes++;
            } else if (computed.contains(identity(row))) {
                repeats++;
            } else {
                merged.add(row);
            }
        }
        List<String> leftOut = new ArrayList<>();
        if (otherKernels > 0) {
            leftOut.add(otherKernels + " rows of other kernels");
        }
        if (otherSizes > 0) {
            leftOut.add(otherSizes + " rows of sizes not asked for");
        }
        if (repeats > 0) {
            leftOut.add(repeats + " rows that repeat rows computed here");
        }
        List<String> allNotes = new ArrayList<>(notes);
        allNotes.add("merged " + (merged.size() - rows.size()) + " rows of kernel '" + kernel + "' from " + from
                + (leftOut.isEmpty() ? "" : "; left out " + String.join(", ", leftOut)));
        return new Comparison(merged, allNotes);
    }

    private static String identity(ResultRow row) {
        return String.join("|", row.kernel(), row.size(), row.schedule(), row.backend(), row.mechanism(),
                row.granularity(), row.channels());
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
