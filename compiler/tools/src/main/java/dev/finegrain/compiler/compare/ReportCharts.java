package dev.finegrain.compiler.compare;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The report's charts as data, which the page's script draws in the browser (nothing is drawn here, so writing a
 * report needs no fonts and no display). Only verified rows become data points: a row that does not match the oracle
 * (or failed, or was skipped) is never a measurement. Per backend (a model profile being a backend of its own):
 *
 * <ul>
 *   <li>a line chart of each variant's {@link RowCost cost} (time in ms, or the reference's critical path) against
 *       the size, on log axes, each point with its runs' minimum and maximum;</li>
 *   <li>a heat map of variant against size: each row's speed-up over the baseline of its size, the fastest
 *       data-parallel row (the schedule with no synchronisation between tiles but a launch or a barrier), or the
 *       slowest row where no data-parallel row ran;</li>
 *   <li>where the rows measured their machine's copy bandwidth (jvm, cuda), each variant's share of its memory bound
 *       against the size: the roofline's flat part.</li>
 * </ul>
 * A sweep over another axis ({@code --x}) puts that axis along x instead of the size.
 */
public final class ReportCharts {

    /** What x shows by default: the size. */
    public static final String SIZE = "size";

    /** The detail a row's share of its memory bound is in ({@link dev.finegrain.compiler.backend.MemoryBound}). */
    static final String BOUND = "bound_fraction";

    public enum Kind { LINES, HEATMAP }

    /** One plotted value: {@code x} as written along the axis, {@code order} its place there, and its runs' range. */
    public record Point(String x, double order, double value, double low, double high, ResultRow row) {}

    public record Series(String name, List<Point> points) {}

    /** A chart to draw; {@code logX} when x is numeric and spans a factor of ten, {@code logY} for times. */
    public record ReportChart(Kind kind, String title, String xTitle, String yTitle, boolean logX, boolean logY,
                              List<Series> series) {

        /** The values along x, in order (sizes by their number of points, an axis's numbers by value). */
        public List<String> xs() {
            return series.stream().flatMap(s -> s.points().stream()).sorted(Comparator.comparingDouble(Point::order))
                    .map(Point::x).distinct().toList();
        }
    }

    private ReportCharts() {}

    /** The charts for these rows over the sizes. */
    public static List<ReportChart> of(List<ResultRow> rows) {
        return of(rows, SIZE);
    }

    /** The charts for these rows with {@code x} along the x axis: {@link #SIZE}, or an axis the rows name. */
    public static List<ReportChart> of(List<ResultRow> rows, String x) {
        List<ResultRow> plotted = rows.stream().filter(row -> RowCost.of(row).isPresent()).toList();
        List<ReportChart> charts = new ArrayList<>();
        group(plotted, row -> chartBackend(row) + "|" + RowCost.of(row).orElseThrow().unit()).values().forEach(backendRows -> {
            ResultRow first = backendRows.getFirst();
            String unit = RowCost.of(first).orElseThrow().unit();
            boolean logX = logarithmic(backendRows, x);
            String what = unit.startsWith("ms") ? "Time" : first.metric().replace('_', ' ');
            charts.add(new ReportChart(Kind.LINES, what + " on " + chartBackend(first) + " against " + x, x,
                    what.toLowerCase(Locale.ROOT) + " (" + unit + ", log scale)", logX, true, series(backendRows, x, row -> {
                        RowCost cost = RowCost.of(row).orElseThrow();
                        return new double[] {cost.value(), cost.low(), cost.high()};
                    })));
            Map<ResultRow, Double> speedups = Baselines.speedups(backendRows, row -> xOf(row, x) + "|" + otherAxes(row, x));
            charts.add(new ReportChart(Kind.HEATMAP, "Speed-up on " + chartBackend(first) + " over "
                    + Baselines.describe(backendRows, row -> xOf(row, x) + "|" + otherAxes(row, x)), x, "variant", logX, false,
                    series(backendRows, x, row -> new double[] {speedups.get(row), Double.NaN, Double.NaN})));
            List<ResultRow> bounded = backendRows.stream().filter(row -> row.details().get(BOUND) instanceof Number).toList();
            if (!bounded.isEmpty()) {
                charts.add(new ReportChart(Kind.LINES, "Share of the memory bound on " + chartBackend(first) + " against " + x
                        + " (" + bounded.getFirst().details().get("bytes_per_cell") + " bytes a cell at the measured copy"
                        + " bandwidth)", x, "% of the memory bound", logarithmic(bounded, x), false, series(bounded, x,
                        row -> new double[] {100 * ((Number) row.details().get(BOUND)).doubleValue(), Double.NaN, Double.NaN})));
            }
        });
        return charts;
    }

