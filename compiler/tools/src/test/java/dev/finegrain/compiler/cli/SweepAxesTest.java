package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.compare.ImportedRows;
import dev.finegrain.compiler.compare.KernelCatalog;
import dev.finegrain.compiler.compare.ResultRow;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LibraryKernel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;

import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.kernel;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code compare} over every axis: params, thread counts, granularities, channel policies and model profile keys. */
class SweepAxesTest {

    /** A chain whose links add k times their input: the param changes every output after the first. */
    private static final Kernel SCALED_CHAIN = kernel("scaled-chain")
            .domain(dim("i", "n"))
            .param("k", INT)
            .input("x", INT)
            .state("a", INT, boundary(constant(0)))
            .actor("link", "a", a -> a.read("a", -1).plus(a.read("x", 0).times(a.param("k"))))
            .build();

    private static final KernelCatalog CATALOG = KernelCatalog.of(List.of(new LibraryKernel(SCALED_CHAIN,
            "a chain scaled by k", "Each link adds k times its input to the link before it.",
            (kernel, sizes, seed) -> kernel.invocation().sizes(sizes).param("k", 1)
                    .input("x", IntStream.range(0, sizes[0]).map(i -> i % 7).toArray()).build(),
            List.of(new int[] {64}))));

    private record Outcome(int exit, String out, String err) {}

    private static Outcome finegrain(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = FinegrainCli.execute(CATALOG, new PrintWriter(out), new PrintWriter(err), args);
        return new Outcome(exit, out.toString(), err.toString());
    }

    private static List<ResultRow> rows(Path dir) {
        return ImportedRows.read(dir.resolve("results.json"));
    }

    @Test
    void aParamSweepRunsEachValueAgainstItsOwnOracleAndEachRowNamesIt(@TempDir Path dir) {
        Outcome compare = finegrain("compare", "scaled-chain", "--params", "k=1,3", "--backends", "reference,jvm",
                "--schedules", "lock-dataflow", "--mechanisms", "acquire-release", "--threads", "2", "--quick",
                "--out", dir.toString());
        assertEquals(0, compare.exit(), compare.err());
        List<ResultRow> rows = rows(dir);
        assertEquals(List.of("reference 1", "jvm 1", "reference 3", "jvm 3"),
                rows.stream().map(r -> r.backend() + " " + r.details().get("axis_k")).toList());
        assertTrue(rows.stream().allMatch(ResultRow::verified), compare.out());
        assertTrue(!rows.get(1).details().get("outputs_digest").equals(rows.get(3).details().get("outputs_digest")),
                "k=3 is checked against an oracle run with k=3, not k=1");
        assertTrue(compare.out().lines().findFirst().orElseThrow().contains("channels  k  "), compare.out());
    }

    @Test
    void threadCountsMultiplyOnlyTheRowsOfBackendsOnThreads() {
        Outcome compare = finegrain("compare", "scaled-chain", "--threads", "1,2", "--backends", "reference,jvm",
                "--schedules", "lock-dataflow", "--mechanisms", "acquire-release,atomic-spin-lock", "--quick", "--format", "csv");
        assertEquals(0, compare.exit(), compare.err());
        List<String> lines = compare.out().lines().toList();
        assertTrue(lines.getFirst().startsWith("kernel,size,schedule,backend,mechanism,granularity,channels,threads,"), lines.getFirst());
        assertEquals(List.of("reference -", "jvm 1", "jvm 2", "jvm 1", "jvm 2"),
                lines.stream().skip(1).map(line -> line.split(",")[3] + " " + line.split(",")[7]).toList());
    }

    @Test
    void granularitiesAndChannelPoliciesMultiplyTheLockDataflowSchedulesOnly() {
        Outcome compare = finegrain("compare", "scaled-chain", "--granularity", "per-thread,warp-shared:8",
                "--channels", "shared,private", "--backends", "jvm", "--schedules", "wavefront,lock-dataflow",
                "--mechanisms", "acquire-release", "--quick", "--format", "csv");
        assertEquals(0, compare.exit(), compare.err());
        assertEquals(List.of("wavefront per-thread shared verified", "lock-dataflow per-thread shared verified",
                        "lock-dataflow per-thread private verified", "lock-dataflow warp-shared:8 shared verified",
                        "lock-dataflow warp-shared:8 private verified"),
                compare.out().lines().skip(1).map(line -> String.join(" ", line.split(",")[2], line.split(",")[5],
                        line.split(",")[6], line.split(",")[7])).toList());
    }

