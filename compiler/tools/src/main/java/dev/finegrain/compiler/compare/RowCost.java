package dev.finegrain.compiler.compare;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What a verified row cost, lower being better, and how far its timed runs spread: the one reading of a row's time
 * that the report, the verdicts and the crossover search share.
 *
 * <ul>
 *   <li>A timed row (jvm, cuda) costs its median run in ms; its spread is its runs' minimum and maximum
 *       ({@code min_ms}/{@code max_ms}, or an exported bundle's {@code runs_us}); a row that recorded neither, or ran
 *       once ({@code --quick}), has an unknown spread, and no difference from it is ever called a tie.</li>
 *   <li>A modelled row (gpu-model) costs its modelled time in ms, and a counted row (the reference's critical path)
 *       its count: both are exact, so only an equal cost is a tie.</li>
 * </ul>
 *
 * @param low  the fastest run ({@link Double#NaN} when unknown)
 * @param high the slowest run ({@link Double#NaN} when unknown)
 */
public record RowCost(double value, double low, double high, String unit, boolean exact) {

    /** The cost of a verified row with a positive value; none for a row that is no data point. */
    public static Optional<RowCost> of(ResultRow row) {
        if (!row.verified() || !(row.value() > 0) || !Double.isFinite(row.value())) {
            return Optional.empty();
        }
        Map<String, Object> details = row.details();
        if (details.get("median_ms") instanceof Number median) {
            double low = Double.NaN;
            double high = Double.NaN;
            boolean once = details.get("timed_runs") instanceof Number runs && runs.intValue() < 2;
            if (once) {
                // one run tells nothing of the spread
            } else if (details.get("min_ms") instanceof Number min && details.get("max_ms") instanceof Number max) {
                low = min.doubleValue();
                high = max.doubleValue();
            } else {
                double[] runs = runsUs(details.get("runs_us"));
                if (runs.length > 0) {
                    low = java.util.Arrays.stream(runs).min().orElseThrow() / 1e3;
                    high = java.util.Arrays.stream(runs).max().orElseThrow() / 1e3;
                }
            }
            return Optional.of(new RowCost(median.doubleValue(), low, high, "ms", false));
        }
        if (details.get("us") instanceof Number micros) {
            double ms = micros.doubleValue() / 1e3;
            return Optional.of(new RowCost(ms, ms, ms, "ms (modelled)", true));
        }
        if (!row.unit().endsWith("/s")) {
            return Optional.of(new RowCost(row.value(), row.value(), row.value(), row.unit(), true));
        }
        // a rate with no time recorded: its inverse, with no spread known
        return Optional.of(new RowCost(1 / row.value(), Double.NaN, Double.NaN,
                "s per " + row.unit().substring(0, row.unit().length() - 2), false));
    }

    /**
     * A bundle's {@code runs_us}: a list of numbers where rows come from its results file, the list's text
     * ({@code [1.5, 2.0]}) where they were read from a table; empty when absent or not numbers.
     */
    private static double[] runsUs(Object detail) {
        if (detail instanceof List<?> runs && runs.stream().allMatch(Number.class::isInstance)) {
            return runs.stream().mapToDouble(run -> ((Number) run).doubleValue()).toArray();
        }
        if (detail instanceof String text && !text.replace("[", "").replace("]", "").isBlank()) {
            try {
                return java.util.Arrays.stream(text.replace("[", "").replace("]", "").split(","))
                        .mapToDouble(run -> Double.parseDouble(run.trim())).toArray();
            } catch (NumberFormatException notNumbers) {
                return new double[0];
            }
        }
        return new double[0];
    }

    /** Whether the runs' spread is known: an exact cost, or a timed one with its minimum and maximum. */
    public boolean spreadKnown() {
        return exact || !Double.isNaN(low);
    }

    /** Whether this cost and another are within each other's runs: their ranges overlap (for exact costs, equal). */
    public boolean tiesWith(RowCost other) {
        if (!spreadKnown() || !other.spreadKnown()) {
            return value == other.value;
        }
        return low <= other.high && other.low <= high;
    }

    /** The cost as people read it: four significant digits, the spread where timed, the unit. */
    public String text() {
        String spread = exact ? "" : spreadKnown()
                ? String.format(Locale.ROOT, " (%s to %s)", digits(low), digits(high)) : " (spread not recorded)";
        return digits(value) + " " + unit + spread;
    }

    private static String digits(double value) {
        return String.format(Locale.ROOT, "%.4g", value);
    }
}
