package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.backend.gpu.cuda.CudaToolchain;
import dev.finegrain.compiler.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code finegrain export} writes a bundle that runs without Java, and {@code compare --results} merges the rows a
 * bundle (or an earlier {@code --out}) wrote: the layout, the round trip through the bundle's run.sh where nvcc is,
 * and the import of rows of every status.
 */
class ExportAndImportTest {

    private record Outcome(int exit, String out, String err) {}

    private static Outcome finegrain(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = FinegrainCli.execute(CliBehaviourTest.CATALOG, new PrintWriter(out), new PrintWriter(err), args);
        return new Outcome(exit, out.toString(), err.toString());
    }

    @Test
    void theBundleHoldsEveryRowItsSourcesAndTheOraclesOutputs(@TempDir Path temp) throws IOException {
        Path bundle = temp.resolve("bundle");
        Outcome export = finegrain("export", "nw", "--sizes", "16,12x10", "--schedules", "wavefront,data-parallel:4",
                "--out", bundle.toString());
        assertEquals(0, export.exit(), export.err());
        assertTrue(export.out().contains("wrote 4 rows"), export.out());
        for (String shared : List.of("run.sh", "harness.cu", "finegrain.cuh", "README.txt")) {
            assertTrue(Files.exists(bundle.resolve(shared)), shared);
        }
        assertTrue(Files.isExecutable(bundle.resolve("run.sh")));
        assertTrue(Files.readString(bundle.resolve("README.txt")).contains("finegrain export nw --sizes 16,12x10"));
        // the oracle's scores of each size, as int32 without the halo
        assertEquals(16 * 16 * 4, Files.size(bundle.resolve("sizes/16x16/expected/score.bin")));
        assertEquals(12 * 10 * 4, Files.size(bundle.resolve("sizes/12x10/expected/score.bin")));
        assertTrue(Files.exists(bundle.resolve("sizes/16x16/inputs/reference.bin")));
        List<Path> rows;
        try (var listed = Files.list(bundle.resolve("rows"))) {
            rows = listed.sorted().toList();
        }
        assertEquals(4, rows.size());
        Path wavefront = rows.getFirst();
        String id = Files.readString(wavefront.resolve("variant")).strip();
        assertTrue(id.startsWith("nw__wavefront__"), id);
        assertTrue(Files.readString(wavefront.resolve(id + ".cu")).contains("fg_run_" + id));
        assertEquals("sm_90", Files.readString(wavefront.resolve("arch")).strip());
        // data-parallel:4 does not divide 12x10: the GPU runs its edge tiles cut short, so the row is a real one
        Path ragged = rows.getLast();
        String raggedId = Files.readString(ragged.resolve("variant")).strip();
        assertTrue(raggedId.startsWith("nw__data_parallel_4x4__") && raggedId.endsWith("12x10"), raggedId);
        assertTrue(Files.exists(ragged.resolve(raggedId + ".cu")), "its translation unit");
    }

    @Test
    void exportSaysWhichRowsItWritesAsSkippedAndWhy(@TempDir Path temp) {
        Outcome export = finegrain("export", "nw", "--sizes", "12x10", "--schedules", "lock-dataflow", "--mechanisms",
                "named-barrier", "--out", temp.resolve("bundle").toString());
        assertEquals(0, export.exit(), export.err());
        assertTrue(export.err().contains("skipped: nw 12x10 lock-dataflow cuda:sm_90 named-barrier: backend 'cuda:sm_90' cannot"
                + " use mechanism 'named-barrier'"), export.err());
    }

    @Test
    void aBundleFolderThatCannotBeCreatedIsOneLine(@TempDir Path temp) throws IOException {
        Path file = Files.writeString(temp.resolve("a-file"), "x");
        Outcome export = finegrain("export", "nw", "--sizes", "16", "--out", file.resolve("sub").toString());
        assertEquals(2, export.exit(), export.err());
        assertEquals(1, export.err().lines().count(), export.err());
        assertTrue(export.err().startsWith("finegrain: cannot create the bundle folder " + file.resolve("sub")), export.err());
        assertFalse(export.err().contains("\tat "), export.err());
    }

    @Test
    void exportRefusesAFolderThatHoldsSomething(@TempDir Path temp) throws IOException {
        Files.writeString(temp.resolve("keep.txt"), "mine");
        Outcome export = finegrain("export", "nw", "--sizes", "16", "--out", temp.toString());
        assertEquals(2, export.exit());
        assertEquals("finegrain: bundle folder " + temp + " is not empty; give a new folder", export.err().strip());
        assertEquals("mine", Files.readString(temp.resolve("keep.txt")));
    }

