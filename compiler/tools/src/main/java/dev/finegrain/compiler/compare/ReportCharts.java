package dev.finegrain.compiler.compare;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

import javax.imageio.ImageIO;

/**
 * The report's charts as data, and their rendering to PNG with XChart. Only verified rows become data points:
 * a row that does not match the oracle (or failed, or was skipped) is never a measurement.
 *
 * <ul>
 *   <li>One value-vs-size chart per metric and unit: the sizes along x as written ({@code 256x256}), in order of
 *       points; y on a log scale (when the values span a factor of ten) with ticks in readable units ({@code 1.5 G});
 *       one series per schedule,
 *       backend and mechanism, each with its own marker, dash and line width, so that a series drawn on top of
 *       another leaves it visible.</li>
 *   <li>One speed-up bar chart per backend and metric, never mixing a counted ratio (the reference's critical path,
 *       the model's cycles) with a measured one: for each size, each row's speed-up over the worst row of the same
 *       size. For a rate ({@code cells/s}, any unit ending in {@code /s}) that is {@code value / min}; for everything
 *       else (critical path, cycles, times) lower is better and it is {@code max / value}.</li>
 * </ul>
 */
public final class ReportCharts {

    static {
        // The launcher starts no display; AWT must not look for one when XChart draws.
        System.setProperty("java.awt.headless", "true");
    }

    private static final int WIDTH = 960;
    private static final int HEIGHT = 520;
    private static final Marker[] MARKERS = {SeriesMarkers.CIRCLE, SeriesMarkers.DIAMOND, SeriesMarkers.SQUARE,
            SeriesMarkers.TRIANGLE_UP, SeriesMarkers.TRIANGLE_DOWN, SeriesMarkers.CROSS, SeriesMarkers.PLUS,
            SeriesMarkers.OVAL, SeriesMarkers.RECTANGLE, SeriesMarkers.TRAPEZOID};
    private static final BasicStroke[] LINES = {SeriesLines.SOLID, SeriesLines.DASH_DASH, SeriesLines.DOT_DOT,
            SeriesLines.DASH_DOT};

    /** One plotted value and the row it came from: {@code x} as written along the axis, {@code order} its place there. */
    public record Point(String x, double order, double value, ResultRow row) {}

    public record Series(String name, List<Point> points) {}

    /** A chart to draw: {@code bars} is a speed-up chart, otherwise a log-scale line chart over the sizes. */
    public record ReportChart(String title, String xTitle, String yTitle, boolean bars, List<Series> series) {

        public byte[] png() {
            Chart<?, ?> chart = bars ? barChart(this) : lineChart(this);
            // in memory: ImageIO's file cache registers a shutdown hook, which fails while an interrupted sweep's hook
            // writes its report
            ImageIO.setUseCache(false);
            try {
                return BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
            } catch (IOException encoding) {
                throw new UncheckedIOException(encoding);
            }
        }

        /** The values along x, in order (sizes by their number of points, an axis's numbers by value). */
        public List<String> xs() {
            return series.stream().flatMap(s -> s.points().stream()).sorted(Comparator.comparingDouble(Point::order))
                    .map(Point::x).distinct().toList();
        }
    }

    private ReportCharts() {}

    /** What x shows by default: the size. */
    public static final String SIZE = "size";

    /** The charts for these rows over the sizes. */
    public static List<ReportChart> of(List<ResultRow> rows) {
        return of(rows, SIZE);
    }

