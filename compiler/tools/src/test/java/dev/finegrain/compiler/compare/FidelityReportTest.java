package dev.finegrain.compiler.compare;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fidelity page's verdicts follow the numbers: within ±10 % or not, crossover reproduced or not. */
class FidelityReportTest {

    @Test
    void table2VerdictsCompareSpeedupsWithinTenPercent() {
        List<ResultRow> chain = List.of(chainRow("atomic-spin-lock", 4000), chainRow("tiny-lock", 1000),
                chainRow("named-barrier", 2000));
        String page = FidelityReport.markdown(chain, List.of(), List.of("cmd"), List.of(), Map.of(), "");
        assertTrue(page.contains("| tiny lock | tiny-lock | predicted | 4.0 | 1000 | 4.00 | yes |"), page);
        assertTrue(page.contains("| warp barr | named-barrier | predicted | 2.6 | 2000 | 2.00 | **no** |"), page);
        assertTrue(page.contains("Predicted cells within ±10 %: 1 of 2. **Target missed**"), page);
    }

    @Test
    void aFittedCellIsMarkedAndLeftOutOfThePredictedVerdict() {
        List<ResultRow> chain = List.of(chainRow("atomic-spin-lock", 4000), chainRow("tiny-lock", 1000),
                chainRow("named-barrier", 2000));
        FermiCalibration.Fit fit = new FermiCalibration.Fit(FermiCalibration.FITTED.getFirst(), 2.6, 77, 2.0,
                List.of(new FermiCalibration.Step(77, 2.0)));
        String page = FidelityReport.markdown(chain, List.of(), List.of("cmd"), List.of(fit),
                Map.of("latency.namedBarrier", 20), "");
        assertTrue(page.contains("| warp barr | named-barrier | fitted (`latency.namedBarrier`) | 2.6 | 2000 | 2.00 | (no) |"), page);
        assertTrue(page.contains("Predicted cells within ±10 %: 1 of 1. Target met."), page);
        assertTrue(page.contains("| `latency.namedBarrier` | calibrated on Li et al. Table 2, warp barr | 2.6 | 77 | 2.00 |"
                + " **20: out of date** | 77 → 2.00x |"), page);
    }

    @Test
    void table3ReportsTheCrossoverOnlyWhenTheModelShowsIt() {
        List<ResultRow> reproduced = new ArrayList<>();
        List<ResultRow> missed = new ArrayList<>();
        for (int size : FidelityReport.TABLE3_SIZES) {
            boolean small = size <= 248;
            reproduced.add(needleRow(size, "data-parallel:31x31", "-", 100));
            reproduced.add(needleRow(size, "lock-dataflow", "tiny-lock", small ? 50 : 150));
            reproduced.add(needleRow(size, "lock-dataflow", "atomic-spin-lock", 1000));
            missed.add(needleRow(size, "data-parallel:31x31", "-", 100));
            missed.add(needleRow(size, "lock-dataflow", "tiny-lock", 50));
            missed.add(needleRow(size, "lock-dataflow", "atomic-spin-lock", 70));
        }
        String good = FidelityReport.markdown(List.of(), reproduced, List.of("cmd"), List.of(), Map.of(), "");
        assertTrue(good.contains("Model: faster at 31, 62, 124, 248; slower at 496, 992, 1984. Met."), good);
        assertTrue(good.contains("Model: 20.0x at 31, 20.0x at 62"), good);
        assertTrue(good.contains("The atomic spin-lock slowest at every size."), good);
        String bad = FidelityReport.markdown(List.of(), missed, List.of("cmd"), List.of(), Map.of(), "");
        assertTrue(bad.contains("slower at no size. **Missed.**"), bad);
        assertTrue(bad.contains("Model: 1.4x at 31"), bad);
        assertTrue(bad.contains("**not the slowest at every size**"), bad);
    }

    private static ResultRow chainRow(String mechanism, long phaseCycles) {
        return new ResultRow("chain", "512", "lock-dataflow", "gpu-model:fermi-gtx570", mechanism, "per-thread", "shared",
                RowStatus.VERIFIED, "cycles", 10_000, "cycles", 42, "", Map.of("sync_phase_cycles", phaseCycles,
                "sync_shared_bytes", 0, "lock_bits_explicit", 0, "lock_bits_implicit", 0, "named_barriers", 0));
    }

    private static ResultRow needleRow(int size, String schedule, String mechanism, double micros) {
        return new ResultRow("needleman-wunsch", size + "x" + size, schedule, "gpu-model:fermi-gtx570", mechanism,
                "per-thread", "shared", RowStatus.VERIFIED, "cycles", micros * 1464, "cycles", 42, "", Map.of("us", 9 * micros,
                "longest_launch_us", micros));
    }
}
