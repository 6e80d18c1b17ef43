package dev.finegrain.compiler.compare;

import java.util.Map;

/**
 * One combination's result. Its {@code status} is {@link RowStatus#VERIFIED} only when the outputs equal the
 * oracle's bit for bit; every other status carries its reason in {@code problem} (the first difference, the error,
 * or why the combination cannot run) and is never a data point.
 */
public record ResultRow(String kernel, String size, String schedule, String backend, String mechanism,
                        String granularity, String channels, RowStatus status, String metric, double value, String unit,
                        long seed, String problem, Map<String, Object> details) {

    public ResultRow {
        details = Map.copyOf(details);
    }

    public boolean verified() {
        return status == RowStatus.VERIFIED;
    }

    /** The same row with other details. */
    public ResultRow withDetails(Map<String, Object> others) {
        return new ResultRow(kernel, size, schedule, backend, mechanism, granularity, channels, status, metric, value, unit,
                seed, problem, others);
    }

    /** The same row with another status and its reason. */
    public ResultRow withStatus(RowStatus other, String why) {
        return new ResultRow(kernel, size, schedule, backend, mechanism, granularity, channels, other, metric, value, unit,
                seed, why, details);
    }

    /** What makes two rows the same combination of one sweep: a resumed sweep does not run it again. */
    public String combination() {
        return combination(kernel, size, schedule, backend, mechanism, granularity, channels, seed, SweepAxes.axesText(details));
    }

    /** The combination a row of these columns and axis values ({@link SweepAxes#axesText}) is, so that a row to come can be named before it runs. */
    static String combination(String kernel, String size, String schedule, String backend, String mechanism,
                              String granularity, String channels, long seed, String axes) {
        String columns = String.join("|", kernel, size, schedule, backend, mechanism, granularity, channels, Long.toString(seed));
        return axes.isEmpty() ? columns : columns + "|" + axes;
    }
}
