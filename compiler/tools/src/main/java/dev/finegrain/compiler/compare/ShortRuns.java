package dev.finegrain.compiler.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The warning a sweep gives once when its JVM rows are too short to time: below {@link #RELIABLE_MS} a run is
 * dominated by waking threads, handing work across cores and the JIT's last compilations (one lock-dataflow row of
 * Needleman-Wunsch at 128² on two threads ran its seven timed runs in 0.012 to 8.05 ms, docs/results/report-2026-11-29).
 * Such rows still verify; their order is noise.
 */
public final class ShortRuns {

    /** A JVM row whose median run is shorter than this is too short to time reliably. */
    public static final double RELIABLE_MS = 1.0;

    private ShortRuns() {}

    /** Whether a verdict's winner ran too short to time (as {@link #tooShort(String, double)} says of its median). */
    public static boolean tooShort(String backend, RowCost cost) {
        return cost.unit().equals("ms") && tooShort(backend, cost.value());
    }

    /** Whether a run of {@code medianMs} on {@code backend} is too short to time: a JVM run under {@link #RELIABLE_MS}. */
    static boolean tooShort(String backend, double medianMs) {
        return backend.equals("jvm") && medianMs < RELIABLE_MS;
    }

    /** What a line about such a winner adds. */
    public static String tooShortNote() {
        return "runs under " + ResultFormat.number(RELIABLE_MS) + " ms: mostly noise";
    }

    /** One line naming the sizes whose JVM rows ran too short and what to do; none when every row ran long enough. */
    public static Optional<String> warning(List<ResultRow> rows) {
        List<String> sizes = new ArrayList<>();
        double shortest = Double.POSITIVE_INFINITY;
        double longest = 0;
        for (ResultRow row : rows) {
            if (!row.verified() || !(row.details().get("median_ms") instanceof Number median)
                    || !tooShort(row.backend(), median.doubleValue())) {
                continue;
            }
            if (!sizes.contains(row.size())) {
                sizes.add(row.size());
            }
            shortest = Math.min(shortest, median.doubleValue());
            longest = Math.max(longest, median.doubleValue());
        }
        if (sizes.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT, "jvm rows at %s %s ran in under %s ms (medians %.3g to %.3g ms): too short"
                        + " to time reliably, so their order is mostly noise; time a larger size (--sizes) or more runs"
                        + " (--repeat 21)", sizes.size() == 1 ? "size" : "sizes", String.join(", ", sizes),
                ResultFormat.number(RELIABLE_MS), shortest, longest));
    }
}
