package dev.finegrain.compiler.compare;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

/**
 * Writes a comparison into a folder: {@code results.json} and {@code results.csv} (exactly what
 * {@code --format json} and {@code --format csv} print) and {@code report.html}, a page that needs no network: inline
 * CSS, the results table, and the {@link ReportCharts charts} embedded as PNG data URIs, each with the values it
 * plots. A row that is not verified (NOT VERIFIED, failed or skipped) is marked in the table, with its reason, and
 * left out of every chart; the comparison's notes (what a sweep left out) are listed under the table.
 */
public final class ReportWriter {

    public static final String JSON_FILE = "results.json";
    public static final String CSV_FILE = "results.csv";
    public static final String HTML_FILE = "report.html";

    private static final String STYLE = """
            body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
            table { border-collapse: collapse; font-size: 0.9em; }
            th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; }
            td.number { text-align: right; font-variant-numeric: tabular-nums; }
            tr.problem { background: #fde2e2; }
            tr.skipped { color: #666; background: #f4f4f4; }
            td.status-bad { color: #a40000; font-weight: bold; }
            ul.notes { color: #444; }
            figure.chart { margin: 2em 0; }
            figure.chart img { max-width: 100%; border: 1px solid #eee; }
            details { margin-top: 0.5em; }
            code { background: #f4f4f4; padding: 0.1em 0.3em; }
            """;

    private final Path dir;
    /** What the charts show along x: the size, or an axis of the sweep. */
    private final String x;

    private ReportWriter(Path dir, String x) {
        this.dir = dir;
        this.x = x;
    }

    /** The same writer, charting against {@code axis} (an axis the rows name, e.g. {@code work}) instead of the size. */
    public ReportWriter chartingAgainst(String axis) {
        return new ReportWriter(dir, axis);
    }

    /**
     * A writer into {@code dir}, created now when missing, so that a folder that cannot be made fails before a long
     * comparison rather than after it.
     *
     * @throws UsageException naming the folder when it cannot be created
     */
    public static ReportWriter into(Path dir) {
        if (dir.toString().isBlank()) {
            throw new UsageException("--out needs a folder name");
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException problem) {
            throw new UsageException("cannot create report folder " + dir + ": " + AtomicFiles.reason(problem));
        }
        for (String name : List.of(JSON_FILE, CSV_FILE, HTML_FILE)) {
            if (Files.isDirectory(dir.resolve(name))) {
                throw new UsageException("cannot write " + dir.resolve(name) + ": a folder is in the way");
            }
        }
        try {
            // a folder that exists but takes no files fails here too, not after the comparison
            Files.delete(Files.createTempFile(dir, ".finegrain-", ".probe"));
        } catch (IOException problem) {
            throw new UsageException("cannot write into report folder " + dir + ": " + AtomicFiles.reason(problem));
        }
        return new ReportWriter(dir, ReportCharts.SIZE);
    }

    /**
     * Writes the three files and returns the page's path.
     *
     * @param commandLine the command that produced the rows, shown on the page
     * @throws UsageException naming the file when one cannot be written
     */
    public Path write(Comparison comparison, String commandLine, ZonedDateTime producedAt) {
        writeFile(dir.resolve(JSON_FILE), ResultFormat.JSON.render(comparison.rows()));
        writeFile(dir.resolve(CSV_FILE), ResultFormat.CSV.render(comparison.rows()));
        Path page = dir.resolve(HTML_FILE);
        writeFile(page, html(comparison, commandLine, producedAt, x));
        return page;
    }

    public static String html(Comparison comparison, String commandLine, ZonedDateTime producedAt) {
        return html(comparison, commandLine, producedAt, ReportCharts.SIZE);
    }

    /** The page, its charts with {@code x} along x. */
    public static String html(Comparison comparison, String commandLine, ZonedDateTime producedAt, String x) {
        List<ResultRow> rows = comparison.rows();
        String kernels = String.join(", ", rows.stream().map(ResultRow::kernel).distinct().toList());
        StringBuilder page = new StringBuilder();
        page.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>finegrain compare: ")
                .append(escape(kernels)).append("</title>\n<style>\n").append(STYLE).append("</style>\n</head>\n<body>\n")
                .append("<h1>finegrain compare: ").append(escape(kernels)).append("</h1>\n")
                .append("<p class=\"provenance\">Produced by <code>").append(escape(commandLine)).append("</code> on ")
                .append(escape(producedAt.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm z", Locale.ROOT))))
                .append(". Every row was checked against the sequential oracle on the same inputs; a row marked NOT VERIFIED "
                        + "is a bug, not a data point; failed and skipped rows give their reason. Only verified rows are charted.</p>\n");
        appendTable(page, rows);
        appendNotes(page, comparison.notes());
        page.append("<section id=\"charts\">\n<h2>Charts</h2>\n");
        List<ReportCharts.ReportChart> charts = ReportCharts.of(rows, x);
        if (charts.isEmpty()) {
            page.append("<p>No verified rows to chart.</p>\n");
        }
        charts.forEach(chart -> appendChart(page, chart));
        return page.append("</section>\n</body>\n</html>\n").toString();
    }

    private static void appendTable(StringBuilder page, List<ResultRow> rows) {
        page.append("<section id=\"results\">\n<h2>Results</h2>\n<table class=\"results\">\n<thead><tr>");
        List<String> axes = ResultFormat.axes(rows);
        List<String> columns = ResultFormat.columns(axes);
        columns.forEach(column -> page.append("<th>").append(column).append("</th>"));
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

    private static void appendNotes(StringBuilder page, List<String> notes) {
        if (notes.isEmpty()) {
            return;
        }
        page.append("<section id=\"notes\">\n<h2>Notes</h2>\n<ul class=\"notes\">\n");
        notes.forEach(note -> page.append("<li>").append(escape(note)).append("</li>\n"));
        page.append("</ul>\n</section>\n");
    }

    private static void appendChart(StringBuilder page, ReportCharts.ReportChart chart) {
        page.append("<figure class=\"chart\">\n<img alt=\"").append(escape(chart.title()))
                .append("\" src=\"data:image/png;base64,").append(Base64.getEncoder().encodeToString(chart.png()))
                .append("\">\n<figcaption>").append(escape(chart.title()));
        if (chart.bars()) {
            String x = chart.xTitle();
            page.append(": for each " + x + ", each verified row's speedup over the worst verified row of the same " + x + ", backend "
                    + "and metric (max / value where lower is better, value / min for rates), so that row is 1.00");
        }
        boolean bySize = chart.xTitle().equals(ReportCharts.SIZE);
        page.append("</figcaption>\n<details class=\"chart-data\"><summary>Plotted values</summary>\n<table>\n<thead><tr>")
                .append("<th>series</th><th>").append(escape(chart.xTitle())).append("</th>")
                .append(bySize ? "<th>points</th>" : "").append("<th>").append(escape(chart.yTitle()))
                .append("</th></tr></thead>\n<tbody>\n");
        for (ReportCharts.Series series : chart.series()) {
            for (ReportCharts.Point point : series.points()) {
                page.append("<tr><td>").append(escape(series.name())).append("</td><td>").append(escape(point.x()))
                        .append(bySize ? "</td><td class=\"number\">" + (long) point.order() : "")
                        .append("</td><td class=\"number\">")
                        .append(ResultFormat.number(point.value())).append("</td></tr>\n");
            }
        }
        page.append("</tbody>\n</table>\n</details>\n</figure>\n");
    }

    private static void writeFile(Path file, String text) {
        AtomicFiles.replace(file, text);
    }

    /** Text made safe inside HTML elements and double-quoted attributes. */
    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
