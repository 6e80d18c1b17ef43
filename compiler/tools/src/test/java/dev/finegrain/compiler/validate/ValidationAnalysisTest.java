package dev.finegrain.compiler.validate;

import dev.finegrain.compiler.compare.ResultRow;
import dev.finegrain.compiler.compare.RowStatus;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The validation report's arithmetic on fixed rows: ratios, medians, winners, orders and what stays out. */
class ValidationAnalysisTest {

    private static final List<ResultRow> REAL = List.of(
            real("64x64", "wavefront", "-", 10, "[9.5, 10.0, 10.5]"),
            real("64x64", "lock-dataflow", "tiny-lock", 20, null),
            real("64x64", "data-parallel:16x16", "-", 40, null),
            real("64x64", "lock-dataflow:persistent", "tiny-lock", 5, null),
            real("128x128", "wavefront", "-", 100, null),
            real("128x128", "lock-dataflow", "tiny-lock", 50, null),
            real("128x128", "data-parallel:16x16", "-", 80, null));
    /** The model backend's refusal of a schedule, as the validate command passes it. */
    private static final Map<String, String> NOT_MODELLED = Map.of("lock-dataflow:persistent", "no warp shuffle");
    private static final List<ResultRow> MODEL = List.of(
            model("64x64", "wavefront", "-", 12),
            model("64x64", "lock-dataflow", "tiny-lock", 18),
            model("64x64", "data-parallel:16x16", "-", 60),
            model("128x128", "wavefront", "-", 40),
            model("128x128", "lock-dataflow", "tiny-lock", 60),
            model("128x128", "data-parallel:16x16", "-", 80));

    @Test
    void ratiosAreModelledOverRealAndTheMedianErrorIsOverEveryComparedRow() {
        ValidationAnalysis analysis = ValidationAnalysis.of(REAL, MODEL, Map.of(), NOT_MODELLED);
        List<ValidationPair> compared = analysis.compared();
        assertEquals(6, compared.size());
        assertEquals(1.2, compared.getFirst().ratio(), 1e-12);
        // errors: 0.2, 0.1, 0.5, 0.6, 0.2, 0.0 -> sorted 0.0 0.1 0.2 0.2 0.5 0.6 -> median 0.2
        assertEquals(0.2, analysis.medianError(), 1e-12);
        // ratios: 1.2, 0.9, 1.5, 0.4, 1.2, 1.0 -> median (1.0 + 1.2) / 2
        assertEquals(1.1, analysis.medianRatio(), 1e-12);
        assertFalse(analysis.errorTargetMet(), "20 % is above the 15 % target");
        assertEquals(0.1, compared.getFirst().realSpread(), 1e-12);
    }

    @Test
    void winnerAgreementCountsTheKernelSizePairsWhoseFastestVariantTheModelPicks() {
        ValidationAnalysis analysis = ValidationAnalysis.of(REAL, MODEL, Map.of(), NOT_MODELLED);
        assertEquals(2, analysis.groups().size());
        ValidationGroup small = analysis.groups().get(0);
        ValidationGroup large = analysis.groups().get(1);
        assertTrue(small.sameWinner());
        assertTrue(small.sameOrder());
        assertEquals(1.0, small.kendallTau(), 1e-12);
        assertEquals(1.0, small.realMargin(), 1e-12);
        assertFalse(large.sameWinner());
        assertEquals("wavefront", large.modelWinner().variant());
        assertEquals("lock-dataflow tiny-lock", large.realWinner().variant());
        // real: tiny 50 < dp 80 < wavefront 100; model: wavefront 40 < tiny 60 < dp 80: one concordant pair of three
        assertEquals(-1.0 / 3, large.kendallTau(), 1e-12);
        assertEquals(0.5, analysis.winnerAgreement(), 1e-12);
        assertEquals(0.5, analysis.exactOrderAgreement(), 1e-12);
        assertFalse(analysis.winnerTargetMet());
        // ratios of the large group: 0.4, 1.2, 1.0 -> median 1.0; the model's pick (0.4) lies further from it
        assertEquals("wavefront", large.misCosted(1.0).variant());
    }

    @Test
    void persistentRowsAndRowsTheModelDidNotRunStayOutOfEveryStatistic() {
        ValidationAnalysis analysis = ValidationAnalysis.of(REAL, MODEL.subList(0, 3),
                Map.of(ValidationAnalysis.key("needleman-wunsch", "128x128", "wavefront", "-"), "too large"),
                NOT_MODELLED);
        List<ValidationPair> left = analysis.notCompared();
        assertEquals(4, left.size());
        assertEquals("not modelled: no warp shuffle", left.getFirst().note());
        assertEquals("not run on the model: too large", left.get(1).note());
        assertEquals("not run on the model: no model row", left.get(2).note());
        assertEquals(1, analysis.groups().size());
        assertEquals(1.0, analysis.winnerAgreement(), 1e-12);
    }

