package dev.finegrain.compiler.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A sweep spread over machines: N shard processes ({@code compare --shard I/N}) run disjoint rows, and {@code merge}
 * gives the rows of the unsharded sweep, in its order; shards of another sweep, a shard given twice and an unfinished
 * shard are refused with one line.
 */
class ShardedSweepTest {

    private static final String[] SWEEP = {"compare", "nw", "--backends", "reference", "--schedules",
            "wavefront,lock-dataflow,data-parallel:4", "--sizes", "16,24,32,40,12x10"};

    private record Outcome(int exit, String out, String err) {}

    private static Outcome finegrain(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = FinegrainCli.execute(CliBehaviourTest.CATALOG, new PrintWriter(out), new PrintWriter(err), args);
        return new Outcome(exit, out.toString(), err.toString());
    }

    private static String[] with(String[] args, String... more) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    /** A results.json's rows, each on its line, without the check's wall-clock time (the one thing that varies). */
    private static List<String> rowsOf(Path resultsJson) throws IOException {
        return Files.readAllLines(resultsJson, StandardCharsets.UTF_8).stream().filter(line -> line.startsWith("  {"))
                .map(line -> line.replaceAll("\"check_ms\": [0-9.]+, ", "")).toList();
    }

    @Test
    void threeShardProcessesMergeIntoTheUnshardedSweepsRows(@TempDir Path tmp) throws Exception {
        List<Process> shards = new ArrayList<>();
        for (int shard = 0; shard < 3; shard++) {
            shards.add(CliChild.process(with(SWEEP, "--shard", shard + "/3", "--out", tmp.resolve("shard" + shard).toString()))
                    .redirectErrorStream(true).redirectOutput(tmp.resolve("shard" + shard + ".log").toFile()).start());
        }
        for (int shard = 0; shard < 3; shard++) {
            assertTrue(shards.get(shard).waitFor(120, TimeUnit.SECONDS));
            assertEquals(0, shards.get(shard).exitValue(), Files.readString(tmp.resolve("shard" + shard + ".log")));
        }
        int rows0 = rowsOf(tmp.resolve("shard0/results.json")).size();
        int rows1 = rowsOf(tmp.resolve("shard1/results.json")).size();
        int rows2 = rowsOf(tmp.resolve("shard2/results.json")).size();
        Outcome merged = finegrain("merge", tmp.resolve("shard2").toString(), tmp.resolve("shard0").toString(),
                tmp.resolve("shard1").toString(), "--out", tmp.resolve("merged").toString());
        assertEquals(0, merged.exit(), merged.err());
        Outcome whole = finegrain(with(SWEEP, "--out", tmp.resolve("whole").toString()));
        assertEquals(0, whole.exit(), whole.err());
        List<String> expected = rowsOf(tmp.resolve("whole/results.json"));
        assertEquals(expected.size(), rows0 + rows1 + rows2, "the shards run disjoint rows that cover the sweep");
        assertTrue(rows0 > 0 && rows1 > 0 && rows2 > 0);
        assertEquals(expected, rowsOf(tmp.resolve("merged/results.json")));
        assertEquals(whole.out().lines().filter(line -> line.startsWith("nw ")).map(ShardedSweepTest::withoutMillis).toList(),
                merged.out().lines().filter(line -> line.startsWith("nw ")).map(ShardedSweepTest::withoutMillis).toList());
    }

    /**
     * A table line's cells but the last three, the row's times in ms (median, fastest and slowest run: the one thing that
     * varies), whose width pads the others.
     */
    private static List<String> withoutMillis(String tableLine) {
        List<String> cells = List.of(tableLine.strip().split("\\s+"));
        return cells.subList(0, cells.size() - 3);
    }

    @Test
    void shardsOfAnotherSweepAShardGivenTwiceAndAnUnfinishedShardAreRefused(@TempDir Path tmp) throws IOException {
        assertEquals(0, finegrain(with(SWEEP, "--shard", "0/2", "--out", tmp.resolve("a0").toString())).exit());
        assertEquals(0, finegrain(with(SWEEP, "--seed", "7", "--shard", "1/2", "--out", tmp.resolve("b1").toString())).exit());
        Outcome mixed = finegrain("merge", tmp.resolve("a0").toString(), tmp.resolve("b1").toString());
        assertEquals(FinegrainCli.EXIT_USAGE, mixed.exit());
        assertTrue(mixed.err().startsWith("finegrain: " + tmp.resolve("b1") + " holds rows of another sweep ("), mixed.err());
        assertEquals(1, mixed.err().lines().count(), mixed.err());

        Outcome twice = finegrain("merge", tmp.resolve("a0").toString(), tmp.resolve("a0").toString());
        assertEquals(FinegrainCli.EXIT_USAGE, twice.exit());
        assertTrue(twice.err().contains("is in both " + tmp.resolve("a0") + " and " + tmp.resolve("a0") + ": one shard given"
                + " twice?"), twice.err());

        Path unfinished = Files.createDirectories(tmp.resolve("c1"));
        Files.writeString(unfinished.resolve("rows.jsonl"), "");
        Outcome killed = finegrain("merge", tmp.resolve("a0").toString(), unfinished.toString());
        assertEquals(FinegrainCli.EXIT_USAGE, killed.exit());
        assertTrue(killed.err().contains(unfinished + " is a shard that did not finish"), killed.err());

        Path interrupted = Files.createDirectories(tmp.resolve("d1"));   // what SIGTERM leaves: results written, no mark
        Files.copy(tmp.resolve("a0/results.json"), interrupted.resolve("results.json"));
        Files.copy(tmp.resolve("a0/rows.jsonl"), interrupted.resolve("rows.jsonl"));
        Outcome stopped = finegrain("merge", interrupted.toString());
        assertEquals(FinegrainCli.EXIT_USAGE, stopped.exit());
        assertTrue(stopped.err().contains(interrupted + " is a shard that did not finish"), stopped.err());

        Outcome half = finegrain("merge", tmp.resolve("a0").toString());
        assertEquals(FinegrainCli.EXIT_NOT_VERIFIED, half.exit(), "a merge that lacks shards is not a whole sweep");
        assertTrue(half.err().contains("note: incomplete: "), half.err());
    }

    @Test
    void aShardOutsideItsCountIsAOneLineMistake() {
        Outcome outcome = finegrain(with(SWEEP, "--shard", "3/3"));
        assertEquals(FinegrainCli.EXIT_USAGE, outcome.exit());
        assertEquals("finegrain: --shard takes I/N with 0 <= I < N, e.g. --shard 0/4 for the first of four, not '3/3'\n",
                outcome.err());
    }
}
