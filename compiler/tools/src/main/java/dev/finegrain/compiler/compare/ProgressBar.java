package dev.finegrain.compiler.compare;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * A sweep's progress on a terminal: one line redrawn in place with the rows done, the row running and an estimate of
 * the time left (the time so far per finished row, times the rows to go: rough, since larger sizes come later and
 * take longer, and said as "about"). A row that did not verify is printed above the bar and stays. Where the output
 * is not a terminal the sweep prints a line per row instead, and no bar is made.
 */
final class ProgressBar {

    /** The terminal's width where the launcher could not tell it. */
    static final int DEFAULT_COLUMNS = 80;
    private static final int BAR = 20;

    private final PrintWriter out;
    private final int total;
    /** The widest line drawn, one less than the terminal's: a line that wrapped would leave a trail of copies. */
    private final int width;
    private final LongSupplier nanoTime;
    private final long start;
    private final LinkedHashSet<String> running = new LinkedHashSet<>();
    private int done;

    ProgressBar(PrintWriter out, int total, int columns, LongSupplier nanoTime) {
        this.out = out;
        this.total = total;
        this.width = Math.max(40, columns - 1);
        this.nanoTime = nanoTime;
        this.start = nanoTime.getAsLong();
    }

    synchronized void started(String row) {
        running.add(row);
        draw();
    }

    /** A settled row; {@code problem} is a line to keep above the bar (a row that did not verify), or null. */
    synchronized void finished(String row, String problem) {
        running.remove(row);
        done++;
        if (problem != null) {
            above(problem);   // which draws the bar again under it
        } else {
            draw();
        }
    }

    /** A line printed above the bar, which is redrawn under it. */
    synchronized void above(String text) {
        out.print("\r\033[K");
        out.println(text);
        draw();
    }

    /** Takes the bar off the screen: what follows (the table) starts on a clean line. */
    synchronized void close() {
        out.print("\r\033[K");
        out.flush();
    }

    private void draw() {
        out.print("\r" + line(done, total, nanoTime.getAsLong() - start, new ArrayList<>(running), width) + "\033[K");
        out.flush();
    }

    /** The bar as drawn after {@code done} of {@code total} rows in {@code elapsedNanos}, with the rows running. */
    static String line(int done, int total, long elapsedNanos, List<String> running, int width) {
        int filled = total == 0 ? BAR : (int) ((long) BAR * done / total);
        StringBuilder line = new StringBuilder("[").append("#".repeat(filled)).append(".".repeat(BAR - filled)).append("] ")
                .append(done).append('/').append(total).append(" rows");
        if (done > 0 && done < total) {
            line.append(", about ").append(duration(elapsedNanos / done * (total - done))).append(" left");
        }
        if (!running.isEmpty()) {
            line.append(": ").append(running.getFirst()).append(running.size() > 1 ? " (+" + (running.size() - 1) + ")" : "");
        }
        return line.length() <= width ? line.toString() : line.substring(0, width - 1) + "…";
    }

    /** A time left as people say it: 40 s, 3 min 10 s, 1 h 5 min. */
    static String duration(long nanos) {
        long seconds = Math.max(1, Math.round(nanos / 1e9));
        if (seconds < 60) {
            return seconds + " s";
        }
        if (seconds < 3600) {
            return String.format(Locale.ROOT, "%d min %d s", seconds / 60, seconds % 60);
        }
        return String.format(Locale.ROOT, "%d h %d min", seconds / 3600, seconds % 3600 / 60);
    }
}
