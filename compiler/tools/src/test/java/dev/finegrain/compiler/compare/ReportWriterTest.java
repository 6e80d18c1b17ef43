package dev.finegrain.compiler.compare;

import dev.finegrain.compiler.json.Json;
import dev.finegrain.compiler.json.Json;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static dev.finegrain.dsl.Finegrain.wavefront;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What {@code compare --out DIR} leaves behind: the results as JSON and CSV, and a page that needs no network. */
class ReportWriterTest {

    private static final String COMMAND = "finegrain compare prefix-sum --sizes 8,32 --backends reference";
    private static final ZonedDateTime PRODUCED_AT = ZonedDateTime.of(2026, 3, 14, 9, 26, 0, 0, ZoneOffset.UTC);

    /** Two sizes, two schedules, the reference backend: four verified critical-path rows. */
    private static List<ResultRow> compareRows() {
        return ComparisonRunner.run(ComparisonRequest.builder(PrefixSumEntry.ENTRY).sizes(List.of(new int[] {8}, new int[] {32}))
                .schedules(List.of(wavefront(), lockDataflow())).backends(List.of(Backends.byName("reference").orElseThrow()))
                .build()).rows();
    }

    private static ResultRow notVerified() {
        return new ResultRow("prefix-sum", "32", "wavefront", "broken-backend", "-", "cell", "shared", RowStatus.NOT_VERIFIED,
                "critical_path", 98765, "firings", 42, "total[3] is 7, the oracle says 6", Map.of());
    }

    private static Comparison comparison(List<ResultRow> rows) {
        return new Comparison(rows, List.of());
    }

    private static String chartsSection(String page) {
        return page.substring(page.indexOf("<section id=\"charts\">"), page.lastIndexOf("</section>"));
    }

    private static String resultsSection(String page) {
        return page.substring(page.indexOf("<section id=\"results\">"), page.indexOf("<section id=\"charts\">"));
    }

    private static List<byte[]> embeddedPngs(String page) {
        List<byte[]> images = new ArrayList<>();
        Matcher image = Pattern.compile("<img [^>]*src=\"data:image/png;base64,([A-Za-z0-9+/=]+)\"").matcher(page);
        while (image.find()) {
            images.add(Base64.getDecoder().decode(image.group(1)));
        }
        return images;
    }

    /** An image with a single colour is a chart that drew nothing. */
    private static boolean hasSeveralColours(BufferedImage image) {
        int first = image.getRGB(0, 0);
        for (int y = 0; y < image.getHeight(); y += 2) {
            for (int x = 0; x < image.getWidth(); x += 2) {
                if (image.getRGB(x, y) != first) {
                    return true;
                }
            }
        }
        return false;
    }

    // ---- files ---------------------------------------------------------------------------------------------

    @Test
    void resultsJsonIsWhatFormatJsonPrints(@TempDir Path dir) throws Exception {
        // the keys of --format json are CliBehaviourTest's to check; the file must be that text, whole
        List<ResultRow> rows = compareRows();
        ReportWriter.into(dir).write(comparison(rows), COMMAND, PRODUCED_AT);
        String json = Files.readString(dir.resolve("results.json"));
        assertEquals(ResultFormat.JSON.render(rows), json);
        assertEquals(4, assertInstanceOf(List.class, Json.parse(json)).size(), json);
    }

    @Test
    void resultsCsvIsWhatFormatCsvPrintsWithAHeaderAndOneLinePerRow(@TempDir Path dir) throws IOException {
        List<ResultRow> rows = new ArrayList<>(compareRows());
        rows.add(notVerified());
        ReportWriter.into(dir).write(comparison(rows), COMMAND, PRODUCED_AT);
        String csv = Files.readString(dir.resolve("results.csv"));
        assertEquals(ResultFormat.CSV.render(rows), csv);
        List<String> lines = csv.lines().toList();
        assertTrue(lines.getFirst().startsWith("kernel,size,schedule,backend,"), lines.getFirst());
        assertEquals(rows.size() + 1, lines.size(), csv);
    }

    @Test
    void theFolderIsCreatedWhenMissing(@TempDir Path dir) {
        Path nested = dir.resolve("a/b/report");
        Path page = ReportWriter.into(nested).write(comparison(compareRows()), COMMAND, PRODUCED_AT);
        assertEquals(nested.resolve("report.html"), page);
        assertAll(List.of("results.json", "results.csv", "report.html").stream()
                .map(name -> () -> assertTrue(Files.isRegularFile(nested.resolve(name)), name)));
    }

    // ---- the page ------------------------------------------------------------------------------------------

