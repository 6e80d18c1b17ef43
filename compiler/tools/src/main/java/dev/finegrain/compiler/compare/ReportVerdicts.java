package dev.finegrain.compiler.compare;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The answers a report opens with, from the verified rows alone.
 *
 * <ul>
 *   <li>A {@link Verdict} per kernel, backend (a model profile is a backend of its own) and point of the sweep (the
 *       size, and the values of any other axis): the variant with the lowest {@link RowCost cost}, its speed-up over
 *       the {@link Baselines baseline}, and the variants whose runs overlap the winner's (ties: their difference is
 *       inside the noise, so the order among them is not a result).</li>
 *   <li>A {@link ModelCheck} where a model profile and a real GPU (a {@code cuda} backend) ran the same kernel at the
 *       same point: whether the variant the model picks, among those both ran, is the one that was fastest on the
 *       GPU, or tied with it.</li>
 * </ul>
 */
public final class ReportVerdicts {

    /**
     * @param size     the size alone
     * @param point    the size, with the other axes' values where the sweep varies them
     * @param ties     the other variants whose runs overlap the winner's, fastest first
     * @param variants how many verified variants competed
     * @param boundFraction the winner's share of its memory bound, NaN where its run measured none
     */
    public record Verdict(String kernel, String backend, String size, String point, String winner, RowCost cost, String baseline,
                          boolean winnerIsBaseline, double speedup, List<String> ties, int variants, Double boundFraction) {}

    /** @param agrees the model's pick was the real winner, or tied with it ({@code tied}) */
    public record ModelCheck(String kernel, String point, String model, String real, String modelPick, String realWinner,
                             boolean agrees, boolean tied, double pickOverWinner, int variants) {}

    private ReportVerdicts() {}

    public static List<Verdict> verdicts(List<ResultRow> rows) {
        List<Verdict> verdicts = new ArrayList<>();
        ReportCharts.group(dataPoints(rows), row -> row.kernel() + "|" + row.backend() + "|" + point(row)).values().forEach(group -> {
            boolean granularities = group.stream().map(ResultRow::granularity).distinct().count() > 1;
            boolean channels = group.stream().map(ResultRow::channels).distinct().count() > 1;
            List<ResultRow> ranked = group.stream().sorted(byCost()).toList();
            ResultRow winner = ranked.getFirst();
            RowCost best = RowCost.of(winner).orElseThrow();
            ResultRow baseline = Baselines.of(group);
            List<String> ties = ranked.stream().skip(1).filter(row -> RowCost.of(row).orElseThrow().tiesWith(best))
                    .map(row -> ReportCharts.variant(row, granularities, channels)).toList();
            verdicts.add(new Verdict(winner.kernel(), winner.backend(), winner.size(), point(winner),
                    ReportCharts.variant(winner, granularities, channels), best,
                    ReportCharts.variant(baseline, granularities, channels)
                            + (Baselines.dataParallel(baseline) ? "" : " (slowest; no data-parallel row)"),
                    baseline == winner, RowCost.of(baseline).orElseThrow().value() / best.value(), ties, group.size(),
                    winner.details().get(ReportCharts.BOUND) instanceof Number bound ? bound.doubleValue() : Double.NaN));
        });
        // by kernel and backend as the rows first name them, then by size: a backend's verdicts read as one run down
        List<String> order = rows.stream().map(row -> row.kernel() + "|" + row.backend()).distinct().toList();
        verdicts.sort(Comparator.comparingInt((Verdict verdict) -> order.indexOf(verdict.kernel() + "|" + verdict.backend()))
                .thenComparingLong(verdict -> ReportCharts.points(verdict.size())));
        return verdicts;
    }

    public static List<ModelCheck> modelChecks(List<ResultRow> rows) {
        List<ModelCheck> checks = new ArrayList<>();
        ReportCharts.group(dataPoints(rows), row -> row.kernel() + "|" + point(row)).values().forEach(group -> {
            Map<String, List<ResultRow>> byBackend = ReportCharts.group(group, ResultRow::backend);
            byBackend.forEach((model, modelRows) -> byBackend.forEach((real, realRows) -> {
                if (model.startsWith("gpu-model:") && real.startsWith("cuda")) {
                    check(modelRows, realRows).ifPresent(checks::add);
                }
            }));
        });
        return checks;
    }

    /** The model's pick against the real winner over the variants both ran; none when fewer than two are shared. */
    private static Optional<ModelCheck> check(List<ResultRow> modelRows, List<ResultRow> realRows) {
        Map<String, List<ResultRow>> real = ReportCharts.group(realRows, ReportVerdicts::variantKey);
        List<ResultRow> modelled = modelRows.stream().filter(row -> real.containsKey(variantKey(row))).sorted(byCost()).toList();
        if (modelled.size() < 2) {
            return Optional.empty();
        }
        List<ResultRow> measured = modelled.stream().map(row -> real.get(variantKey(row)).getFirst()).sorted(byCost()).toList();
        ResultRow pick = modelled.getFirst();
        ResultRow winner = measured.getFirst();
        RowCost winnerCost = RowCost.of(winner).orElseThrow();
        RowCost pickCost = RowCost.of(real.get(variantKey(pick)).getFirst()).orElseThrow();
        boolean same = variantKey(pick).equals(variantKey(winner));
        boolean tied = !same && pickCost.tiesWith(winnerCost);
        return Optional.of(new ModelCheck(pick.kernel(), point(pick), pick.backend(), winner.backend(),
                ReportCharts.variant(pick, false, false), ReportCharts.variant(winner, false, false), same || tied, tied,
                pickCost.value() / winnerCost.value(), modelled.size()));
    }

    /** The size, with the sweep's other axes where it varies them. */
    static String point(ResultRow row) {
        String axes = ReportCharts.otherAxes(row, ReportCharts.SIZE);
        return axes.isEmpty() ? row.size() : row.size() + " / " + axes;
    }

    private static String variantKey(ResultRow row) {
        return String.join("|", row.schedule(), row.mechanism(), row.granularity(), row.channels());
    }

    private static List<ResultRow> dataPoints(List<ResultRow> rows) {
        return rows.stream().filter(row -> RowCost.of(row).isPresent()).toList();
    }

    private static Comparator<ResultRow> byCost() {
        return Comparator.comparingDouble(row -> RowCost.of(row).orElseThrow().value());
    }
}
