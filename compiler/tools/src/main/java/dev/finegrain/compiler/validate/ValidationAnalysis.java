package dev.finegrain.compiler.validate;

import dev.finegrain.compiler.compare.ResultRow;
import dev.finegrain.compiler.compare.RowCost;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The arithmetic of the validation report: real rows paired with the model's rows for the same variant, the ratio of
 * their times, and per kernel and size whether the model picks the real winner and orders the variants as the real
 * GPU does. Times are the rows' {@code us} detail (median of the timed runs for a real GPU; kernel cycles plus launch
 * overhead at the profile's clock for the model).
 *
 * @param pairs   every real row, compared or with the reason it is not
 * @param groups  the (kernel, size) pairs with at least two compared variants
 */
public record ValidationAnalysis(List<ValidationPair> pairs, List<ValidationGroup> groups) {

    /** Winner agreement the model must reach, as a share of (kernel, size) pairs, near ties counting as agreement. */
    public static final double WINNER_TARGET = 0.90;
    /** The largest median |modelled / real - 1| over all compared rows that meets the target. */
    public static final double ERROR_TARGET = 0.15;
    /** The median Kendall tau between the real and the modelled orders the model must reach. */
    public static final double TAU_TARGET = 0.85;

    public ValidationAnalysis {
        pairs = List.copyOf(pairs);
        groups = List.copyOf(groups);
    }

    /**
     * Pairs each real row with the model row of the same kernel, size, schedule and mechanism.
     *
     * @param notRun why the model did not run a variant, by {@link #key}; used when no model row exists
     * @param notModelled why the model never runs a schedule, by schedule name (the model backend's own refusal):
     *                    real rows of it are listed, never compared
     */
    public static ValidationAnalysis of(List<ResultRow> realRows, List<ResultRow> modelRows, Map<String, String> notRun,
                                        Map<String, String> notModelled) {
        Map<String, ResultRow> model = new LinkedHashMap<>();
        modelRows.forEach(row -> model.put(key(row.kernel(), row.size(), row.schedule(), row.mechanism()), row));
        // a schedule the model takes the kernel under with no mechanism is one skipped row, which stands for every mechanism
        Map<String, ResultRow> skippedSchedules = new LinkedHashMap<>();
        modelRows.stream().filter(row -> !row.verified() && (row.mechanism().equals("-") || row.mechanism().isEmpty()))
                .forEach(row -> skippedSchedules.putIfAbsent(key(row.kernel(), row.size(), row.schedule(), "-"), row));
        List<ValidationPair> pairs = new ArrayList<>();
        for (ResultRow real : realRows) {
            String key = key(real.kernel(), real.size(), real.schedule(), real.mechanism());
            double realUs = micros(real);
            double spread = spread(real);
            ResultRow modelled = model.getOrDefault(key, skippedSchedules.get(key(real.kernel(), real.size(), real.schedule(), "-")));
            String note;
            double modelUs = Double.NaN;
            if (!real.verified() || Double.isNaN(realUs)) {
                note = "real row " + real.status() + (real.problem().isEmpty() ? "" : ": " + real.problem());
                realUs = Double.NaN;
            } else if (notModelled.containsKey(real.schedule())) {
                note = "not modelled: " + notModelled.get(real.schedule());
            } else if (modelled == null) {
                note = "not run on the model: " + notRun.getOrDefault(key, "no model row");
            } else if (!modelled.verified()) {
                note = "model row " + modelled.status() + ": " + modelled.problem();
            } else {
                modelUs = micros(modelled);
                note = "";
            }
            pairs.add(new ValidationPair(real.kernel(), real.size(), real.schedule(), real.mechanism(), realUs, spread,
                    modelUs, note));
        }
        return new ValidationAnalysis(pairs, groups(pairs));
    }

    /** The key that pairs a real row with a model row. */
    public static String key(String kernel, String size, String schedule, String mechanism) {
        return kernel + " " + size + " " + schedule + " " + mechanism;
    }

