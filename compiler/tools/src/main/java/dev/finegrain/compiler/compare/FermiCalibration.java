package dev.finegrain.compiler.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The two Fermi costs that no publication gives, each fitted to one cell of Table 2 of Li et al., "Fine-grained
 * synchronizations and dataflow programming on GPUs" (the tiny-lock paper): the named-barrier hand-off
 * ({@code latency.namedBarrier}) to the speed-up of its warp-barrier scheme, and the block fence with which the shared
 * spin-lock's representative orders its warp ({@code latency.membar}) to the speed-up of its shared-lock scheme. The
 * other Table 2 cells and all of Table 3 are predictions. The fit is a bisection over integer cycles, so the profile's
 * values are derived, never typed: {@code finegrain fidelity} runs it and prints each step.
 */
public final class FermiCalibration {

    /** A profile key fitted to one Table 2 cell: the mechanism that cell measures and the paper's name for it. */
    public record Parameter(String key, String mechanism, String paperScheme) {

        /** The words the profile and the docs mark the key with. */
        public String mark() {
            return "calibrated on Li et al. Table 2, " + paperScheme;
        }
    }

    /** One value tried and the speed-up over the atomic spin-lock the model gave with it. */
    public record Step(int value, double speedup) {}

    /** The value whose speed-up is closest to the paper's, and the steps that found it. */
    public record Fit(Parameter parameter, double paperSpeedup, int value, double speedup, List<Step> steps) {

        public Fit {
            steps = List.copyOf(steps);
        }

        public String stepsText() {
            return String.join(", ", steps.stream().map(step -> String.format(Locale.ROOT, "%d → %.2fx", step.value(),
                    step.speedup())).toList());
        }
    }

    /** The fitted parameters, in the order they are fitted (the second fit uses the first's value). */
    public static final List<Parameter> FITTED = List.of(
            new Parameter("latency.namedBarrier", "named-barrier", "warp barr"),
            new Parameter("latency.membar", "shared-spin-lock", "shrd lock"));
    /** The range searched, in cycles. */
    public static final int LOWEST = 1;
    public static final int HIGHEST = 4096;

    private FermiCalibration() {}

    /**
     * The integer in [{@link #LOWEST}, {@link #HIGHEST}] whose speed-up is closest to the paper's, for a speed-up that
     * does not grow with the value (a dearer operation never makes its scheme faster). Bisection: the least value whose
     * speed-up is at most the paper's, then that or the value below it, whichever lands closer.
     */
    public static Fit fit(Parameter parameter, IntToDoubleFunction speedupAt) {
        double target = FidelityReport.TABLE2_SPEEDUP.get(parameter.mechanism());
        List<Step> steps = new ArrayList<>();
        IntToDoubleFunction recorded = value -> {
            double speedup = speedupAt.applyAsDouble(value);
            steps.add(new Step(value, speedup));
            return speedup;
        };
        int low = LOWEST;
        int high = HIGHEST;
        if (recorded.applyAsDouble(low) <= target) {
            return new Fit(parameter, target, low, steps.getLast().speedup(), steps);
        }
        double highSpeedup = recorded.applyAsDouble(high);
        if (highSpeedup > target) {
            return new Fit(parameter, target, high, highSpeedup, steps);
        }
        double lowSpeedup = steps.getFirst().speedup();
        while (high - low > 1) {
            int middle = (low + high) >>> 1;
            double speedup = recorded.applyAsDouble(middle);
            if (speedup <= target) {
                high = middle;
                highSpeedup = speedup;
            } else {
                low = middle;
                lowSpeedup = speedup;
            }
        }
        boolean lowCloser = Math.abs(lowSpeedup - target) < Math.abs(highSpeedup - target);
        return new Fit(parameter, target, lowCloser ? low : high, lowCloser ? lowSpeedup : highSpeedup, steps);
    }

    /** A profile's text with one key's value replaced; the key must be set in it. */
    public static String withValue(String profileText, String key, int value) {
        Matcher line = Pattern.compile("(?m)^" + Pattern.quote(key) + "=.*$").matcher(profileText);
        if (!line.find()) {
            throw new IllegalArgumentException("the profile sets no " + key);
        }
        return line.replaceFirst(Matcher.quoteReplacement(key + "=" + value));
    }

    /** The value a profile's text sets for a key. */
    public static int valueIn(String profileText, String key) {
        Matcher line = Pattern.compile("(?m)^" + Pattern.quote(key) + "=\\s*(\\d+)\\s*$").matcher(profileText);
        if (!line.find()) {
            throw new IllegalArgumentException("the profile sets no whole number for " + key);
        }
        return Integer.parseInt(line.group(1));
    }
}