    /** A pick that ran within the timed runs' spread of the real winner is a near tie: the target counts it, the exact row does not. */
    @Test
    void aPickWithinTheRunsSpreadOfTheWinnerIsANearTie() {
        List<ResultRow> real = List.of(
                real("64x64", "wavefront", "-", 100, "[95, 100, 106]"),
                realListed("64x64", "lock-dataflow", "tiny-lock", 104, List.of(103.0, 104.0, 105.0)),
                real("128x128", "wavefront", "-", 100, "[99, 100, 101]"),
                real("128x128", "lock-dataflow", "tiny-lock", 104, "[103, 104, 105]"));
        List<ResultRow> model = List.of(
                model("64x64", "wavefront", "-", 50),
                model("64x64", "lock-dataflow", "tiny-lock", 40),
                model("128x128", "wavefront", "-", 50),
                model("128x128", "lock-dataflow", "tiny-lock", 40));
        ValidationAnalysis analysis = ValidationAnalysis.of(real, model, Map.of(), Map.of());
        ValidationGroup wide = analysis.groups().get(0);
        ValidationGroup narrow = analysis.groups().get(1);
        assertTrue(wide.nearTie(), "4 % slower, within the winner's 11 % spread");
        assertFalse(narrow.nearTie(), "4 % slower, outside both rows' 2 % spreads");
        assertEquals(0.02 / 1.04, wide.modelWinner().realSpread(), 1e-9, "a results file's list of runs has a spread too");
        assertEquals(0.0, analysis.winnerAgreement(), 1e-12);
        assertEquals(0.5, analysis.winnerOrTieAgreement(), 1e-12);
        assertFalse(analysis.winnerTargetMet());
    }

    @Test
    void kendallTauIsOneForTheSameOrderAndMinusOneForTheReverse() {
        List<ValidationPair> same = List.of(pair(1, 10), pair(2, 20), pair(3, 30));
        List<ValidationPair> reverse = List.of(pair(1, 30), pair(2, 20), pair(3, 10));
        assertEquals(1.0, ValidationAnalysis.kendallTau(same), 1e-12);
        assertEquals(-1.0, ValidationAnalysis.kendallTau(reverse), 1e-12);
        assertEquals(2.5, ValidationAnalysis.median(new double[] {4, 1, 2, 3}), 1e-12);
    }

    @Test
    void theReportStatesTheVerdictsAndListsTheMisses() {
        ValidationReport report = new ValidationReport(ValidationAnalysis.of(REAL, MODEL, Map.of(), NOT_MODELLED), "gpu-model:test",
                "a GPU", List.of("results.json"), "./finegrain validate");
        String page = report.markdown("## Notes\n");
        assertTrue(page.contains("| winner agreement, (kernel, size) pairs, near ties as ties | 50.0 % (1 of 2) | ≥ 90 % | **missed** |"), page);
        assertTrue(page.contains("| winner agreement, the exact winner | 50.0 % (1 of 2) | - | - |"), page);
        assertTrue(page.contains("| median \\|modelled / real − 1\\|, 6 rows | 20.0 % | ≤ 15 % | **missed** |"), page);
        assertTrue(page.contains("| median Kendall tau (tau-a) between the orders | 0.33 | ≥ 0.85 | **missed** |"), page);
        assertTrue(page.contains("| needleman-wunsch | 128x128 | lock-dataflow tiny-lock (50.0) | wavefront: 100, 40.0 |"
                + " 60.0 % | no: pick +100.0 %, spread - | wavefront | 0.40 vs 1.00 |"), page);
        assertTrue(report.json().contains("\"winner_agreement\": 0.500000"), report.json());
    }

    private static ValidationPair pair(double real, double modelled) {
        return new ValidationPair("k", "1", "s" + real, "-", real, Double.NaN, modelled, "");
    }

    private static ResultRow real(String size, String schedule, String mechanism, double us, String runs) {
        // as a CUDA bundle's harness writes a row: its median in ms beside the µs, and the runs as the table's text
        Map<String, Object> details = runs == null ? Map.of("us", us, "median_ms", us / 1e3)
                : Map.of("us", us, "median_ms", us / 1e3, "runs_us", runs);
        return new ResultRow("needleman-wunsch", size, schedule, "cuda:sm_90", mechanism, "per-thread", "shared",
                RowStatus.VERIFIED, "cells_per_s", 1, "cells/s", 42, "", details);
    }

    /** A real row as a results file gives it: its runs a list. */
    private static ResultRow realListed(String size, String schedule, String mechanism, double us, List<Double> runs) {
        return new ResultRow("needleman-wunsch", size, schedule, "cuda:sm_90", mechanism, "per-thread", "shared",
                RowStatus.VERIFIED, "cells_per_s", 1, "cells/s", 42, "", Map.of("us", us, "median_ms", us / 1e3, "runs_us", runs));
    }

    private static ResultRow model(String size, String schedule, String mechanism, double us) {
        return new ResultRow("needleman-wunsch", size, schedule, "gpu-model:test", mechanism, "per-thread", "shared",
                RowStatus.VERIFIED, "cycles", us * 1980, "cycles", 42, "", Map.of("us", us));
    }
}