    @Test
    void waitPoliciesRunOnTheJvmAndNapOnlyWhereTheGpuHasNanosleep() {
        Outcome compare = finegrain("compare", "scaled-chain", "--wait-policy", "adaptive,spin,backoff,sleep", "--threads", "2",
                "--backends", "jvm,gpu-model:fermi-gtx570", "--schedules", "lock-dataflow:interleaved,lock-dataflow",
                "--mechanisms", "acquire-release", "--quick", "--format", "csv");
        assertEquals(0, compare.exit(), compare.err());
        List<String[]> rows = compare.out().lines().skip(1).map(line -> line.split(",")).toList();
        assertTrue(compare.out().lines().findFirst().orElseThrow().contains(",channels,wait,"), compare.out());
        assertEquals(List.of("adaptive verified", "spin verified", "backoff verified", "sleep verified"), rows.stream()
                .filter(r -> r[2].equals("lock-dataflow:interleaved") && r[3].equals("jvm")).map(r -> r[7] + " " + r[8]).toList());
        // on a GPU spin is what adaptive does (left out with a note); napping needs nanosleep, which Fermi lacks
        assertEquals(List.of("adaptive verified", "backoff skipped", "sleep skipped"), rows.stream()
                .filter(r -> r[3].startsWith("gpu-model")).map(r -> r[7] + " " + r[8]).toList());
        assertTrue(compare.out().contains("wait policy backoff naps with nanosleep, which profile fermi-gtx570 does not"
                + " have"), compare.out());
        assertTrue(compare.err().contains("on a GPU the adaptive wait spins: wait policy spin repeats it"), compare.err());
    }

    @Test
    void mutexesApplyToTheSpinLocksOnly() {
        Outcome compare = finegrain("compare", "scaled-chain", "--mutex", "ttas,tas,ticket", "--threads", "2", "--backends",
                "jvm", "--schedules", "lock-dataflow:interleaved", "--mechanisms", "atomic-spin-lock,acquire-release",
                "--quick", "--format", "csv");
        assertEquals(0, compare.exit(), compare.err());
        assertEquals(List.of("atomic-spin-lock ttas verified", "acquire-release ttas verified", "atomic-spin-lock tas verified",
                        "acquire-release tas skipped", "atomic-spin-lock ticket verified", "acquire-release ticket skipped"),
                compare.out().lines().skip(1).map(line -> line.split(",")).map(r -> r[4] + " " + r[7] + " " + r[8]).toList());
        assertTrue(compare.out().contains("acquire-release holds no lock, so mutex tas does not apply to it"), compare.out());
    }

    @Test
    void aProfileKeySweepRunsOneModelBackendPerValueAndNamesTheKey() {
        Outcome compare = finegrain("compare", "scaled-chain", "--sizes", "64", "--backends", "gpu-model:fermi-gtx570",
                "--profile-set", "latency.global=200,800", "--schedules", "lock-dataflow", "--mechanisms", "atomic-spin-lock",
                "--quick", "--format", "csv");
        assertEquals(0, compare.exit(), compare.err());
        List<String[]> rows = compare.out().lines().skip(1).map(line -> line.split(",")).toList();
        assertEquals(List.of("gpu-model:fermi-gtx570@latency.global=200 200", "gpu-model:fermi-gtx570@latency.global=800 800"),
                rows.stream().map(r -> r[3] + " " + r[7]).toList());
        assertTrue(Double.parseDouble(rows.get(1)[10]) > Double.parseDouble(rows.get(0)[10]),
                "a slower global memory costs the atomic lock more cycles: " + compare.out());
    }

    @Test
    void theReportChartsAgainstAnAxis(@TempDir Path dir) throws Exception {
        Outcome compare = finegrain("compare", "scaled-chain", "--params", "k=1,2,3", "--backends", "reference",
                "--schedules", "lock-dataflow", "--quick", "--out", dir.toString(), "--x", "k");
        assertEquals(0, compare.exit(), compare.err());
        String page = Files.readString(dir.resolve("report.html"));
        assertTrue(page.contains("title=\"critical path on reference against k\""), "a chart over k");
        assertTrue(page.contains("\"xTitle\":\"k\""), "its values by k");
    }