    /**
     * The charts for these rows with {@code x} along the x axis: {@link #SIZE}, or an axis the rows name
     * ({@code work}, {@code threads}, a profile key); one chart per metric and unit among the verified rows, then one
     * speed-up chart per backend. A series is a schedule, backend and mechanism, with the other axes' values (and the
     * size, when x is an axis) that tell its rows apart.
     */
    public static List<ReportChart> of(List<ResultRow> rows, String x) {
        List<ResultRow> plotted = rows.stream().filter(ResultRow::verified)
                .filter(row -> Double.isFinite(row.value()) && row.value() > 0).toList();
        List<ReportChart> charts = new ArrayList<>();
        group(plotted, row -> row.metric() + " (" + row.unit() + ")").forEach((metric, metricRows) -> charts.add(
                new ReportChart(metric + " vs " + x, x, metric, false, series(metricRows, ResultRow::value, x))));
        group(plotted, row -> row.backend() + "|" + row.metric() + "|" + row.unit()).values().forEach(backendRows -> {
            ResultRow first = backendRows.getFirst();
            charts.add(new ReportChart(speedupTitle(first, x), x, "speed-up (x)", true,
                    series(backendRows, speedups(backendRows, x)::get, x)));
        });
        return charts;
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
            return 0;   // a stable sort keeps such values in the order met
        }
    }

    /** What a speed-up means depends on the metric: a measured rate, or a counted quantity where lower is better. */
    static String speedupTitle(ResultRow row, String x) {
        String over = higherIsBetter(row) ? "the slowest row" : "the row with the most " + row.unit();
        return "Speed-up on " + row.backend() + " (" + row.metric() + "): each row over " + over + " of the same " + x;
    }

    /** A rate is better when higher; every other metric (firings, cycles, time) when lower. */
    static boolean higherIsBetter(ResultRow row) {
        return row.unit().endsWith("/s");
    }

    /**
     * The series a row belongs to: its variant, and the values (other than x's) that set it apart, naming the row's
     * granularity and channel policy where the rows charted together differ in them (a
     * sweep over {@code --granularity} or {@code --channels}), so that no two variants share a series.
     */
    static String seriesName(ResultRow row, String x, boolean granularities, boolean channels) {
        StringBuilder name = new StringBuilder(row.schedule() + " / " + row.backend()
                + (row.mechanism().equals("-") ? "" : " / " + row.mechanism())
                + (granularities ? " / " + row.granularity() : "") + (channels ? " / " + row.channels() + " channels" : ""));
        if (!x.equals(SIZE)) {
            name.append(" / ").append(row.size());
        }
        new java.util.TreeMap<>(row.details()).forEach((key, value) -> {
            if (key.startsWith(SweepAxes.PREFIX) && !key.equals(SweepAxes.PREFIX + x)
                    && !(row.backend().contains("@" + key.substring(SweepAxes.PREFIX.length()) + "="))) {
                name.append(" / ").append(key.substring(SweepAxes.PREFIX.length())).append('=').append(value);
            }
        });
        return name.toString();
    }

    static long points(String size) {
        return Arrays.stream(size.split("x")).mapToLong(Long::parseLong).reduce(1, Math::multiplyExact);
    }

    /**
     * A number with an SI prefix and three significant digits at most, for tick labels: 1.5 G, 250 M, 4.1 k, 12, 0.5.
     */
    static String readable(double value) {
        double magnitude = Math.abs(value);
        String[] prefixes = {"", " k", " M", " G", " T", " P"};
        int step = 0;
        while (magnitude >= 1000 && step < prefixes.length - 1) {
            magnitude /= 1000;
            value /= 1000;
            step++;
        }
        String digits = magnitude >= 100 || magnitude == Math.rint(magnitude) ? String.format(Locale.ROOT, "%.0f", value)
                : magnitude >= 10 ? String.format(Locale.ROOT, "%.1f", value) : String.format(Locale.ROOT, "%.2f", value);
        digits = digits.contains(".") ? digits.replaceAll("0+$", "").replaceAll("\\.$", "") : digits;
        return digits + prefixes[step];
    }

    private static Map<ResultRow, Double> speedups(List<ResultRow> rows, String x) {
        Map<ResultRow, Double> speedups = new LinkedHashMap<>();
        group(rows, row -> xOf(row, x)).values().forEach(group -> {
            double worst = higherIsBetter(group.getFirst())
                    ? group.stream().mapToDouble(ResultRow::value).min().orElseThrow()
                    : group.stream().mapToDouble(ResultRow::value).max().orElseThrow();
            group.forEach(row -> speedups.put(row, higherIsBetter(row) ? row.value() / worst : worst / row.value()));
        });
        return speedups;
    }

    private static List<Series> series(List<ResultRow> rows, ToDoubleFunction<ResultRow> value, String x) {
        List<Series> series = new ArrayList<>();
        boolean granularities = rows.stream().map(ResultRow::granularity).distinct().count() > 1;
        boolean channels = rows.stream().map(ResultRow::channels).distinct().count() > 1;
        group(rows, row -> seriesName(row, x, granularities, channels)).forEach((name, seriesRows) -> series.add(new Series(name, seriesRows.stream()
                .map(row -> new Point(xOf(row, x), orderOf(row, x), value.applyAsDouble(row), row))
                .sorted(Comparator.comparingDouble(Point::order)).toList())));
        return series;
    }

    private static Map<String, List<ResultRow>> group(List<ResultRow> rows, Function<ResultRow, String> key) {
        Map<String, List<ResultRow>> groups = new LinkedHashMap<>();
        rows.forEach(row -> groups.computeIfAbsent(key.apply(row), k -> new ArrayList<>()).add(row));
        return groups;
    }

    /**
     * Lines over the sizes as categories; y on a log scale when the values span a factor of ten or more (XChart labels
     * a log axis at powers of ten only, so a narrower span gets a linear axis, whose ticks are all labelled).
     */
    private static CategoryChart lineChart(ReportChart spec) {
        boolean logarithmic = logarithmic(spec);
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(spec.title())
                .xAxisTitle(spec.xTitle()).yAxisTitle(spec.yTitle() + (logarithmic ? ", log scale" : "")).build();
        style(chart.getStyler());
        chart.getStyler().setDefaultSeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Line);
        // every series' point of a size at that size's own x, not shifted aside as bars would be
        chart.getStyler().setOverlapped(true);
        chart.getStyler().setYAxisLogarithmic(logarithmic);
        chart.getStyler().setyAxisTickLabelsFormattingFunction(ReportCharts::readable);
        chart.getStyler().setMarkerSize(9);
        List<String> sizes = spec.xs();
        int next = 0;
        for (Series series : spec.series()) {
            CategorySeries line = chart.addSeries(series.name(), sizes, valuesAt(series, sizes));
            line.setMarker(MARKERS[next % MARKERS.length]);
            BasicStroke dash = LINES[(next / MARKERS.length + next) % LINES.length];
            // earlier series wider: a series drawn on top of another lies inside it, and both stay visible
            line.setLineStyle(new BasicStroke(Math.max(1.5f, 8f - 1.1f * next), BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND,
                    10f, dash.getDashArray(), 0f));
            Color color = chart.getStyler().getSeriesColors()[next % chart.getStyler().getSeriesColors().length];
            // a little transparency, so that a series drawn over another leaves it visible
            Color seeThrough = new Color(color.getRed(), color.getGreen(), color.getBlue(), 200);
            line.setLineColor(seeThrough);
            line.setMarkerColor(seeThrough);
            next++;
        }
        return chart;
    }

    static boolean logarithmic(ReportChart spec) {
        double lowest = spec.series().stream().flatMap(s -> s.points().stream()).mapToDouble(Point::value).min().orElse(1);
        double highest = spec.series().stream().flatMap(s -> s.points().stream()).mapToDouble(Point::value).max().orElse(1);
        return highest >= 10 * lowest;
    }

    /** A series' value at each size, null where it has none (a gap, not a zero). */
    private static List<Double> valuesAt(Series series, List<String> sizes) {
        List<Double> values = new ArrayList<>();
        for (String size : sizes) {
            values.add(series.points().stream().filter(point -> point.x().equals(size)).map(Point::value).findFirst().orElse(null));
        }
        return values;
    }

    /** Bars grouped by size; a series without a row at some size leaves a gap there rather than a zero bar. */
    private static CategoryChart barChart(ReportChart spec) {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(spec.title())
                .xAxisTitle(spec.xTitle()).yAxisTitle(spec.yTitle()).build();
        style(chart.getStyler());
        chart.getStyler().setLabelsVisible(true);
        chart.getStyler().setYAxisDecimalPattern("0.00");
        chart.getStyler().setYAxisMin(0.0);
        List<String> sizes = spec.xs();
        for (Series series : spec.series()) {
            chart.addSeries(series.name(), sizes, valuesAt(series, sizes));
        }
        return chart;
    }

    private static void style(AxesChartStyler styler) {
        styler.setLegendPosition(Styler.LegendPosition.OutsideE);
        styler.setAntiAlias(true);
        styler.setTextAntiAlias(true);
        styler.setChartTitleFont(styler.getChartTitleFont().deriveFont(14f));
    }
}
