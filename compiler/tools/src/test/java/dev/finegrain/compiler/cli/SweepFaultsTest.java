package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.compare.OutputFolder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Nothing lost: a sweep killed or interrupted in a child process keeps every row it finished, and {@code --resume}
 * ends with the files an uninterrupted run writes; a second run on a folder in use is refused, naming the holder.
 */
class SweepFaultsTest {

    /** Big rows first, so that the child is still running when it is signalled after its first rows. */
    private static final String[] SWEEP = {"compare", "nw", "--backends", "reference", "--schedules",
            "wavefront,lock-dataflow,data-parallel:16", "--sizes", "320,288,256,224,192,160,128,96", "--jobs", "1"};
    private static final int ROWS = 24;

    private record Outcome(int exit, String out, String err) {}

    private static Outcome finegrain(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = FinegrainCli.execute(CliBehaviourTest.CATALOG, new PrintWriter(out), new PrintWriter(err), args);
        return new Outcome(exit, out.toString(), err.toString());
    }

    private static String[] with(String[] args, String... more) {
        String[] all = java.util.Arrays.copyOf(args, args.length + more.length);
        System.arraycopy(more, 0, all, args.length, more.length);
        return all;
    }

    /** Starts the sweep in a child JVM and waits until it has journaled {@code rows} rows. */
    private static Process startAndWaitForRows(Path dir, Path log, int rows) throws Exception {
        Process child = CliChild.process(with(SWEEP, "--out", dir.toString())).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        Path journal = dir.resolve(OutputFolder.JOURNAL_FILE);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.exists(journal) && journaledRows(journal) >= rows) {
                return child;
            }
            assertTrue(child.isAlive(), "the sweep ended before it was signalled:\n" + Files.readString(log));
            Thread.sleep(5);
        }
        child.destroyForcibly();
        throw new AssertionError("no " + rows + " rows journaled in a minute:\n" + Files.readString(log));
    }

    /** The rows a journal holds: its lines after the header naming the sweep. */
    private static int journaledRows(Path journal) throws IOException {
        return Math.max(0, Files.readAllLines(journal).size() - 1);
    }

    /** The rows of a results.json, each on its line, without the check's wall-clock time (the one thing that varies). */
    private static List<String> rowsOf(Path resultsJson) throws IOException {
        return Files.readAllLines(resultsJson, StandardCharsets.UTF_8).stream()
                .filter(line -> line.startsWith("  {"))
                .map(line -> line.replaceAll("\"check_ms\": [0-9.]+, ", ""))
                .toList();
    }

    @Test
    void aTerminatedSweepWritesTheRowsItFinishedMarkedIncompleteAndResumesToTheSameFiles(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("out");
        Path log = tmp.resolve("child.log");
        Process child = startAndWaitForRows(dir, log, 2);
        child.destroy();   // SIGTERM, as kill or a container's stop sends
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child did not stop");
        String output = Files.readString(log);
        assertEquals(143, child.exitValue(), output);
        assertTrue(output.contains("finegrain: incomplete: interrupted after "), output);
        assertTrue(output.contains("run the same command with --resume"), output);
        List<String> partial = rowsOf(dir.resolve("results.json"));
        assertTrue(partial.size() >= 2 && partial.size() < ROWS, partial.size() + " rows:\n" + output);
        assertTrue(Files.readString(dir.resolve("report.html")).contains("incomplete: interrupted after"));

        Outcome resumed = finegrain(with(SWEEP, "--out", dir.toString(), "--resume"));
        assertEquals(0, resumed.exit(), resumed.err());
        assertTrue(resumed.err().contains("note: resuming: the "), resumed.err());
        Path whole = tmp.resolve("whole");
        Outcome uninterrupted = finegrain(with(SWEEP, "--out", whole.toString()));
        assertEquals(0, uninterrupted.exit(), uninterrupted.err());
        assertEquals(ROWS, rowsOf(whole.resolve("results.json")).size());
        assertEquals(rowsOf(whole.resolve("results.json")), rowsOf(dir.resolve("results.json")));
        assertEquals(Files.readAllLines(whole.resolve("results.csv")).size(), Files.readAllLines(dir.resolve("results.csv")).size());
    }

    @Test
    void anInterruptedSweepExitsWith130AndWritesTheRowsItFinished(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("out");
        Path log = tmp.resolve("child.log");
        Process child = startAndWaitForRows(dir, log, 2);
        Process interrupt = new ProcessBuilder("kill", "-INT", Long.toString(child.pid())).start();   // Ctrl-C
        assertEquals(0, interrupt.waitFor());
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child did not stop");
        assertEquals(130, child.exitValue(), Files.readString(log));
        List<String> partial = rowsOf(dir.resolve("results.json"));
        assertTrue(partial.size() >= 2 && partial.size() < ROWS, partial.size() + " rows");
        assertTrue(Files.readString(log).contains("incomplete: interrupted after " + partial.size() + " rows"));
    }

    @Test
    void aKilledSweepKeepsItsJournalAndResumesToTheSameRows(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("out");
        Process child = startAndWaitForRows(dir, tmp.resolve("child.log"), 2);
        child.destroyForcibly();   // SIGKILL: no shutdown hook runs, the journal is all that is left
        assertTrue(child.waitFor(60, TimeUnit.SECONDS));
        assertEquals(137, child.exitValue());
        int journaled = journaledRows(dir.resolve(OutputFolder.JOURNAL_FILE));
        assertTrue(journaled >= 2 && journaled < ROWS, journaled + " rows journaled");

        Outcome resumed = finegrain(with(SWEEP, "--out", dir.toString(), "--resume"));
        assertEquals(0, resumed.exit(), resumed.err());
        assertEquals(ROWS - journaled, resumed.err().lines().filter(line -> line.contains(" done] ")).count(),
                "only the rows the journal lacks run again:\n" + resumed.err());
        Path whole = tmp.resolve("whole");
        assertEquals(0, finegrain(with(SWEEP, "--out", whole.toString())).exit());
        assertEquals(rowsOf(whole.resolve("results.json")), rowsOf(dir.resolve("results.json")));
    }

    @Test
    void aSecondRunOnAFolderInUseIsRefusedNamingTheHolder(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("out");
        Process child = startAndWaitForRows(dir, tmp.resolve("child.log"), 1);
        try {
            Outcome second = finegrain(with(SWEEP, "--out", dir.toString()));
            assertEquals(2, second.exit(), second.err());
            assertTrue(second.err().contains("output folder " + dir + " is in use by another finegrain run (pid "
                    + child.pid() + ": finegrain compare nw"), second.err());
            assertEquals(1, second.err().lines().count(), second.err());
        } finally {
            child.destroyForcibly();
            child.waitFor(60, TimeUnit.SECONDS);
        }
    }

    @Test
    void aMistakeInTheRequestLeavesAnEarlierRunsFolderAsItWas(@TempDir Path tmp) throws IOException {
        Path dir = tmp.resolve("out");
        assertEquals(0, finegrain("compare", "nw", "--backends", "reference", "--sizes", "16", "--out", dir.toString()).exit());
        String results = Files.readString(dir.resolve("results.json"));
        String journal = Files.readString(dir.resolve(OutputFolder.JOURNAL_FILE));
        Outcome mistake = finegrain("compare", "nw", "--backends", "reference", "--schedules", "wavefront", "--mechanisms",
                "tiny-lock", "--out", dir.toString());
        assertEquals(2, mistake.exit(), mistake.err());
        assertEquals(results, Files.readString(dir.resolve("results.json")));
        assertEquals(journal, Files.readString(dir.resolve(OutputFolder.JOURNAL_FILE)));
        assertTrue(Files.exists(dir.resolve(OutputFolder.COMPLETE_FILE)), "still the finished run it was");
    }

    @Test
    void aTornLastLineIsCutOffAndEveryLaterResumeStillWorks(@TempDir Path tmp) throws IOException {
        Path dir = tmp.resolve("out");
        String[] small = {"compare", "nw", "--backends", "reference", "--sizes", "16,24", "--jobs", "1", "--out", dir.toString()};
        assertEquals(0, finegrain(small).exit());
        Path journal = dir.resolve(OutputFolder.JOURNAL_FILE);
        List<String> lines = Files.readAllLines(journal);
        // a kill while the last row was written: its line half there, no newline
        Files.writeString(journal, String.join("\n", lines.subList(0, lines.size() - 1)) + "\n"
                + lines.getLast().substring(0, 40));
        Outcome first = finegrain(with(small, "--resume"));
        assertEquals(0, first.exit(), first.err());
        assertTrue(first.err().contains("1 torn line(s) left out, their rows run again"), first.err());
        Outcome second = finegrain(with(small, "--resume"));
        assertEquals(0, second.exit(), second.err());
        assertTrue(second.err().contains("note: resuming: the " + (lines.size() - 1) + " rows in "), second.err());   // header + rows
        assertTrue(!second.err().contains("torn"), "the torn line was cut off before the first resume appended: " + second.err());
    }

    @Test
    void resumingAnotherSweepsJournalIsRefused(@TempDir Path tmp) {
        Path dir = tmp.resolve("out");
        assertEquals(0, finegrain("compare", "nw", "--backends", "reference", "--sizes", "16", "--out", dir.toString()).exit());
        Outcome other = finegrain("compare", "nw", "--backends", "reference", "--sizes", "24", "--out", dir.toString(),
                "--resume");
        assertEquals(2, other.exit());
        assertTrue(other.err().startsWith("finegrain: the journal in " + dir + " is of another sweep"), other.err());
    }

    @Test
    void aRefusedSecondRunInThisProcessLeavesTheFirstItsLock(@TempDir Path tmp) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("out"));
        try (OutputFolder held = OutputFolder.take(dir, "finegrain compare nw (the first)")) {
            Outcome second = finegrain(with(SWEEP, "--out", dir.toString()));
            assertEquals(2, second.exit());
            assertTrue(second.err().contains("(pid " + ProcessHandle.current().pid() + ": finegrain compare nw (the first))"),
                    second.err());
            // another process still finds the folder locked: the refusal closed no channel of the holder's file
            Process child = CliChild.process(with(SWEEP, "--out", dir.toString())).redirectErrorStream(true).start();
            String output = new String(child.getInputStream().readAllBytes());
            assertTrue(child.waitFor(60, TimeUnit.SECONDS));
            assertEquals(2, child.exitValue(), output);
            assertTrue(output.contains("is in use by another finegrain run"), output);
        }
    }

    @Test
    void resumeNeedsAnOutputFolder() {
        Outcome outcome = finegrain(with(SWEEP, "--resume"));
        assertEquals(2, outcome.exit());
        assertEquals("finegrain: --resume continues the sweep journaled in an --out folder; give --out DIR\n", outcome.err());
        assertFalse(outcome.out().contains("nw"));
    }
}