    @Test
    void thePageReferencesNothingOnTheNetwork() {
        String page = ReportWriter.html(comparison(compareRows()), COMMAND, PRODUCED_AT);
        assertAll(
                () -> assertFalse(page.contains("http://"), "no http:// anywhere"),
                () -> assertFalse(page.contains("https://"), "no https:// anywhere"),
                () -> assertFalse(Pattern.compile("(src|href)\\s*=\\s*\"(?!data:)", Pattern.CASE_INSENSITIVE).matcher(page).find(),
                        "every src and href is a data URI"),
                () -> assertFalse(page.contains("<script"), "no scripts"),
                () -> assertFalse(page.contains("<link"), "no linked stylesheets or fonts"),
                () -> assertFalse(page.contains("@import") || page.contains("url("), "no CSS that loads anything"),
                () -> assertTrue(page.contains("<style>"), "the CSS is inline"));
    }

    @Test
    void thePageStatesTheCommandLineAndTheDate() {
        String page = ReportWriter.html(comparison(compareRows()), COMMAND, PRODUCED_AT);
        assertTrue(page.contains("<code>" + COMMAND + "</code>"), page);
        assertTrue(page.contains("2026-03-14 09:26"), "the date");
    }

    @Test
    void thePageHasOneTableRowPerResult() {
        List<ResultRow> rows = compareRows();
        String table = resultsSection(ReportWriter.html(comparison(rows), COMMAND, PRODUCED_AT));
        assertEquals(rows.size(), Pattern.compile("<tr><td>").matcher(table).results().count(), "one verified row per result:\n" + table);
        for (ResultRow row : rows) {
            assertTrue(table.contains("<td>" + row.size() + "</td><td>" + row.schedule() + "</td><td>reference</td>"), row + " in\n" + table);
        }
    }

    @Test
    void thePageEmbedsOneValueChartPerMetricAndOneSpeedupChartAsRenderedPngs() throws IOException {
        String page = ReportWriter.html(comparison(compareRows()), COMMAND, PRODUCED_AT);
        List<byte[]> charts = embeddedPngs(page);
        assertEquals(2, charts.size(), "critical_path vs size, then the speedups");
        assertTrue(page.contains("alt=\"critical_path (firings) vs size\""), "the value chart");
        assertTrue(page.contains("alt=\"Speed-up on reference (critical_path): each row over the row with the most firings of the"
                + " same size\""), "the speed-up chart");
        for (byte[] png : charts) {
            BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
            assertEquals(List.of(960, 520), List.of(image.getWidth(), image.getHeight()));
            assertTrue(hasSeveralColours(image), "the chart drew something");
        }
    }

    @Test
    void aRowThatIsNotVerifiedIsMarkedInTheTableAndPlottedInNoChart() {
        List<ResultRow> rows = new ArrayList<>(compareRows());
        ResultRow broken = notVerified();
        rows.add(broken);
        String page = ReportWriter.html(comparison(rows), COMMAND, PRODUCED_AT);
        String table = resultsSection(page);
        assertTrue(table.contains("<tr class=\"problem\"><td>prefix-sum</td><td>32</td><td>wavefront</td><td>broken-backend</td>"), table);
        assertTrue(table.contains("<td class=\"status-bad\">NOT VERIFIED</td>"), table);
        assertTrue(table.contains("total[3] is 7, the oracle says 6"), "the problem is shown");

        String charts = chartsSection(page);
        assertFalse(charts.contains("broken-backend"), "no series or value of the unverified row:\n" + charts);
        assertFalse(charts.contains("98765"), "its value is not plotted");
        List<ReportCharts.ReportChart> models = ReportCharts.of(rows);
        assertEquals(2, models.size(), "no chart of its own either");
        assertTrue(models.stream().flatMap(chart -> chart.series().stream()).flatMap(series -> series.points().stream())
                .noneMatch(point -> point.row().equals(broken)), "no data point comes from it");
        assertEquals(embeddedPngs(ReportWriter.html(comparison(compareRows()), COMMAND, PRODUCED_AT)).size(), embeddedPngs(page).size());
    }

    @Test
    void speedupIsOverTheWorstRowOfTheSameSizeAndBackend() {
        List<ResultRow> rows = List.of(
                row("64", "wavefront", "reference", 10, "firings"),
                row("64", "lock-dataflow", "reference", 5, "firings"),
                row("64", "wavefront", "jvm", 100, "cells/s"),
                row("64", "lock-dataflow", "jvm", 300, "cells/s"),
                row("256", "wavefront", "reference", 40, "firings"));
        List<ReportCharts.ReportChart> speedups = ReportCharts.of(rows).stream().filter(ReportCharts.ReportChart::bars).toList();
        assertEquals(List.of("Speed-up on reference (critical_path): each row over the row with the most firings of the same size",
                "Speed-up on jvm (cells_per_s): each row over the slowest row of the same size"),
                speedups.stream().map(ReportCharts.ReportChart::title).toList(), "one chart per backend, never mixing them");
        Map<String, List<Double>> bySeries = new java.util.LinkedHashMap<>();
        speedups.forEach(chart -> chart.series().forEach(series -> bySeries.put(series.name(),
                series.points().stream().map(ReportCharts.Point::value).toList())));
        assertEquals(Map.of(
                "wavefront / reference", List.of(1.0, 1.0),
                "lock-dataflow / reference", List.of(2.0),
                "wavefront / jvm", List.of(1.0),
                "lock-dataflow / jvm", List.of(3.0)), bySeries,
                "max / value for firings, value / min for a rate; a row alone at its size is 1");
    }

