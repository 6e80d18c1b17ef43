package dev.finegrain.compiler.compare;

import java.util.Map;

/**
 * One combination's result. {@code verified} is true only when the outputs equal the oracle's bit for bit; a
 * row that is not verified carries the first difference (or violation) in {@code problem} and is a bug, not a
 * data point.
 */
public record ResultRow(String kernel, String size, String schedule, String backend, String mechanism,
                        String granularity, String channels, boolean verified, String metric, double value, String unit,
                        long seed, String problem, Map<String, Object> details) {

    public ResultRow {
        details = Map.copyOf(details);
    }
}
