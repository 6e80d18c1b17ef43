package dev.finegrain.compiler.compare;

import dev.finegrain.compiler.json.Json;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * The report as one HTML file that needs no network: the {@link ReportVerdicts verdicts} first, then the
 * {@link ReportCharts charts} (drawn in the browser by the inlined ECharts from the data the page embeds), then the
 * rows as a table that sorts and filters, then the sweep's notes. Without scripts the verdicts and the table are
 * still all there.
 */
final class ReportPage {

    private static final String STYLE = """
            body { font-family: system-ui, sans-serif; margin: 2em; color: #222; max-width: 1400px; }
            table { border-collapse: collapse; font-size: 0.9em; margin: 0.5em 0 1em; }
            th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
            th { background: #f4f4f4; }
            th.sortable { cursor: pointer; }
            th[data-sorted=ascending]::after { content: " \\25B2"; }
            th[data-sorted=descending]::after { content: " \\25BC"; }
            td.number { text-align: right; font-variant-numeric: tabular-nums; }
            tr.problem { background: #fde2e2; }
            tr.skipped { color: #666; background: #f4f4f4; }
            td.status-bad { color: #a40000; font-weight: bold; }
            td.winner { font-weight: bold; }
            td.agrees { color: #1a6e2e; }
            td.misses { color: #a40000; }
            p.warning, ul.notes li.warning { color: #8a5a00; }
            ul.headline li { margin: 0.2em 0; }
            div.chart { width: 100%; height: 440px; margin: 1.5em 0; border: 1px solid #eee; }
            input#filter { font-size: 1em; padding: 0.2em 0.4em; width: 30em; }
            pre#script-errors { color: #a40000; }
            code { background: #f4f4f4; padding: 0.1em 0.3em; }
            """;

    private ReportPage() {}

