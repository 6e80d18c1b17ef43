package dev.finegrain.compiler.compare;

import dev.finegrain.compiler.json.Json;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

    private static String section(String page, String id) {
        int start = page.indexOf("<section id=\"" + id + "\">");
        assertTrue(start >= 0, "a section " + id);
        return page.substring(start, page.indexOf("</section>", start));
    }

    /** The data the page's script draws its charts from. */
    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> chartData(String page) {
        Matcher data = Pattern.compile("<script type=\"application/json\" id=\"report-data\">\n(.*?)\n</script>", Pattern.DOTALL)
                .matcher(page);
        assertTrue(data.find(), "the page embeds its chart data");
        return (List<Map<String, Object>>) ((Map<String, Object>) Json.parse(data.group(1))).get("charts");
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
        assertTrue(lines.getFirst().contains(",ms,min_ms,max_ms,"), "every timed row's spread: " + lines.getFirst());
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
    void thePageLoadsNothingFromTheNetwork() throws IOException {
        String page = ReportWriter.html(comparison(compareRows()), COMMAND, PRODUCED_AT);
        String library;
        try (InputStream in = getClass().getResourceAsStream("/META-INF/resources/webjars/echarts/5.3.1/dist/echarts.min.js")) {
            library = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertTrue(page.contains("<script>\n" + library + "\n</script>"), "ECharts is inlined, the WebJar's file whole");
        String ours = page.replace(library, "");
        assertAll(
                () -> assertFalse(ours.contains("http://") || ours.contains("https://"), "no address outside the library"),
                () -> assertFalse(Pattern.compile("\\b(src|href)\\s*=", Pattern.CASE_INSENSITIVE).matcher(ours).find(),
                        "nothing is loaded by src or href"),
                () -> assertFalse(ours.contains("<link"), "no linked stylesheets or fonts"),
                () -> assertFalse(ours.contains("@import") || ours.contains("url("), "no CSS that loads anything"),
                () -> assertFalse(ours.contains("fetch(") || ours.contains("XMLHttpRequest"), "the script loads nothing"),
                () -> assertTrue(ours.contains("<style>"), "the CSS is inline"));
    }

    @Test
    void thePageStatesTheCommandLineAndTheDate() {
        String page = ReportWriter.html(comparison(compareRows()), COMMAND, PRODUCED_AT);
        assertTrue(page.contains("<code>" + COMMAND + "</code>"), page);
        assertTrue(page.contains("2026-03-14 09:26"), "the date");
    }

    @Test
    void theVerdictsComeFirstThenTheChartsThenTheTable() {
        String page = ReportWriter.html(comparison(ReportRows.timed()), COMMAND, PRODUCED_AT);
        int verdicts = page.indexOf("<section id=\"verdicts\">");
        int charts = page.indexOf("<section id=\"charts\">");
        int results = page.indexOf("<section id=\"results\">");
        assertTrue(0 < verdicts && verdicts < charts && charts < results, "verdicts, charts, table");
    }

    @Test
    void theVerdictNamesTheWinnerItsSpeedupAndTheTiesWithinTheNoise() {
        List<ReportVerdicts.Verdict> verdicts = ReportVerdicts.verdicts(ReportRows.timed());
        assertEquals(2, verdicts.size(), "one per backend and size");
        ReportVerdicts.Verdict large = verdicts.get(1);
        assertEquals(List.of("256x256", "lock-dataflow / tiny-lock", "data-parallel:16x16", List.of("lock-dataflow / acquire-release")),
                List.of(large.point(), large.winner(), large.baseline(), large.ties()));
        assertEquals(2.5, large.speedup(), 1e-9);
        ReportVerdicts.Verdict small = verdicts.getFirst();
        assertEquals(List.of("data-parallel:16x16", List.of()), List.of(small.winner(), small.ties()));

        String section = section(ReportWriter.html(comparison(ReportRows.timed()), COMMAND, PRODUCED_AT), "verdicts");
        assertTrue(section.contains("<li>On <b>jvm</b> at 256x256: <b>lock-dataflow / tiny-lock</b> wins, 2.50× over"
                + " data-parallel:16x16; tied within the noise with lock-dataflow / acquire-release.</li>"), section);
        assertTrue(section.contains("<td class=\"winner\">data-parallel:16x16</td><td>1.000 ms (0.9000 to 1.100)</td>"
                + "<td>the baseline itself</td><td>none</td>"), section);
    }

    @Test
    void aRowWhoseRunsWereNotRecordedTiesWithNothing() {
        ResultRow bare = ReportRows.timed("256x256", "lock-dataflow", "tiny-lock", 4.0, 3.9, 4.2);
        Map<String, Object> medianOnly = new java.util.HashMap<>(bare.details());
        medianOnly.remove("min_ms");
        medianOnly.remove("max_ms");
        List<ResultRow> rows = new ArrayList<>(ReportRows.timed());
        rows.set(1, bare.withDetails(medianOnly));
        ReportVerdicts.Verdict large = ReportVerdicts.verdicts(rows).get(1);
        assertEquals(List.of(), large.ties());
        assertFalse(large.cost().spreadKnown());
        assertTrue(section(ReportWriter.html(comparison(rows), COMMAND, PRODUCED_AT), "verdicts")
                .contains("unknown: the winner has no spread (timed once, or its runs not kept)"));
    }

    @Test
    void aRowTimedOnceHasNoSpread() {
        ResultRow once = ReportRows.timed("64x64", "wavefront", "-", 2.0, 2.0, 2.0);
        Map<String, Object> details = new java.util.HashMap<>(once.details());
        details.put("timed_runs", 1);
        RowCost cost = RowCost.of(once.withDetails(details)).orElseThrow();
        assertFalse(cost.spreadKnown(), "--quick runs a row once");
        assertEquals("2.000 ms (spread not recorded)", cost.text());
    }

    @Test
    void theModelIsCheckedAgainstTheRealGpuOverTheVariantsBothRan() {
        List<ReportVerdicts.ModelCheck> checks = ReportVerdicts.modelChecks(ReportRows.modelAndGpu());
        assertEquals(1, checks.size());
        ReportVerdicts.ModelCheck check = checks.getFirst();
        assertEquals(List.of("gpu-model:hopper-h200", "cuda:sm_90", "lock-dataflow / tiny-lock", "lock-dataflow / atomic-spin-lock"),
                List.of(check.model(), check.real(), check.modelPick(), check.realWinner()));
        assertFalse(check.agrees(), "tiny-lock's runs (5.9 to 6.1 ms) do not reach the winner's (4.95 to 5.05 ms)");
        assertEquals(1.2, check.pickOverWinner(), 1e-9);
        String section = section(ReportWriter.html(comparison(ReportRows.modelAndGpu()), COMMAND, PRODUCED_AT), "verdicts");
        assertTrue(section.contains("0 of 1 picks agree"), section);
        assertTrue(section.contains("misses: its pick took 1.20× the winner's time"), section);
    }

    @Test
    void aRowsSpreadComesFromItsRunsWhereOnlyTheyWereRecorded() {
        ResultRow imported = ReportRows.modelAndGpu().get(3);
        RowCost cost = RowCost.of(imported).orElseThrow();
        assertEquals(List.of(6.0, 5.9, 6.1), List.of(cost.value(), cost.low(), cost.high()));
        assertEquals("6.000 ms (5.900 to 6.100)", cost.text());
        assertEquals(List.of("5.900", "6.100"), List.of(ResultFormat.spreadMillis(imported, true), ResultFormat.spreadMillis(imported, false)));
    }

    @Test
    void anImportedRowsRunsSurviveTheResultsFileAReportWrites() {
        ResultRow imported = ReportRows.modelAndGpu().get(3);
        Map<?, ?> written = (Map<?, ?>) Json.parse(ResultFormat.jsonObject(imported));
        assertEquals(List.of(6000.0, 6100.0, 5900.0), written.get("runs_us"), "a list, not its text");
        assertEquals(RowCost.of(imported), RowCost.of(ImportedRows.row(Path.of("results.json"), 0, written)));
    }

    @Test
    void thePageHasOneTableRowPerResult() {
        List<ResultRow> rows = compareRows();
        String table = section(ReportWriter.html(comparison(rows), COMMAND, PRODUCED_AT), "results");
        assertEquals(rows.size(), Pattern.compile("<tr><td>").matcher(table).results().count(), "one verified row per result:\n" + table);
        for (ResultRow row : rows) {
            assertTrue(table.contains("<td>" + row.size() + "</td><td>" + row.schedule() + "</td><td>reference</td>"), row + " in\n" + table);
        }
    }

    @Test
    void eachBackendGetsATimeChartOnLogAxesAndASpeedupHeatMap() {
        List<Map<String, Object>> charts = chartData(ReportWriter.html(comparison(ReportRows.timed()), COMMAND, PRODUCED_AT));
        assertEquals(List.of("LINES", "HEATMAP"), charts.stream().map(chart -> chart.get("kind")).toList());
        assertEquals("Time on jvm against size", charts.getFirst().get("title"));
        assertEquals(true, charts.getFirst().get("logX"));
        assertEquals(List.of("64x64", "256x256"), charts.getFirst().get("xs"), "sizes in order of points");
        assertEquals("Speed-up on jvm over the fastest data-parallel row at each point", charts.get(1).get("title"));
        Map<String, List<?>> speedups = new java.util.LinkedHashMap<>();
        for (Object series : (List<?>) charts.get(1).get("series")) {
            Map<?, ?> named = (Map<?, ?>) series;
            speedups.put((String) named.get("name"), ((List<?>) named.get("points")).stream().map(p -> ((Map<?, ?>) p).get("y")).toList());
        }
        assertEquals(Map.of("data-parallel:16x16", List.of(1.0, 1.0), "lock-dataflow / tiny-lock", List.of(0.5, 2.5),
                "lock-dataflow / acquire-release", List.of(10 / 4.1), "wavefront", List.of(1.25)), speedups);
    }

    @Test
    void rowsThatMeasuredTheirMemoryBoundGetAChartOfItsShareAndSayItInTheVerdictAndTable() {
        List<ResultRow> rows = ReportRows.timed().stream().map(row -> {
            Map<String, Object> details = new java.util.HashMap<>(row.details());
            details.putAll(new dev.finegrain.compiler.backend.MemoryBound(8, 4e10).details(row.value()));
            return row.withDetails(details);
        }).toList();
        List<Map<String, Object>> charts = chartData(ReportWriter.html(comparison(rows), COMMAND, PRODUCED_AT));
        assertEquals(List.of("LINES", "HEATMAP", "LINES"), charts.stream().map(chart -> chart.get("kind")).toList());
        Map<String, Object> bound = charts.get(2);
        assertEquals("Share of the memory bound on jvm against size (8 bytes a cell at the measured copy bandwidth)",
                bound.get("title"));
        assertEquals(false, bound.get("logY"));
        // tiny-lock at 256x256: 65536 cells in 4 ms against 5e9 cells/s is 0.33 %
        assertTrue(section(ReportWriter.html(comparison(rows), COMMAND, PRODUCED_AT), "verdicts")
                .contains("<td>4.000 ms (3.900 to 4.200); 0.3 % of the memory bound</td>"));
        assertEquals("0.3%", ResultFormat.ofBound(rows.get(1)));
        assertEquals("-", ResultFormat.ofBound(ReportRows.timed().get(1)));
    }

    @Test
    void aRowThatIsNotVerifiedIsMarkedInTheTableAndJudgedAndPlottedNowhere() {
        List<ResultRow> rows = new ArrayList<>(compareRows());
        rows.add(notVerified());
        String page = ReportWriter.html(comparison(rows), COMMAND, PRODUCED_AT);
        String table = section(page, "results");
        assertTrue(table.contains("<tr class=\"problem\"><td>prefix-sum</td><td>32</td><td>wavefront</td><td>broken-backend</td>"), table);
        assertTrue(table.contains("<td class=\"status-bad\">NOT VERIFIED</td>"), table);
        assertTrue(table.contains("total[3] is 7, the oracle says 6"), "the problem is shown");
        assertFalse(section(page, "verdicts").contains("broken-backend"), "no verdict of its backend");
        assertEquals(chartData(ReportWriter.html(comparison(compareRows()), COMMAND, PRODUCED_AT)), chartData(page),
                "the charts are those of the verified rows alone");
    }

    @Test
    void tooShortJvmRowsAreWarnedAboutOnceWithWhatToDo() {
        List<ResultRow> rows = List.of(ReportRows.timed("64x64", "wavefront", "-", 0.2, 0.1, 0.9),
                ReportRows.timed("64x64", "lock-dataflow", "tiny-lock", 0.05, 0.04, 0.3),
                ReportRows.timed("128x128", "wavefront", "-", 0.7, 0.6, 0.8), ReportRows.timed("1024x1024", "wavefront", "-", 30, 29, 31));
        assertEquals(Optional.of("jvm rows at sizes 64x64, 128x128 ran in under 1 ms (medians 0.0500 to 0.700 ms): too short to"
                + " time reliably, so their order is mostly noise; time a larger size (--sizes) or more runs (--repeat 21)"),
                ShortRuns.warning(rows));
        assertEquals(Optional.empty(), ShortRuns.warning(ReportRows.timed()));
        assertTrue(section(ReportWriter.html(comparison(rows), COMMAND, PRODUCED_AT), "verdicts").contains("class=\"warning\""));
    }

    @Test
    void aFileThatCannotBeWrittenIsAUsageErrorNamingIt(@TempDir Path dir) throws IOException {
        Files.createDirectory(dir.resolve("results.csv"));
        UsageException problem = org.junit.jupiter.api.Assertions.assertThrows(UsageException.class,
                () -> ReportWriter.into(dir).write(comparison(compareRows()), COMMAND, PRODUCED_AT));
        assertTrue(problem.getMessage().startsWith("cannot write " + dir.resolve("results.csv") + ": "), problem.getMessage());
        assertEquals(1, problem.getMessage().lines().count(), problem.getMessage());
    }

    // ---- without fonts, and in a real browser ---------------------------------------------------------------

    /**
     * The page as a user's browser shows it, written the way a GPU server without fonts writes it. A JVM with no
     * java.desktop module at all (no AWT, so no fonts) writes the page of a mixed sweep; Chromium runs its scripts, and
     * the DOM it built says every chart was drawn (an SVG with marks in each chart's box), no script or console error
     * happened, and the verdict names the winner. A screenshot is kept in target/ for a person to look at.
     */
    @Test
    void aPageWrittenWithoutFontsDrawsEveryChartInHeadlessChromiumWithoutAnError(@TempDir Path dir) throws Exception {
        Path javaCommand = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(javaCommand.toString(), "--limit-modules", "java.base", "-cp",
                System.getProperty("java.class.path"), ReportWithoutDesktop.class.getName(), dir.toString())
                .redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(child.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, child.exitValue(), output);
        Path page = dir.resolve("report.html");
        assertTrue(Files.readString(page).contains("<section id=\"verdicts\">"), "a JVM without AWT wrote the page");

        Optional<Path> chromium = onPath("chromium").or(() -> onPath("chromium-browser"));
        Assumptions.assumeTrue(chromium.isPresent(), "chromium is not installed; apt-get install chromium to run this test");
        int charts = ReportCharts.of(ReportRows.mixed()).size();
        String url = page.toUri().toString();
        List<String> headless = List.of(chromium.get().toString(), "--headless", "--disable-gpu", "--no-sandbox",
                "--disable-background-networking", "--user-data-dir=" + dir.resolve("profile"), "--virtual-time-budget=10000");

        List<String> dumpDom = new ArrayList<>(headless);
        dumpDom.addAll(List.of("--window-size=1300,2400", "--dump-dom", url));
        String dom = runBrowser(dumpDom, dir.resolve("dom.html"));
        assertTrue(dom.contains("data-charts-drawn=\"" + charts + "\""), "the script drew all " + charts + " charts");
        assertTrue(dom.contains("<pre id=\"script-errors\" hidden=\"\"></pre>"), "no script or console error: "
                + dom.substring(Math.max(0, dom.indexOf("<pre id=\"script-errors\""))).lines().limit(20).toList());
        for (int c = 0; c < charts; c++) {
            int start = dom.indexOf("<div class=\"chart\" id=\"chart-" + c + "\"");
            int end = c + 1 < charts ? dom.indexOf("<div class=\"chart\" id=\"chart-" + (c + 1) + "\"") : dom.indexOf("</section>", start);
            String box = dom.substring(start, end);
            assertTrue(box.contains("<svg"), "chart " + c + " is an SVG");
            assertTrue(Pattern.compile("<path ").matcher(box).results().count() >= 10, "chart " + c + " drew its marks");
        }
        assertTrue(dom.contains("<b>lock-dataflow / tiny-lock</b> wins, 2.50× over data-parallel:16x16"), "the verdict");

        Path screenshot = dir.resolve("report.png");
        List<String> shoot = new ArrayList<>(headless);
        shoot.addAll(List.of("--window-size=1300,2400", "--hide-scrollbars", "--screenshot=" + screenshot, url));
        runBrowser(shoot, dir.resolve("screenshot.log"));
        BufferedImage image = ImageIO.read(screenshot.toFile());
        assertTrue(image != null && hasSeveralColours(image), "a screenshot of the page that is not blank");
        Path kept = Path.of("target", "report-screenshot.png");
        Files.createDirectories(kept.getParent());
        Files.copy(screenshot, kept, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    /** An image with a single colour is a page that drew nothing. */
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