    /** The backend a chart is for: a profile-set backend ({@code gpu-model:fermi@latency.global=200}) joins its profile's. */
    static String chartBackend(ResultRow row) {
        int at = row.backend().indexOf('@');
        return at < 0 ? row.backend() : row.backend().substring(0, at);
    }

    /** A row's place along x: its size, or its value of the axis x. */
    static String xOf(ResultRow row, String x) {
        return x.equals(SIZE) ? row.size() : String.valueOf(row.details().getOrDefault(SweepAxes.PREFIX + x, "-"));
    }

    /** Sizes by their points; an axis's values by number where they are numbers. */
    static double orderOf(ResultRow row, String x) {
        if (x.equals(SIZE)) {
            return points(row.size());
        }
        try {
            return Double.parseDouble(xOf(row, x));
        } catch (NumberFormatException notANumber) {
            return Double.NaN;
        }
    }

    private static boolean logarithmic(List<ResultRow> rows, String x) {
        double[] orders = rows.stream().mapToDouble(row -> orderOf(row, x)).toArray();
        boolean numeric = Arrays.stream(orders).allMatch(order -> order > 0 && Double.isFinite(order));
        // a single value along x reads better as a category than as a point lost in decades of empty axis
        return numeric && Arrays.stream(orders).distinct().count() > 1 && (x.equals(SIZE) || Arrays.stream(orders).max().orElse(1) >= 10 * Arrays.stream(orders).min().orElse(1));
    }

    /**
     * The variant a row is within its backend's charts: schedule and mechanism, with the granularity and channel policy
     * where the rows charted together differ in them, and the values of the sweep's other axes (and the size, when x
     * is an axis), so that no two variants share a series.
     */
    static String variantName(ResultRow row, String x, boolean granularities, boolean channels) {
        StringBuilder name = new StringBuilder(variant(row, granularities, channels));
        if (!x.equals(SIZE)) {
            name.append(" / ").append(row.size());
        }
        String others = otherAxes(row, x);
        return others.isEmpty() ? name.toString() : name.append(" / ").append(others).toString();
    }

    /** Schedule and mechanism, with the granularity and channel policy where the rows shown together differ in them. */
    static String variant(ResultRow row, boolean granularities, boolean channels) {
        return row.schedule() + (row.mechanism().equals("-") ? "" : " / " + row.mechanism())
                + (granularities ? " / " + row.granularity() : "") + (channels ? " / " + row.channels() + " channels" : "");
    }

    /** The row's values of the sweep's axes other than x, as {@code k=1 / threads=2}. */
    static String otherAxes(ResultRow row, String x) {
        List<String> values = new ArrayList<>();
        new java.util.TreeMap<>(row.details()).forEach((key, value) -> {
            if (key.startsWith(SweepAxes.PREFIX) && !key.equals(SweepAxes.PREFIX + x)) {
                values.add(key.substring(SweepAxes.PREFIX.length()) + "=" + value);
            }
        });
        return String.join(" / ", values);
    }

    static long points(String size) {
        return Arrays.stream(size.split("x")).mapToLong(Long::parseLong).reduce(1, Math::multiplyExact);
    }

    private static List<Series> series(List<ResultRow> rows, String x, Function<ResultRow, double[]> value) {
        List<Series> series = new ArrayList<>();
        boolean granularities = rows.stream().map(ResultRow::granularity).distinct().count() > 1;
        boolean channels = rows.stream().map(ResultRow::channels).distinct().count() > 1;
        group(rows, row -> variantName(row, x, granularities, channels)).forEach((name, seriesRows) -> series.add(new Series(name,
                seriesRows.stream().map(row -> {
                    double[] values = value.apply(row);
                    return new Point(xOf(row, x), orderOf(row, x), values[0], values[1], values[2], row);
                }).sorted(Comparator.comparingDouble(Point::order)).toList())));
        return series;
    }

    static <K> Map<K, List<ResultRow>> group(List<ResultRow> rows, Function<ResultRow, K> key) {
        Map<K, List<ResultRow>> groups = new LinkedHashMap<>();
        rows.forEach(row -> groups.computeIfAbsent(key.apply(row), k -> new ArrayList<>()).add(row));
        return groups;
    }
}
