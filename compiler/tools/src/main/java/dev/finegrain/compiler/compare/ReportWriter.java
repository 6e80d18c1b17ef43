package dev.finegrain.compiler.compare;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.List;

/**
 * Writes a comparison into a folder: {@code results.json} and {@code results.csv} (exactly what
 * {@code --format json} and {@code --format csv} print) and {@code report.html}, the {@link ReportPage page}: verdicts
 * first, charts drawn in the browser, the rows as a table, in one file that needs no network and no fonts to write. A
 * row that is not verified (NOT VERIFIED, failed or skipped) is marked in the table, with its reason, and left out of
 * every verdict and chart; the comparison's notes (what a sweep left out) are listed under the table.
 */
public final class ReportWriter {

    public static final String JSON_FILE = "results.json";
    public static final String CSV_FILE = "results.csv";
    public static final String HTML_FILE = "report.html";

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
        return ReportPage.html(comparison, commandLine, producedAt, x);
    }

    private static void writeFile(Path file, String text) {
        AtomicFiles.replace(file, text);
    }
}