    @Test
    void crossoverPrintsEveryProbeAndTheInterval() {
        Outcome crossover = finegrain("crossover", "scaled-chain", "--between", "lock-dataflow/gpu-model:fermi-gtx570/tiny-lock",
                "--and", "lock-dataflow/gpu-model:fermi-gtx570/atomic-spin-lock", "--from", "32", "--to", "256", "--step", "32");
        assertEquals(0, crossover.exit(), crossover.err());
        List<String> lines = crossover.out().lines().toList();
        assertEquals("A = lock-dataflow/gpu-model:fermi-gtx570/tiny-lock", lines.get(0));
        assertEquals("B = lock-dataflow/gpu-model:fermi-gtx570/atomic-spin-lock", lines.get(1));
        assertTrue(lines.get(2).startsWith("size        A "), lines.get(2));
        assertTrue(lines.get(3).startsWith("32 ") && lines.get(3).contains("ms (modelled)"), lines.get(3));
        // the model is deterministic: tiny-lock's lock bits beat the atomic lock at every size of the range
        assertEquals("no crossover between 32 and 256: A is faster at both ends", lines.getLast());
        Outcome wrong = finegrain("crossover", "scaled-chain", "--between", "wavefront/jvm/tiny-lock", "--and",
                "lock-dataflow/jvm", "--from", "8", "--to", "64");
        assertEquals(2, wrong.exit());
        assertEquals("finegrain: --between 'wavefront/jvm/tiny-lock': wavefront synchronises with barriers only and takes no"
                + " lock mechanism; drop the mechanism", wrong.err().strip());
        Outcome axis = finegrain("crossover", "scaled-chain", "--axis", "work", "--between", "lock-dataflow/jvm", "--and",
                "wavefront/jvm", "--from", "1", "--to", "8");
        assertEquals("finegrain: --axis work: kernel 'scaled-chain' has no such param; use size or one of: k", axis.err().strip());
    }

    @Test
    void breakevenGivesOnePointPerMechanismAndWritesItsPage(@TempDir Path dir) throws Exception {
        Path page = dir.resolve("breakeven.md");
        Outcome breakeven = finegrain("breakeven", "scaled-chain", "--param", "k", "--from", "1", "--to", "3", "--size", "64",
                "--repeats", "1", "--mechanisms", "acquire-release,warp-vote", "--doc", page.toString());
        assertEquals(1, breakeven.exit(), "warp-vote has no JVM form, so one row is not run: " + breakeven.err());
        List<String> lines = breakeven.out().lines().toList();
        assertEquals("| mechanism | break-even (k) | below: threaded / single | at it: threaded / single | beyond the runs' spread |",
                lines.getFirst());
        assertTrue(lines.get(2).startsWith("| acquire-release | "), lines.get(2));
        assertTrue(lines.get(3).startsWith("| warp-vote | not run: lock-dataflow:interleaved/jvm/warp-vote/threads=2 at k 1"),
                lines.get(3));
        String written = Files.readString(page);
        assertTrue(written.contains("## The seed's points") && written.contains(lines.get(2)), written);
        Outcome model = finegrain("breakeven", "scaled-chain", "--param", "k", "--from", "1", "--to", "2", "--size", "64",
                "--backends", "gpu-model:fermi-gtx570", "--mechanisms", "tiny-lock");
        assertEquals(0, model.exit(), model.err());
        assertTrue(model.out().contains("single-thread: `data-parallel:64/gpu-model:fermi-gtx570`"), model.out());
        assertTrue(model.out().contains("| tiny-lock | "), model.out());
        Outcome reference = finegrain("breakeven", "scaled-chain", "--param", "k", "--backends", "reference");
        assertEquals("finegrain: backend 'reference' counts firings, with no cost for a synchronisation; breakeven needs a"
                + " timed or modelled backend (jvm, gpu-model:PROFILE, cuda)", reference.err().strip());
    }

    /**
     * The break-even from rows run elsewhere: rows of a compare over the param (here the model's, standing in for an
     * exported bundle's) read back, checked against the oracle with each row's own param value, and read on the grid.
     */
    @Test
    void breakevenReadsAGridOfRowsRunElsewhere(@TempDir Path dir) {
        Outcome compare = finegrain("compare", "scaled-chain", "--sizes", "64", "--params", "k=1,2,3", "--backends",
                "gpu-model:fermi-gtx570", "--schedules", "lock-dataflow,data-parallel:64", "--mechanisms", "tiny-lock",
                "--quick", "--out", dir.toString());
        assertEquals(0, compare.exit(), compare.err());
        Path two = dir.resolve("two");
        Outcome other = finegrain("compare", "scaled-chain", "--sizes", "32", "--params", "k=1,2,3", "--backends",
                "gpu-model:fermi-gtx570", "--schedules", "lock-dataflow,data-parallel:32", "--mechanisms", "tiny-lock",
                "--quick", "--out", two.toString());
        assertEquals(0, other.exit(), other.err());
        Path page = dir.resolve("new-page.md");
        Outcome breakeven = finegrain("breakeven", "scaled-chain", "--param", "k", "--results",
                dir.resolve("results.json") + "," + two.resolve("results.json"), "--doc", page.toString());
        assertEquals(0, breakeven.exit(), breakeven.err());
        assertTrue(breakeven.out().contains("### gpu-model:fermi-gtx570, size 64, seed 42")
                && breakeven.out().contains("### gpu-model:fermi-gtx570, size 32, seed 42"), "one group per size: " + breakeven.out());
        String written = assertDoesNotThrowRead(page);
        assertTrue(written.contains("## Measured on a real GPU") && written.contains("## The seed's points"), written);
        assertTrue(breakeven.out().contains("single-thread: `data-parallel:64/gpu-model:fermi-gtx570`"), breakeven.out());
        assertTrue(breakeven.out().lines().anyMatch(line -> line.startsWith("| tiny-lock | ") && !line.contains("not run")),
                breakeven.out());
    }

