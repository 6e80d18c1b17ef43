package dev.finegrain.compiler.compare;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The report's charts as data, and their rendering to PNG with XChart. Only verified rows become data points:
 * a row that does not match the oracle is a bug, never a measurement.
 *
 * <ul>
 *   <li>One value-vs-size chart per metric and unit: x is the number of points of the size, y (log scale) the
 *       value, one series per schedule, backend and mechanism.</li>
 *   <li>One speedup bar chart: for each size, each row's speedup over the worst row of the same size, backend and
 *       metric, so the worst row is 1. For a rate ({@code cells/s}, any unit ending in {@code /s}) that is
 *       {@code value / min}; for everything else (critical path, cycles, times) lower is better and it is
 *       {@code max / value}.</li>
 * </ul>
 */
public final class ReportCharts {

    static {
        // The launcher starts no display; AWT must not look for one when XChart draws.
        System.setProperty("java.awt.headless", "true");
    }

    private static final int WIDTH = 960;
    private static final int HEIGHT = 520;

    /** One plotted value and the row it came from. */
    public record Point(String size, long points, double value, ResultRow row) {}

    public record Series(String name, List<Point> points) {}

    /** A chart to draw: {@code bars} is the speedup chart, otherwise a log-scale line chart over the size. */
    public record ReportChart(String title, String xTitle, String yTitle, boolean bars, List<Series> series) {

        public byte[] png() {
            Chart<?, ?> chart = bars ? barChart(this) : lineChart(this);
            try {
                return BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
            } catch (IOException encoding) {
                throw new UncheckedIOException(encoding);
            }
        }
    }

    private ReportCharts() {}

    /** The charts for these rows: one per metric and unit present among the verified rows, then the speedups. */
    public static List<ReportChart> of(List<ResultRow> rows) {
        List<ResultRow> plotted = rows.stream().filter(ResultRow::verified)
                .filter(row -> Double.isFinite(row.value()) && row.value() > 0).toList();
        List<ReportChart> charts = new ArrayList<>();
        Map<String, List<ResultRow>> byMetric = group(plotted, row -> row.metric() + " (" + row.unit() + ")");
        byMetric.forEach((metric, metricRows) -> charts.add(new ReportChart(metric + " vs size", "points",
                metric + ", log scale", false, series(metricRows, ResultRow::value))));
        if (!plotted.isEmpty()) {
            charts.add(new ReportChart("Speedup over the worst row of the same size and backend", "size",
                    "speedup (x)", true, series(plotted, speedups(plotted)::get)));
        }
        return charts;
    }

    /** A rate is better when higher; every other metric (firings, cycles, time) when lower. */
    static boolean higherIsBetter(ResultRow row) {
        return row.unit().endsWith("/s");
    }

    static String seriesName(ResultRow row) {
        return row.schedule() + " / " + row.backend() + (row.mechanism().equals("-") ? "" : " / " + row.mechanism());
    }

    static long points(String size) {
        return Arrays.stream(size.split("x")).mapToLong(Long::parseLong).reduce(1, Math::multiplyExact);
    }

    private static Map<ResultRow, Double> speedups(List<ResultRow> rows) {
        Map<ResultRow, Double> speedups = new LinkedHashMap<>();
        group(rows, row -> row.size() + "|" + row.backend() + "|" + row.metric() + "|" + row.unit()).values().forEach(group -> {
            double worst = higherIsBetter(group.getFirst())
                    ? group.stream().mapToDouble(ResultRow::value).min().orElseThrow()
                    : group.stream().mapToDouble(ResultRow::value).max().orElseThrow();
            group.forEach(row -> speedups.put(row, higherIsBetter(row) ? row.value() / worst : worst / row.value()));
        });
        return speedups;
    }

    private static List<Series> series(List<ResultRow> rows, ToDoubleFunction<ResultRow> value) {
        List<Series> series = new ArrayList<>();
        group(rows, ReportCharts::seriesName).forEach((name, seriesRows) -> series.add(new Series(name, seriesRows.stream()
                .map(row -> new Point(row.size(), points(row.size()), value.applyAsDouble(row), row))
                .sorted(Comparator.comparingLong(Point::points)).toList())));
        return series;
    }

    private static Map<String, List<ResultRow>> group(List<ResultRow> rows, Function<ResultRow, String> key) {
        Map<String, List<ResultRow>> groups = new LinkedHashMap<>();
        rows.forEach(row -> groups.computeIfAbsent(key.apply(row), k -> new ArrayList<>()).add(row));
        return groups;
    }

    private static XYChart lineChart(ReportChart spec) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(spec.title())
                .xAxisTitle(spec.xTitle()).yAxisTitle(spec.yTitle()).build();
        style(chart.getStyler());
        chart.getStyler().setYAxisLogarithmic(true);
        for (Series series : spec.series()) {
            chart.addSeries(series.name(), series.points().stream().map(Point::points).toList(),
                    series.points().stream().map(Point::value).toList());
        }
        return chart;
    }

    /** Bars grouped by size; a series without a row at some size leaves a gap there rather than a zero bar. */
    private static CategoryChart barChart(ReportChart spec) {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(spec.title())
                .xAxisTitle(spec.xTitle()).yAxisTitle(spec.yTitle()).build();
        style(chart.getStyler());
        chart.getStyler().setLabelsVisible(true);
        chart.getStyler().setYAxisDecimalPattern("0.00");
        chart.getStyler().setYAxisMin(0.0);
        List<String> sizes = spec.series().stream().flatMap(series -> series.points().stream())
                .sorted(Comparator.comparingLong(Point::points)).map(Point::size).distinct().toList();
        for (Series series : spec.series()) {
            List<Double> values = new ArrayList<>();
            for (String size : sizes) {
                values.add(series.points().stream().filter(point -> point.size().equals(size))
                        .map(Point::value).findFirst().orElse(null));
            }
            chart.addSeries(series.name(), sizes, values);
        }
        return chart;
    }

    private static void style(Styler styler) {
        styler.setLegendPosition(Styler.LegendPosition.OutsideE);
        styler.setAntiAlias(true);
        styler.setTextAntiAlias(true);
    }
}
