package dev.finegrain.compiler.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Rows with known answers for the report's tests: who wins, by how much, and which variants tie. */
final class ReportRows {

    private ReportRows() {}

    /**
     * One kernel on the jvm at two sizes. At 256x256 tiny-lock wins (4.0 ms, runs 3.9 to 4.2) over data-parallel
     * (10 ms): 2.50x; acquire-release (4.1 ms, runs 4.0 to 4.5) overlaps it, a tie; the wavefront (8 ms) does not.
     * At 64x64 data-parallel wins alone.
     */
    static List<ResultRow> timed() {
        return List.of(
                timed("256x256", "data-parallel:16x16", "-", 10.0, 9.0, 11.0),
                timed("256x256", "lock-dataflow", "tiny-lock", 4.0, 3.9, 4.2),
                timed("256x256", "lock-dataflow", "acquire-release", 4.1, 4.0, 4.5),
                timed("256x256", "wavefront", "-", 8.0, 7.5, 8.5),
                timed("64x64", "data-parallel:16x16", "-", 1.0, 0.9, 1.1),
                timed("64x64", "lock-dataflow", "tiny-lock", 2.0, 1.9, 2.1));
    }

    /** A mixed sweep: {@link #timed}, {@link #modelAndGpu}, and a row that did not verify. */
    static List<ResultRow> mixed() {
        List<ResultRow> rows = new ArrayList<>(timed());
        rows.addAll(modelAndGpu());
        rows.add(new ResultRow("k", "256x256", "wavefront", "broken-backend", "-", "per-thread", "shared",
                RowStatus.NOT_VERIFIED, "cells_per_s", 1, "cells/s", 42, "s[3, 4] is 7, the oracle says 6", Map.of()));
        return rows;
    }

    static ResultRow timed(String size, String schedule, String mechanism, double median, double min, double max) {
        double cells = ReportCharts.points(size);
        return new ResultRow("k", size, schedule, "jvm", mechanism, "per-thread", "shared", RowStatus.VERIFIED, "cells_per_s",
                cells / (median / 1e3), "cells/s", 42, "", Map.of("median_ms", median, "min_ms", min, "max_ms", max,
                "threads", 2, "timed_runs", 7));
    }

    /**
     * The model and a real GPU at one size: the model's costs order the variants tiny-lock, atomic-spin-lock,
     * data-parallel; on the GPU atomic-spin-lock (5 ms) beats tiny-lock (6 ms) beyond the runs: a miss.
     */
    static List<ResultRow> modelAndGpu() {
        List<ResultRow> rows = new ArrayList<>();
        rows.add(modelled("lock-dataflow", "tiny-lock", 100));
        rows.add(modelled("lock-dataflow", "atomic-spin-lock", 150));
        rows.add(modelled("data-parallel:16x16", "-", 300));
        rows.add(gpu("lock-dataflow", "tiny-lock", List.of(6000.0, 6100.0, 5900.0)));
        rows.add(gpu("lock-dataflow", "atomic-spin-lock", List.of(5000.0, 5050.0, 4950.0)));
        rows.add(gpu("data-parallel:16x16", "-", List.of(9000.0, 9100.0, 8900.0)));
        return rows;
    }

    private static ResultRow modelled(String schedule, String mechanism, double micros) {
        return new ResultRow("k", "1024x1024", schedule, "gpu-model:hopper-h200", mechanism, "per-thread", "shared",
                RowStatus.VERIFIED, "cycles", micros * 1980, "cycles", 42, "", Map.of("us", micros));
    }

    /** As an exported bundle's harness writes a row: the median, and every run in microseconds (no min_ms, max_ms). */
    private static ResultRow gpu(String schedule, String mechanism, List<Double> runsMicros) {
        double median = runsMicros.stream().sorted().toList().get(runsMicros.size() / 2) / 1e3;
        return new ResultRow("k", "1024x1024", schedule, "cuda:sm_90", mechanism, "per-thread", "shared", RowStatus.VERIFIED,
                "cells_per_s", 1024 * 1024 / (median / 1e3), "cells/s", 42, "", Map.of("median_ms", median, "runs_us", runsMicros,
                "device", "NVIDIA H200"));
    }
}