    static String html(Comparison comparison, String commandLine, ZonedDateTime producedAt, String x) {
        List<ResultRow> rows = comparison.rows();
        String kernels = String.join(", ", rows.stream().map(ResultRow::kernel).distinct().toList());
        List<ReportCharts.ReportChart> charts = ReportCharts.of(rows, x);
        StringBuilder page = new StringBuilder();
        page.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>finegrain compare: ")
                .append(escape(kernels)).append("</title>\n<style>\n").append(STYLE).append("</style>\n</head>\n<body>\n")
                .append("<h1>finegrain compare: ").append(escape(kernels)).append("</h1>\n")
                .append("<p class=\"provenance\">Produced by <code>").append(escape(commandLine)).append("</code> on ")
                .append(escape(producedAt.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm z", Locale.ROOT))))
                .append(". Every row was checked against the sequential oracle on the same inputs; a row marked NOT VERIFIED "
                        + "is a bug, not a data point; failed and skipped rows give their reason. Only verified rows are judged"
                        + " and charted.</p>\n");
        ReportVerdictSection.append(page, rows);
        page.append("<section id=\"charts\">\n<h2>Charts</h2>\n");
        if (charts.isEmpty()) {
            page.append("<p>No verified rows to chart.</p>\n");
        } else {
            page.append("<p>Hover a point for its value and its runs' range; click a legend entry to hide its series.</p>\n"
                    + "<noscript><p>The charts are drawn by the page's script; the verdicts and the table hold every value.</p></noscript>\n");
        }
        for (int c = 0; c < charts.size(); c++) {
            ReportCharts.ReportChart chart = charts.get(c);
            int height = chart.kind() == ReportCharts.Kind.HEATMAP ? 140 + 28 * chart.series().size() : 440;
            page.append("<div class=\"chart\" id=\"chart-").append(c).append("\" data-kind=\"")
                    .append(chart.kind().name().toLowerCase(Locale.ROOT)).append("\" title=\"").append(escape(chart.title()))
                    .append("\" style=\"height: ").append(height).append("px\"></div>\n");
        }
        page.append("</section>\n");
        appendTable(page, rows);
        appendNotes(page, comparison.notes(), ShortRuns.warning(rows).orElse(null));
        page.append("<pre id=\"script-errors\" hidden></pre>\n");
        page.append("<script>\n").append(library()).append("\n</script>\n")
                .append("<script type=\"application/json\" id=\"report-data\">\n")
                .append(inScript(Json.write(Map.of("charts", charts.stream().map(ReportPage::chartData).toList()))))
                .append("\n</script>\n<script>\n").append(resource("report.js")).append("</script>\n");
        return page.append("</body>\n</html>\n").toString();
    }

    /** A chart as the page's script reads it. */
    private static Map<String, Object> chartData(ReportCharts.ReportChart chart) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("kind", chart.kind().name());
        data.put("title", chart.title());
        data.put("xTitle", chart.xTitle());
        data.put("yTitle", chart.yTitle());
        data.put("unit", !chart.logY() ? "%" : chart.series().isEmpty() || chart.series().getFirst().points().isEmpty() ? ""
                : RowCost.of(chart.series().getFirst().points().getFirst().row()).map(RowCost::unit).orElse(""));
        data.put("logX", chart.logX());
        data.put("logY", chart.logY());
        data.put("xs", chart.xs());
        List<Object> series = new ArrayList<>();
        for (ReportCharts.Series one : chart.series()) {
            List<Object> points = new ArrayList<>();
            for (ReportCharts.Point point : one.points()) {
                Map<String, Object> plotted = new LinkedHashMap<>();
                plotted.put("x", point.x());
                plotted.put("o", point.order());
                plotted.put("y", point.value());
                plotted.put("lo", Double.isNaN(point.low()) ? null : point.low());
                plotted.put("hi", Double.isNaN(point.high()) ? null : point.high());
                points.add(plotted);
            }
            Map<String, Object> named = new LinkedHashMap<>();
            named.put("name", one.name());
            named.put("points", points);
            series.add(named);
        }
        data.put("series", series);
        return data;
    }

    private static void appendTable(StringBuilder page, List<ResultRow> rows) {
        page.append("<section id=\"results\">\n<h2>Results</h2>\n")
                .append("<p><input id=\"filter\" type=\"search\" placeholder=\"filter rows: words they all hold\" hidden></p>\n")
                .append("<table class=\"results\">\n<thead><tr>");
        List<String> axes = ResultFormat.axes(rows);
        List<String> columns = ResultFormat.columns(axes);
        columns.forEach(column -> page.append("<th>").append(escape(column)).append("</th>"));
        page.append("<th>problem</th></tr></thead>\n<tbody>\n");
        for (ResultRow row : rows) {
            page.append(switch (row.status()) {
                case VERIFIED -> "<tr>";
                case SKIPPED -> "<tr class=\"skipped\">";
                case NOT_VERIFIED, FAILED -> "<tr class=\"problem\">";
            });
            List<String> cells = ResultFormat.cells(row, axes);
            for (int c = 0; c < cells.size(); c++) {
                String column = columns.get(c);
                if (column.equals("status")) {
                    page.append(row.status().isProblem() ? "<td class=\"status-bad\">" : "<td>").append(row.status().label())
                            .append("</td>");
                } else {
                    page.append(ResultFormat.isNumeric(column) ? "<td class=\"number\">" : "<td>")
                            .append(escape(cells.get(c))).append("</td>");
                }
            }
            page.append("<td>").append(escape(row.problem())).append("</td></tr>\n");
        }
        page.append("</tbody>\n</table>\n</section>\n");
    }

    private static void appendNotes(StringBuilder page, List<String> notes, String warning) {
        if (notes.isEmpty() && warning == null) {
            return;
        }
        page.append("<section id=\"notes\">\n<h2>Notes</h2>\n<ul class=\"notes\">\n");
        if (warning != null) {
            page.append("<li class=\"warning\">").append(escape(warning)).append("</li>\n");
        }
        notes.forEach(note -> page.append("<li>").append(escape(note)).append("</li>\n"));
        page.append("</ul>\n</section>\n");
    }

    /** ECharts' single-file build, from its WebJar on the class path. */
    private static String library() {
        Properties webjar = new Properties();
        try (InputStream in = ReportPage.class.getResourceAsStream("/META-INF/maven/org.webjars.npm/echarts/pom.properties")) {
            if (in == null) {
                throw new IllegalStateException("the ECharts WebJar (org.webjars.npm:echarts) is not on the class path");
            }
            webjar.load(in);
        } catch (IOException unreadable) {
            throw new UncheckedIOException(unreadable);
        }
        return read("/META-INF/resources/webjars/echarts/" + webjar.getProperty("version") + "/dist/echarts.min.js");
    }

    private static String resource(String name) {
        return read("/dev/finegrain/compiler/compare/" + name);
    }

    private static String read(String path) {
        try (InputStream in = ReportPage.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("resource " + path + " is missing from the build");
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            if (text.toLowerCase(Locale.ROOT).contains("</script")) {
                throw new IllegalStateException(path + " would end its inline script early");
            }
            return text;
        } catch (IOException unreadable) {
            throw new UncheckedIOException(unreadable);
        }
    }

    /** JSON made safe inside a script element: no {@code </} to end it. */
    private static String inScript(String json) {
        return json.replace("</", "<\\/");
    }

    /** Text made safe inside HTML elements and double-quoted attributes. */
    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
