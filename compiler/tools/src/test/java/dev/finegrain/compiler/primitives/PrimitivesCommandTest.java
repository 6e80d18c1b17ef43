package dev.finegrain.compiler.primitives;

import dev.finegrain.compiler.backend.gpu.cuda.CudaToolchain;
import dev.finegrain.compiler.backend.gpu.primitive.SyncPrimitive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The primitives' sweep on the model and the JVM, the page it writes, and the CUDA bundle's program. */
class PrimitivesCommandTest {

    @Test
    void everyPrimitiveRunsVerifiedOnTheModelAndTheJvmAndThePageJudgesThem() {
        PrimitiveSweep sweep = new PrimitiveSweep(List.of(new ModelPrimitives("fermi-gtx580"), new JvmPrimitives()),
                SyncPrimitive.ALL, List.of(2, 4), List.of(1, 3), 6, 3, 10);
        List<PrimitiveRow> rows = new ArrayList<>();
        sweep.run(rows::add);
        List<PrimitiveRow> primitives = rows.stream().filter(r -> !r.kind().equals("memory")).toList();
        // 8 primitives, semaphores at two initial values: 11 series, two block counts, two backends
        assertEquals(44, primitives.size());
        assertTrue(primitives.stream().allMatch(PrimitiveRow::verified), primitives.toString());
        assertEquals(12, rows.stream().filter(r -> r.kind().equals("memory")).count(), "the model's memory benchmarks");

        PrimitiveFindings fermi = new PrimitiveFindings("gpu-model:fermi-gtx580", rows);
        for (PaperClaim claim : PaperClaim.ALL) {
            if (claim.family().equals("Fermi")) {
                assertTrue(claim.judge(fermi).isPresent(), "judged: " + claim.paper());
            }
        }
        String page = PrimitivesPage.generated(rows, "provenance");
        assertTrue(page.contains("| Best Mutex at scale | Spin with Backoff |"), page);
        assertTrue(page.contains("gpu-model:fermi-gtx580: "), page);
        assertTrue(page.contains("#### jvm"), page);
        String merged = PrimitivesPage.merge("# Title\n\nhand-written\n\n" + page + "\nafter\n", page);
        assertTrue(merged.startsWith("# Title\n\nhand-written\n\n") && merged.endsWith("after\n"), merged);
    }

    @Test
    void aBarrierThatNeedsMoreBlocksThanTheMachineHoldsIsSkippedWithTheReason() {
        PrimitiveRow row = new ModelPrimitives("fermi-gtx580").run(SyncPrimitive.named("xf-barrier").orElseThrow(),
                129, 0, 2, 1);
        assertEquals("skipped: a barrier needs every block resident at once, and fermi-gtx580 holds 128 blocks of 128"
                + " threads", row.status());
    }

    @Test
    void rowsSurviveTheirCsv() {
        PrimitiveRow row = new PrimitiveRow("cuda:NVIDIA-H200", "fa-mutex", "mutex", 132, 1, 1000, 0.0125, 1.056e7,
                "wrong: 1 violations, 2 entries, 3 expected");
        assertEquals(row.csv(), PrimitiveRow.parseCsv(row.csv()).csv());
    }

    @Test
    void theCudaBundleCompiles(@TempDir Path folder) throws Exception {
        assumeTrue(CudaToolchain.nvccProblem().isEmpty(), "nvcc is not on the PATH: the CUDA compile test is skipped");
        PrimitiveCudaBundle.write(folder, SyncPrimitive.ALL, List.of(1, 120), 1000, 100, 100);
        assertTrue(Files.isExecutable(folder.resolve("run.sh")));
        Process nvcc = new ProcessBuilder("nvcc", "-O3", "-arch=sm_90", "-Werror", "all-warnings", "-c", "-o",
                folder.resolve("primitives.o").toString(), folder.resolve("primitives.cu").toString())
                .redirectErrorStream(true).start();
        String output = new String(nvcc.getInputStream().readAllBytes());
        assertTrue(nvcc.waitFor(5, TimeUnit.MINUTES), "nvcc took too long");
        assertEquals(0, nvcc.exitValue(), output);
    }
}