    private static String assertDoesNotThrowRead(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException unreadable) {
            throw new AssertionError(unreadable);
        }
    }

    @Test
    void aMechanismThatFixesAnAxisGivesOneRowNotTwoAndChartsKeepVariantsApart(@TempDir Path dir) throws Exception {
        Outcome compare = finegrain("compare", "scaled-chain", "--granularity", "per-thread,warp-shared", "--backends", "jvm",
                "--schedules", "lock-dataflow", "--mechanisms", "shared-spin-lock,acquire-release", "--quick", "--format", "csv",
                "--out", dir.toString());
        assertEquals(0, compare.exit(), compare.err());
        assertEquals(List.of("shared-spin-lock warp-shared", "acquire-release per-thread", "acquire-release warp-shared"),
                compare.out().lines().skip(1).map(line -> line.split(",")[4] + " " + line.split(",")[5]).toList());
        assertTrue(compare.err().contains("note: 1 combination(s) left out as repeats of another row"), compare.err());
        String page = Files.readString(dir.resolve("report.html"));
        assertTrue(page.contains("\"name\":\"lock-dataflow / acquire-release / per-thread\"")
                && page.contains("\"name\":\"lock-dataflow / acquire-release / warp-shared\""), "a series per granularity");
    }

    @Test
    void mistakesInAxesAreOneLineEach() {
        assertAll(
                () -> refused("kernel 'scaled-chain' has no param 'work'; its params: k", "--params", "work=1,2"),
                () -> refused("--params k: 'x' is not an int, which param 'k' is declared as", "--params", "k=1,x"),
                () -> refused("--params k '1,,2' has an empty entry; separate values with single commas", "--params", "k=1,,2"),
                () -> refused("--granularity 'warp-shared:0' is not a granularity; use per-thread, warp-shared (a warp of 32)"
                        + " or warp-shared:N with N from 1 to 1024", "--granularity", "warp-shared:0"),
                () -> refused("--channels 'open' is not a channel policy; use shared or private", "--channels", "open"),
                () -> refused("--profile-set varies a gpu-model profile, and no gpu-model backend is asked for; add e.g."
                        + " --backends gpu-model:fermi-gtx570", "--profile-set", "sm.lockBits=1,2", "--backends", "reference"),
                () -> refused("--x work is not an axis of this sweep; its axes: size, k", "--params", "k=1,2", "--x", "work",
                        "--out", Files.createTempDirectory("axes").toString()),
                () -> refused("--threads 'two' is not a number; use 1 to 1024, or a list such as 1,2", "--threads", "two"),
                () -> refused("--wait-policy 'nap' is not a wait policy; use adaptive, spin, backoff, sleep", "--wait-policy", "nap"),
                () -> refused("--threads '2,02' repeats a count; give each once", "--threads", "2,02"),
                () -> refused("--params k repeats a value (1,01); give each once", "--params", "k=1,01"));
        Outcome badKey = finegrain("compare", "scaled-chain", "--backends", "gpu-model:fermi-gtx570", "--profile-set",
                "sm.lockBitz=1,2", "--quick");
        assertEquals(2, badKey.exit());
        assertTrue(badKey.err().startsWith("finegrain: backend 'gpu-model:fermi-gtx570@sm.lockBitz=1': profile fermi-gtx570"
                + " has no key 'sm.lockBitz' to set; its keys: "), badKey.err());
        Outcome run = finegrain("run", "scaled-chain", "--size", "64", "--threads", "1,2");
        assertEquals(2, run.exit());
        assertEquals("finegrain: run runs one row: give one --threads value (compare runs a list of them)", run.err().strip());
    }

    private static void refused(String message, String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "compare";
        all[1] = "scaled-chain";
        System.arraycopy(args, 0, all, 2, args.length);
        Outcome outcome = finegrain(all);
        assertEquals(2, outcome.exit(), outcome.err());
        assertEquals("finegrain: " + message, outcome.err().strip());
    }
}