    @Test
    void aBundleRunWhereNvccIsComesBackThroughCompareResults(@TempDir Path temp) throws IOException, InterruptedException {
        assumeTrue(CudaToolchain.nvccProblem().isEmpty(), "nvcc is not on the PATH: the bundle's run.sh cannot build here");
        Path bundle = temp.resolve("bundle");
        assertEquals(0, finegrain("export", "nw", "--sizes", "16", "--schedules", "wavefront,lock-dataflow",
                "--mechanisms", "tiny-lock", "--out", bundle.toString()).exit());
        Process run = new ProcessBuilder("bash", "run.sh").directory(bundle.toFile()).redirectErrorStream(true)
                .redirectOutput(bundle.resolve("run.log").toFile()).start();
        run.getOutputStream().close();
        assertTrue(run.waitFor(300, TimeUnit.SECONDS), "run.sh did not finish");
        String log = Files.readString(bundle.resolve("run.log"));
        assertEquals(0, run.exitValue(), log);
        List<?> rows = (List<?>) Json.parse(Files.readString(bundle.resolve("results.json")));
        assertEquals(2, rows.size(), log);
        for (Object element : rows) {
            Map<?, ?> row = (Map<?, ?>) element;
            // with a GPU every row verifies; without one the harness itself says so (it was built, so nvcc worked)
            assertTrue(row.get("status").equals("verified")
                    || row.get("status").equals("skipped") && String.valueOf(row.get("problem")).contains("no CUDA GPU"), row.toString());
        }
        Outcome merged = finegrain("compare", "nw", "--sizes", "16", "--backends", "reference", "--quick",
                "--results", bundle.resolve("results.json").toString());
        assertEquals(0, merged.exit(), merged.err());
        assertTrue(merged.out().contains("cuda:sm_90"), merged.out());
        assertTrue(merged.err().contains("merged 2 rows of kernel 'nw'"), merged.err());
    }

    @Test
    void importedRowsKeepTheirStatusAndAWrongOneFailsTheComparison(@TempDir Path temp) throws IOException {
        Path results = temp.resolve("results.json");
        Files.writeString(results, """
                [
                {"kernel": "nw", "size": "16x16", "schedule": "wavefront", "backend": "cuda:sm_90", "mechanism": "-", \
                "granularity": "per-thread", "channels": "shared", "seed": 42, "status": "verified", "verified": true, \
                "metric": "cells_per_s", "value": 2.5e9, "unit": "cells/s", "device": "NVIDIA H100 80GB HBM3", "us": 12.5},
                {"kernel": "nw", "size": "16x16", "schedule": "lock-dataflow", "backend": "cuda:sm_90", "mechanism": "tiny-lock", \
                "granularity": "per-thread", "channels": "shared", "seed": 42, "status": "NOT VERIFIED", "verified": false, \
                "metric": "cells_per_s", "value": 1e9, "unit": "cells/s", "problem": "score[3, 4]: expected -7, got 0"},
                {"kernel": "other", "size": "8", "schedule": "wavefront", "backend": "cuda:sm_90", "status": "skipped"}
                ]
                """);
        Outcome merged = finegrain("compare", "nw", "--sizes", "16", "--backends", "reference", "--quick", "--format", "json",
                "--results", results.toString());
        assertEquals(1, merged.exit(), "a NOT VERIFIED row is a problem wherever it ran: " + merged.err());
        List<?> rows = (List<?>) Json.parse(merged.out());
        Map<?, ?> verified = (Map<?, ?>) rows.stream().filter(r -> "wavefront".equals(((Map<?, ?>) r).get("schedule"))
                && "cuda:sm_90".equals(((Map<?, ?>) r).get("backend"))).findFirst().orElseThrow();
        assertEquals("NVIDIA H100 80GB HBM3", verified.get("device"));
        assertEquals(2.5e9, verified.get("value"));
        assertTrue(merged.out().contains("expected -7, got 0"));
        assertTrue(merged.err().contains("left out 1 rows of other kernels"), merged.err());
        assertFalse(merged.out().contains("\"other\""));
    }

    @Test
    void mergingAnEarlierRunLeavesOutItsRepeatsAndOtherSizes(@TempDir Path temp) {
        Path earlier = temp.resolve("earlier");
        Outcome first = finegrain("compare", "nw", "--sizes", "16,8", "--backends", "reference", "--schedules", "wavefront",
                "--out", earlier.toString());
        assertEquals(0, first.exit(), first.err());
        Outcome again = finegrain("compare", "nw", "--sizes", "16", "--backends", "reference", "--schedules", "wavefront",
                "--format", "json", "--results", earlier.resolve("results.json").toString());
        assertEquals(0, again.exit(), again.err());
        assertEquals(1, ((List<?>) Json.parse(again.out())).size(), again.out());
        assertTrue(again.err().contains("merged 0 rows of kernel 'nw' from " + earlier.resolve("results.json")
                + "; left out 1 rows of sizes not asked for, 1 rows that repeat rows computed here"), again.err());
    }

    @Test
    void aResultsFileThatIsNotRowsIsOneLine(@TempDir Path temp) throws IOException {
        Path broken = temp.resolve("results.json");
        Files.writeString(broken, "{\"rows\": 3}");
        Outcome outcome = finegrain("compare", "nw", "--sizes", "16", "--backends", "reference", "--results", broken.toString());
        assertEquals(2, outcome.exit());
        assertEquals("finegrain: results file " + broken + " holds no array of rows; give a results.json that compare --out or"
                + " an exported bundle's run.sh wrote", outcome.err().strip());
        Outcome missing = finegrain("compare", "nw", "--sizes", "16", "--backends", "reference",
                "--results", temp.resolve("nope.json").toString());
        assertEquals(2, missing.exit());
        assertEquals("finegrain: results file " + temp.resolve("nope.json") + " does not exist", missing.err().strip());
    }
}