    private static List<ValidationGroup> groups(List<ValidationPair> pairs) {
        Map<String, List<ValidationPair>> bySize = new LinkedHashMap<>();
        pairs.stream().filter(ValidationPair::compared)
                .forEach(pair -> bySize.computeIfAbsent(pair.kernel() + " " + pair.size(), k -> new ArrayList<>()).add(pair));
        List<ValidationGroup> groups = new ArrayList<>();
        for (List<ValidationPair> members : bySize.values()) {
            if (members.size() < 2) {
                continue;
            }
            List<ValidationPair> real = members.stream().sorted(Comparator.comparingDouble(ValidationPair::realUs)).toList();
            List<ValidationPair> modelled = members.stream().sorted(Comparator.comparingDouble(ValidationPair::modelUs)).toList();
            double margin = real.get(1).realUs() / real.get(0).realUs() - 1;
            groups.add(new ValidationGroup(members.getFirst().kernel(), members.getFirst().size(), real, modelled,
                    kendallTau(members), margin));
        }
        return groups;
    }

    /**
     * Kendall's tau-a between the real and the modelled times of the same variants: concordant minus discordant
     * pairs over all pairs; a pair tied in either time counts as neither.
     */
    public static double kendallTau(List<ValidationPair> members) {
        int n = members.size();
        if (n < 2) {
            return Double.NaN;
        }
        long balance = 0;
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                double real = Math.signum(members.get(i).realUs() - members.get(j).realUs());
                double model = Math.signum(members.get(i).modelUs() - members.get(j).modelUs());
                balance += (long) (real * model);
            }
        }
        return balance / (n * (n - 1) / 2.0);
    }

    /** The rows that are data points: both times known. */
    public List<ValidationPair> compared() {
        return pairs.stream().filter(ValidationPair::compared).toList();
    }

    /** The rows that are not: each with its note. */
    public List<ValidationPair> notCompared() {
        return pairs.stream().filter(pair -> !pair.compared()).toList();
    }

    /** The share of (kernel, size) pairs whose real winner the model picks; NaN without groups. */
    public double winnerAgreement() {
        return groups.isEmpty() ? Double.NaN : groups.stream().filter(ValidationGroup::sameWinner).count() / (double) groups.size();
    }

    /** The same, a near tie ({@link ValidationGroup#nearTie}) counting as agreement: what the target judges. */
    public double winnerOrTieAgreement() {
        return groups.isEmpty() ? Double.NaN : groups.stream().filter(ValidationGroup::winnerOrTie).count() / (double) groups.size();
    }

    /** The share of (kernel, size) pairs the model orders exactly as the real GPU; NaN without groups. */
    public double exactOrderAgreement() {
        return groups.isEmpty() ? Double.NaN : groups.stream().filter(ValidationGroup::sameOrder).count() / (double) groups.size();
    }

    /** The median Kendall tau over the groups. */
    public double medianKendallTau() {
        return median(groups.stream().mapToDouble(ValidationGroup::kendallTau).toArray());
    }

    /** The median |modelled / real - 1| over every compared row. */
    public double medianError() {
        return median(compared().stream().mapToDouble(ValidationPair::error).toArray());
    }

    /** The median modelled / real ratio over every compared row: above 1, the model is slow overall. */
    public double medianRatio() {
        return median(compared().stream().mapToDouble(ValidationPair::ratio).toArray());
    }

    /** The median |modelled / real - 1| over the compared rows of one kernel. */
    public double medianError(String kernel) {
        return median(compared().stream().filter(pair -> pair.kernel().equals(kernel)).mapToDouble(ValidationPair::error).toArray());
    }

    public boolean winnerTargetMet() {
        return winnerOrTieAgreement() >= WINNER_TARGET;
    }

    public boolean tauTargetMet() {
        return medianKendallTau() >= TAU_TARGET;
    }

    public boolean errorTargetMet() {
        return medianError() <= ERROR_TARGET;
    }

    /** The median of some numbers (the mean of the middle two for an even count); NaN for none. */
    public static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    private static double micros(ResultRow row) {
        return row.details().get("us") instanceof Number us ? us.doubleValue() : Double.NaN;
    }

    /** (slowest - fastest) / median of a real row's timed runs, as {@link RowCost} reads them; NaN where not recorded. */
    private static double spread(ResultRow row) {
        return RowCost.of(row).filter(cost -> !cost.exact() && cost.spreadKnown())
                .map(cost -> (cost.high() - cost.low()) / cost.value()).orElse(Double.NaN);
    }
}
