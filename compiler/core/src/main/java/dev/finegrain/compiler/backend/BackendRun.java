package dev.finegrain.compiler.backend;

import java.util.Map;
import java.util.Optional;

/**
 * What one run produced: the outputs to verify, the headline metric, and further measurements by name. A run
 * that noticed its own fault (e.g. a read before the producer fired) says so in {@code failure}.
 */
public record BackendRun(KernelOutputs outputs, String metric, double value, String unit, Map<String, Object> details,
                         Optional<String> failure) {

    public BackendRun {
        details = Map.copyOf(details);
    }
}
