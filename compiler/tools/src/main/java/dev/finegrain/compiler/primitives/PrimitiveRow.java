package dev.finegrain.compiler.primitives;

import java.util.Locale;

/**
 * One measured point of {@code finegrain primitives}: a primitive (or a memory benchmark) on a backend with a number of
 * blocks (threads on the JVM), its rate, and whether a checking run of the same shape kept the primitive's guarantee.
 *
 * @param backend {@code gpu-model:PROFILE}, {@code cuda:GPU} or {@code jvm}
 * @param primitive the primitive's name, or a memory benchmark's
 * @param kind barrier, mutex, semaphore or memory
 * @param blocks blocks in the grid (threads on the JVM)
 * @param initial a semaphore's initial value (1 for a mutex, 0 for a barrier or a memory benchmark)
 * @param opsPerBlock operations (accesses) each block performed
 * @param seconds the timed run's time
 * @param opsPerSecond operations completed per second (a barrier counts once for all blocks, as the paper's)
 * @param status {@code verified}, or what went wrong, or why it was not run
 */
public record PrimitiveRow(String backend, String primitive, String kind, int blocks, int initial, int opsPerBlock,
                           double seconds, double opsPerSecond, String status) {

    public static final String VERIFIED = "verified";
    /** The status of a point that ran correctly but too slowly to finish within the backend's bound. */
    public static final String TOO_SLOW = "too slow";
    /** The status of a point that could not run on the backend at all. */
    public static final String SKIPPED = "skipped";
    public static final String CSV_HEADER = "backend,primitive,kind,blocks,initial,ops_per_block,seconds,ops_per_second,status";

    public boolean verified() {
        return status.equals(VERIFIED);
    }

    /** For a point that was too slow: the rate it stayed under ({@code "too slow: under X ops/s ..."}). */
    public java.util.OptionalDouble upperBound() {
        java.util.regex.Matcher under = java.util.regex.Pattern.compile("^" + TOO_SLOW + ": under ([0-9.eE+-]+) ops/s")
                .matcher(status);
        return under.find() ? java.util.OptionalDouble.of(Double.parseDouble(under.group(1)))
                : java.util.OptionalDouble.empty();
    }

    /** Whether the point says something wrong happened, rather than that it ran, was skipped or was too slow. */
    public boolean failed() {
        return !verified() && !status.startsWith(SKIPPED) && !status.startsWith(TOO_SLOW);
    }

    public static PrimitiveRow notRun(String backend, String primitive, String kind, int blocks, int initial,
                                      int opsPerBlock, String why) {
        return new PrimitiveRow(backend, primitive, kind, blocks, initial, opsPerBlock, Double.NaN, Double.NaN, why);
    }

    public String csv() {
        return String.join(",", backend, primitive, kind, Integer.toString(blocks), Integer.toString(initial),
                Integer.toString(opsPerBlock), number(seconds), number(opsPerSecond), quoted(status));
    }

    public String json() {
        return String.format(Locale.ROOT, "{\"backend\": \"%s\", \"primitive\": \"%s\", \"kind\": \"%s\", \"blocks\": %d,"
                        + " \"initial\": %d, \"ops_per_block\": %d, \"seconds\": %s, \"ops_per_second\": %s, \"status\": \"%s\"}",
                backend, primitive, kind, blocks, initial, opsPerBlock, jsonNumber(seconds), jsonNumber(opsPerSecond),
                status.replace("\\", "\\\\").replace("\"", "\\\""));
    }

    /** Reads a row {@link #csv} wrote (or the CUDA bundle printed); throws IllegalArgumentException naming the problem. */
    public static PrimitiveRow parseCsv(String line) {
        String[] cells = line.split(",", 9);
        if (cells.length != 9) {
            throw new IllegalArgumentException("expected 9 comma-separated cells (" + CSV_HEADER + "), found "
                    + cells.length);
        }
        String status = cells[8].strip();
        if (status.length() >= 2 && status.startsWith("\"") && status.endsWith("\"")) {
            status = status.substring(1, status.length() - 1).replace("\"\"", "\"");
        }
        return new PrimitiveRow(cells[0], cells[1], cells[2], Integer.parseInt(cells[3]), Integer.parseInt(cells[4]),
                Integer.parseInt(cells[5]), parse(cells[6]), parse(cells[7]), status);
    }

    private static double parse(String cell) {
        return cell.isBlank() ? Double.NaN : Double.parseDouble(cell);
    }

    private static String number(double value) {
        return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%.6g", value);
    }

    private static String jsonNumber(double value) {
        return Double.isNaN(value) ? "null" : String.format(Locale.ROOT, "%.6g", value);
    }

    private static String quoted(String text) {
        return text.contains(",") || text.contains("\"") ? "\"" + text.replace("\"", "\"\"") + "\"" : text;
    }
}