    @Test
    void theSizesAlongXAreAsWrittenInOrderOfPoints() {
        List<ResultRow> rows = List.of(row("256x256", "wavefront", "reference", 510, "firings"),
                row("64x32", "wavefront", "reference", 95, "firings"), row("128x128", "wavefront", "reference", 255, "firings"));
        assertEquals(List.of("64x32", "128x128", "256x256"), ReportCharts.of(rows).getFirst().xs());
    }

    @Test
    void tickLabelsAreReadableNumbers() {
        assertEquals(List.of("1.5 G", "250 M", "4.1 k", "12", "0.5", "1 k", "999"), List.of(ReportCharts.readable(1.5e9),
                ReportCharts.readable(2.5e8), ReportCharts.readable(4096), ReportCharts.readable(12), ReportCharts.readable(0.5),
                ReportCharts.readable(1000), ReportCharts.readable(999)));
    }

    private static ResultRow row(String size, String schedule, String backend, double value, String unit) {
        return new ResultRow("k", size, schedule, backend, "-", "cell", "shared", RowStatus.VERIFIED,
                unit.endsWith("/s") ? "cells_per_s" : "critical_path", value, unit, 42, "", Map.of());
    }

    @Test
    void aFileThatCannotBeWrittenIsAUsageErrorNamingIt(@TempDir Path dir) throws IOException {
        Files.createDirectory(dir.resolve("results.csv"));
        UsageException problem = org.junit.jupiter.api.Assertions.assertThrows(UsageException.class,
                () -> ReportWriter.into(dir).write(comparison(compareRows()), COMMAND, PRODUCED_AT));
        assertTrue(problem.getMessage().startsWith("cannot write " + dir.resolve("results.csv") + ": "), problem.getMessage());
        assertEquals(1, problem.getMessage().lines().count(), problem.getMessage());
    }

    // ---- a real browser ------------------------------------------------------------------------------------

    @Test
    void headlessChromiumRendersTheCharts(@TempDir Path dir) throws Exception {
        Optional<Path> chromium = onPath("chromium").or(() -> onPath("chromium-browser"));
        Assumptions.assumeTrue(chromium.isPresent(), "chromium is not installed; apt-get install chromium to run this test");
        Path page = ReportWriter.into(dir).write(comparison(compareRows()), COMMAND, PRODUCED_AT);
        String url = page.toUri().toString();
        List<String> headless = List.of(chromium.get().toString(), "--headless", "--disable-gpu", "--no-sandbox",
                "--user-data-dir=" + dir.resolve("profile"));

        List<String> dumpDom = new ArrayList<>(headless);
        dumpDom.addAll(List.of("--dump-dom", url));
        String dom = runBrowser(dumpDom, dir.resolve("dom.html"));
        assertEquals(2, embeddedPngs(dom).size(), "the DOM Chromium built still holds both charts");

        Path screenshot = dir.resolve("report.png");
        List<String> shoot = new ArrayList<>(headless);
        shoot.addAll(List.of("--window-size=1000,2400", "--hide-scrollbars", "--screenshot=" + screenshot, url));
        runBrowser(shoot, dir.resolve("screenshot.log"));
        BufferedImage image = ImageIO.read(screenshot.toFile());
        assertTrue(image != null && hasSeveralColours(image), "a screenshot of the page that is not blank");
        Path keep = Path.of(System.getProperty("java.io.tmpdir"), "finegrain-report-screenshot.png");
        Files.copy(screenshot, keep, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    private static String runBrowser(List<String> command, Path output) throws IOException, InterruptedException {
        Process browser = new ProcessBuilder(command).redirectErrorStream(false).redirectOutput(output.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(browser.waitFor(90, TimeUnit.SECONDS), "chromium finished in time");
        assertEquals(0, browser.exitValue(), String.join(" ", command));
        return Files.readString(output, StandardCharsets.UTF_8);
    }

    private static Optional<Path> onPath(String program) {
        return Arrays.stream(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .map(folder -> Path.of(folder, program)).filter(Files::isExecutable).findFirst();
    }

}
