package dev.finegrain.compiler.primitives;

import dev.finegrain.compiler.backend.gpu.primitive.SyncPrimitive;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * What the rows of one backend say: its answer to each question of the paper's Table 5 (the fastest verified
 * implementation at the largest block count where every candidate ran, or was too slow to matter), and the rates of
 * one primitive relative to another, for the claims of the paper's figure captions.
 */
public record PrimitiveFindings(String backend, List<PrimitiveRow> rows) {

    /** Within this fraction of the winner's rate, a runner-up is named as a tie. */
    static final double TIE = 0.05;

    public PrimitiveFindings {
        rows = rows.stream().filter(r -> r.backend().equals(backend)).toList();
    }

    /** The answer to one question: the winner's paper name, its rate and block count, and any tie. */
    public record Answer(String winner, String winnerName, int blocks, double opsPerSecond, String ties) {
        public String text() {
            return winner + " (" + winnerName + ", " + rate(opsPerSecond) + " ops/s at " + blocks + ")"
                    + (ties.isEmpty() ? "" : "; within 5 %: " + ties);
        }
    }

    public Optional<Answer> answer(PaperTable5.Question question) {
        List<PrimitiveRow> candidates = rows.stream().filter(r -> r.kind().equals(question.kind()))
                .filter(r -> !question.kind().equals("semaphore") || r.initial() == initial(question.highInitial()))
                .toList();
        Set<String> names = candidates.stream().map(PrimitiveRow::primitive).collect(Collectors.toSet());
        if (names.isEmpty()) {
            return Optional.empty();
        }
        Optional<Integer> scale = candidates.stream().filter(PrimitiveRow::verified).map(PrimitiveRow::blocks)
                .distinct().filter(b -> decided(candidates, names, b)).max(Integer::compare);
        if (scale.isEmpty()) {
            return Optional.empty();
        }
        int blocks = scale.get();
        List<PrimitiveRow> atScale = candidates.stream().filter(r -> r.blocks() == blocks && r.verified())
                .sorted(Comparator.comparingDouble(PrimitiveRow::opsPerSecond).reversed()).toList();
        PrimitiveRow best = atScale.getFirst();
        String ties = atScale.stream().skip(1).filter(r -> r.opsPerSecond() >= (1 - TIE) * best.opsPerSecond())
                .map(r -> paperName(r.primitive())).collect(Collectors.joining(", "));
        return Optional.of(new Answer(paperName(best.primitive()), best.primitive(), blocks, best.opsPerSecond(), ties));
    }

    /**
     * Whether the candidates settle a winner at {@code blocks}: each ran verified there, or was too slow there with a
     * bound below the best verified rate (the paper, likewise, stops plotting a primitive that collapses and counts it
     * out at scale).
     */
    private static boolean decided(List<PrimitiveRow> candidates, Set<String> names, int blocks) {
        double best = candidates.stream().filter(r -> r.blocks() == blocks && r.verified())
                .mapToDouble(PrimitiveRow::opsPerSecond).max().orElse(Double.NaN);
        return names.stream().allMatch(name -> candidates.stream().anyMatch(r -> r.primitive().equals(name)
                && r.blocks() == blocks && (r.verified() || r.upperBound().orElse(Double.MAX_VALUE) < best)));
    }

    /** The semaphores' low or high initial value among the rows. */
    int initial(boolean high) {
        TreeSet<Integer> values = rows.stream().filter(r -> r.kind().equals("semaphore")).map(PrimitiveRow::initial)
                .collect(Collectors.toCollection(TreeSet::new));
        return values.isEmpty() ? 0 : high ? values.last() : values.first();
    }

    /** The ratio of two primitives' rates at every block count where both verified, smallest first by blocks. */
    public List<double[]> ratios(String numerator, String denominator, int initial) {
        List<PrimitiveRow> both = rows.stream().filter(r -> r.initial() == initial).toList();
        return both.stream().filter(PrimitiveRow::verified).map(PrimitiveRow::blocks).distinct().sorted()
                .filter(b -> verified(both, numerator, b).isPresent() && verified(both, denominator, b).isPresent())
                .map(b -> new double[] {b, verified(both, numerator, b).orElseThrow().opsPerSecond()
                        / verified(both, denominator, b).orElseThrow().opsPerSecond()})
                .toList();
    }

    private static Optional<PrimitiveRow> verified(List<PrimitiveRow> rows, String primitive, int blocks) {
        return rows.stream().filter(r -> r.primitive().equals(primitive) && r.blocks() == blocks && r.verified())
                .findFirst();
    }

    static String paperName(String primitive) {
        return SyncPrimitive.named(primitive).map(SyncPrimitive::paperName).orElse(primitive);
    }

    static String rate(double value) {
        return Objects.requireNonNull(String.format(Locale.ROOT, "%.3g", value));
    }
}
