package dev.finegrain.compiler.compare;

import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;

/**
 * Writes a report in a JVM started without the {@code java.desktop} module ({@code --limit-modules java.base}): no
 * AWT, so no fonts, as on a GPU server or in a container that has none. {@link ReportWriterTest} starts it and
 * loads the page in a browser.
 */
public final class ReportWithoutDesktop {

    private ReportWithoutDesktop() {}

    public static void main(String[] args) {
        if (ModuleLayer.boot().findModule("java.desktop").isPresent()) {
            throw new IllegalStateException("start this JVM with --limit-modules java.base");
        }
        List<ResultRow> rows = ReportRows.mixed();
        Path page = ReportWriter.into(Path.of(args[0])).write(new Comparison(rows, List.of()), "finegrain compare k",
                ZonedDateTime.of(2026, 3, 14, 9, 26, 0, 0, ZoneOffset.UTC));
        System.out.println(page);
    }
}
