package dev.finegrain.compiler.compare;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What a speed-up is over: within one backend and one point of the sweep, the fastest data-parallel row (the schedule
 * that synchronises tiles only by a launch or a barrier, the structure Rodinia's and most hand-written kernels have),
 * or, where no data-parallel row ran, the slowest row. Decided here once for the report's verdicts and its heat maps.
 */
final class Baselines {

    private Baselines() {}

    /** Whether a row's schedule is data-parallel, of any tile. */
    static boolean dataParallel(ResultRow row) {
        return row.schedule().startsWith("data-parallel");
    }

    /** The baseline among rows of one backend at one point of the sweep (verified rows with a cost). */
    static ResultRow of(List<ResultRow> point) {
        Comparator<ResultRow> byCost = Comparator.comparingDouble(row -> RowCost.of(row).orElseThrow().value());
        return point.stream().filter(Baselines::dataParallel).min(byCost).orElseGet(() -> point.stream().max(byCost).orElseThrow());
    }

    /** Each row's speed-up over the baseline of its point ({@code point} names a row's point of the sweep). */
    static Map<ResultRow, Double> speedups(List<ResultRow> rows, Function<ResultRow, String> point) {
        Map<ResultRow, Double> speedups = new LinkedHashMap<>();
        ReportCharts.group(rows, point).values().forEach(group -> {
            double baseline = RowCost.of(of(group)).orElseThrow().value();
            group.forEach(row -> speedups.put(row, baseline / RowCost.of(row).orElseThrow().value()));
        });
        return speedups;
    }

    /** What the baselines of these rows are, in words, for a chart's title. */
    static String describe(List<ResultRow> rows, Function<ResultRow, String> point) {
        List<Boolean> withDataParallel = ReportCharts.group(rows, point).values().stream()
                .map(group -> group.stream().anyMatch(Baselines::dataParallel)).distinct().toList();
        if (withDataParallel.equals(List.of(true))) {
            return "the fastest data-parallel row at each point";
        }
        if (withDataParallel.equals(List.of(false))) {
            return "the slowest row at each point (no data-parallel row ran)";
        }
        return "the fastest data-parallel row at each point (the slowest row where none ran)";
    }
}
