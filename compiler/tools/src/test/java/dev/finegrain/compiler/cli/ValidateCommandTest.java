package dev.finegrain.compiler.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code finegrain validate}: one clear line for results it cannot use, and a page from results it can. */
class ValidateCommandTest {

    @TempDir
    Path folder;

    private record Outcome(int exit, String out, String err) {}

    private Outcome validate(String results) throws IOException {
        Path notes = Files.writeString(folder.resolve("notes.md"), "## Notes\n");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = FinegrainCli.execute(CliBehaviourTest.CATALOG, new PrintWriter(out), new PrintWriter(err), "validate",
                "--results", results, "--notes", notes.toString(), "--out", folder.resolve("validation.md").toString(),
                "--jobs", "2");
        return new Outcome(exit, out.toString(), err.toString());
    }

    private static void assertOneLine(Outcome outcome, String expected) {
        assertEquals(FinegrainCli.EXIT_USAGE, outcome.exit(), outcome.err());
        assertEquals(expected + "\n", outcome.err().replace(System.lineSeparator(), "\n"));
        assertEquals("", outcome.out());
    }

    @Test
    void aMissingResultsFileIsOneLine() throws IOException {
        Path missing = folder.resolve("nowhere.json");
        assertOneLine(validate(missing.toString()), "finegrain: results file " + missing + " does not exist");
    }

    @Test
    void aResultsFileThatIsNotJsonIsOneLine() throws IOException {
        Path broken = Files.writeString(folder.resolve("broken.json"), "[{\"kernel\": ");
        Outcome outcome = validate(broken.toString());
        assertEquals(FinegrainCli.EXIT_USAGE, outcome.exit(), outcome.err());
        assertEquals(1, outcome.err().lines().count(), outcome.err());
        assertTrue(outcome.err().startsWith("finegrain: results file " + broken + " is not JSON: "), outcome.err());
        assertFalse(outcome.err().contains("Exception"), outcome.err());
    }

    @Test
    void resultsWithoutRealGpuRowsAreOneLine() throws IOException {
        Path modelOnly = Files.writeString(folder.resolve("model.json"), "[{\"kernel\": \"warp-chain\", \"size\": \"128\","
                + " \"schedule\": \"wavefront\", \"backend\": \"jvm\", \"status\": \"verified\", \"us\": 3}]");
        assertOneLine(validate(modelOnly.toString()), "finegrain: no rows of a real GPU (backend cuda:...) in " + modelOnly
                + "; give the results.json of an exported CUDA bundle");
    }

    @Test
    void realRowsAreRunOnTheModelAndReportedWithTheirRatios() throws IOException {
        Path real = Files.writeString(folder.resolve("real.json"), "["
                + row("wavefront", "-", 9.0) + ", " + row("lock-dataflow", "tiny-lock", 8.0) + ", "
                + row("lock-dataflow:persistent", "tiny-lock", 4.0) + "]");
        Outcome outcome = validate(real.toString());
        assertEquals(0, outcome.exit(), outcome.err());
        String page = Files.readString(folder.resolve("validation.md"));
        assertTrue(page.contains("| warp-chain | 128 | wavefront | - | 9.0 |"), page);
        assertTrue(page.contains("| warp-chain | 128 | lock-dataflow:persistent tiny-lock (4.0) | model row skipped: backend"
                + " 'gpu-model:hopper-h100' cannot run lock-dataflow:persistent of kernel 'warp-chain': lock-dataflow:persistent deals"
                + " bands of columns to warps, which needs a 2D domain"), page);
        assertTrue(page.contains("| winner agreement, (kernel, size) pairs, near ties as ties |"), page);
        assertTrue(Files.readString(folder.resolve("validation.json")).contains("\"profile\": \"gpu-model:hopper-h100\""));
    }

    private static String row(String schedule, String mechanism, double us) {
        return "{\"kernel\": \"warp-chain\", \"size\": \"128\", \"schedule\": \"" + schedule + "\", \"backend\": \"cuda:sm_90\","
                + " \"mechanism\": \"" + mechanism + "\", \"status\": \"verified\", \"device\": \"a GPU\", \"us\": " + us + "}";
    }
}
