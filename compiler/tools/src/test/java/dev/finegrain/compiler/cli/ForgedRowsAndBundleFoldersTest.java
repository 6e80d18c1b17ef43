package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.compare.FolderLock;
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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Nothing forged: a merge keeps a verified row only when the digest of the outputs it was checked against equals the
 * oracle's here and its value is possible. Nothing half-written: an export builds its bundle beside the folder and renames
 * it into place, under a lock.
 */
class ForgedRowsAndBundleFoldersTest {

    private record Outcome(int exit, String out, String err) {}

    private static Outcome finegrain(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = FinegrainCli.execute(CliBehaviourTest.CATALOG, new PrintWriter(out), new PrintWriter(err), args);
        return new Outcome(exit, out.toString(), err.toString());
    }

    /** A verified CUDA row as a bundle's run writes it, with the digest and value given. */
    private static String cudaRow(String size, String digest, String value) {
        return "{\"kernel\": \"nw\", \"size\": \"" + size + "\", \"schedule\": \"wavefront\", \"backend\": \"cuda:sm_90\","
                + " \"mechanism\": \"-\", \"granularity\": \"per-thread\", \"channels\": \"shared\", \"seed\": 42,"
                + (digest == null ? "" : " \"outputs_digest\": \"" + digest + "\",")
                + " \"status\": \"verified\", \"verified\": true, \"metric\": \"cells_per_s\", \"value\": " + value
                + ", \"unit\": \"cells/s\"}";
    }

    /** The digest of the oracle's outputs for nw at 16x16, seed 42, as a run here writes it. */
    private static String oracleDigest() {
        Outcome run = finegrain("compare", "nw", "--sizes", "16", "--schedules", "wavefront", "--backends", "reference",
                "--format", "json");
        assertEquals(0, run.exit(), run.err());
        return (String) ((Map<?, ?>) ((List<?>) Json.parse(run.out())).getFirst()).get("outputs_digest");
    }

    @Test
    void aMergeKeepsOnlyVerifiedRowsWhoseDigestMatchesTheOracleHereAndWhoseValueIsPossible(@TempDir Path temp) throws IOException {
        String digest = oracleDigest();
        assertEquals(32, digest.length());
        Path results = Files.writeString(temp.resolve("results.json"), "[\n" + String.join(",\n",
                cudaRow("16x16", digest, "3.5e9"),
                cudaRow("16x16", digest.replace(digest.charAt(0), digest.charAt(0) == 'a' ? 'b' : 'a'), "3.5e9"),
                cudaRow("16x16", null, "3.5e9"),
                cudaRow("16x16", digest, "-5")) + "\n]\n");
        Outcome merge = finegrain("compare", "nw", "--results", results.toString());
        assertEquals(FinegrainCli.EXIT_NOT_VERIFIED, merge.exit(), "a refused row is a problem: " + merge.err());
        List<String> failures = merge.out().lines().filter(line -> line.startsWith("FAILED: ")).toList();
        assertEquals(3, failures.size(), merge.out());
        assertTrue(failures.get(0).endsWith("imported row refused: it was checked against other outputs than kernel 'nw'"
                + " gives here at size 16x16 with seed 42 (outputs_digest " + cudaDigestOf(failures.get(0)) + ", here " + digest
                + "): another definition of the kernel or other inputs; export and run it again"), failures.get(0));
        assertTrue(failures.get(1).endsWith("imported row refused: it carries no outputs_digest of the outputs it was checked"
                + " against (written by an older Finegrain, or by hand); export and run it again"), failures.get(1));
        assertTrue(failures.get(2).endsWith("imported row refused: its value -5 cells/s is impossible for a verified row"),
                failures.get(2));
        assertEquals(1, merge.out().lines().filter(line -> line.startsWith("nw ") && line.contains(" verified ")).count(),
                merge.out());
    }

    private static String cudaDigestOf(String failure) {
        int at = failure.indexOf("(outputs_digest ") + "(outputs_digest ".length();
        return failure.substring(at, at + 32);
    }

    @Test
    void anExportKilledHalfWayLeavesNoBundleAndTheNextExportStartsAfresh(@TempDir Path temp) throws IOException {
        Path bundle = temp.resolve("bundle");
        Path partial = temp.resolve(".bundle.partial");
        Files.createDirectories(partial.resolve("sizes/16x16/inputs"));
        Files.writeString(partial.resolve("sizes/16x16/inputs/reference.bin"), "truncat");   // what a killed export left
        Outcome export = finegrain("export", "nw", "--sizes", "16", "--schedules", "wavefront", "--out", bundle.toString());
        assertEquals(0, export.exit(), export.err());
        assertFalse(Files.exists(partial), "the half-written bundle is gone");
        assertEquals(16 * 16 * 4 + 0L, Files.size(bundle.resolve("sizes/16x16/expected/score.bin")));
        assertTrue(Files.exists(bundle.resolve("run.sh")));
    }

    @Test
    void aSecondExportIntoAFolderBeingWrittenIsRefusedNamingTheHolder(@TempDir Path temp) {
        Path bundle = temp.resolve("bundle");
        try (FolderLock held = FolderLock.take(temp.resolve(".bundle.lock"), "bundle folder " + bundle, "finegrain export nw")) {
            Outcome second = finegrain("export", "nw", "--sizes", "16", "--out", bundle.toString());
            assertEquals(FinegrainCli.EXIT_USAGE, second.exit());
            assertEquals("finegrain: bundle folder " + bundle + " is in use by another finegrain run (pid "
                    + ProcessHandle.current().pid() + ": finegrain export nw); wait for it to finish or choose another folder\n",
                    second.err());
        }
        assertFalse(Files.exists(bundle));
    }
}
