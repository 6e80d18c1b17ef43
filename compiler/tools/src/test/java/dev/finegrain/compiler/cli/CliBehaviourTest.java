package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.json.Json;
import dev.finegrain.compiler.compare.Backends;
import dev.finegrain.compiler.compare.ComparisonRequest;
import dev.finegrain.compiler.compare.ComparisonRunner;
import dev.finegrain.compiler.compare.MechanismChoice;
import dev.finegrain.compiler.compare.KernelCatalog;
import dev.finegrain.compiler.compare.ResultFormat;
import dev.finegrain.compiler.ir.IrPrinter;
import dev.finegrain.compiler.pass.GoldenKernels;
import dev.finegrain.compiler.pass.Pass;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.compare.PrefixSumEntry;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LibraryKernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.LONG;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.param;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a user sees from {@code finegrain}: the output of each subcommand, exit codes, and one-line usage errors. */
class CliBehaviourTest {

    private static final Kernel NW = GoldenKernels.needlemanWunsch();

    /** No inputs at all, so nothing but the compiler and the backend touches the size. */
    private static final Kernel PASCAL = kernel("pascal")
            .domain(dim("i", "rows"), dim("j", "cols"))
            .state("c", LONG, boundary(constant(1L)))
            .actor("sum", "c", a -> a.read("c", -1, 0).plus(a.read("c", 0, -1)))
            .build();

    /** Seed 001's validation chain in small: element i waits for element i-32, one warp earlier. */
    private static final Kernel WARP_CHAIN = kernel("warp-chain")
            .domain(dim("i", "n"))
            .input("x", INT)
            .state("a", INT, boundary(constant(0)))
            .actor("add", "a", a -> a.read("a", -32).plus(a.read("x", 0)))
            .build();
    /** The same with one token per warp: tiny-lock in its warp-shared form, the warp vote. */
    private static final Kernel WARP_SHARED_CHAIN = kernel("warp-shared-chain")
            .domain(dim("i", "n"))
            .input("x", INT)
            .state("a", INT, boundary(constant(0)))
            .actor("add", "a", a -> a.read("a", -32).plus(a.read("x", 0)))
            .warpShared(32)
            .build();

    static final KernelCatalog CATALOG = KernelCatalog.of(List.of(
            new LibraryKernel(NW, "global alignment scores with a gap penalty",
                    "Each cell takes the best of its north-west neighbour plus a substitution score, or its north or west "
                            + "neighbour minus the penalty.",
                    CliBehaviourTest::nwInputs, List.of(new int[] {16, 16})),
            new LibraryKernel(PASCAL, "binomial coefficients by Pascal's rule",
                    "Each cell is the sum of its north and west neighbours, ones along the edges.",
                    (kernel, sizes, seed) -> kernel.invocation().sizes(sizes).build(), List.of(new int[] {8, 8})),
            PrefixSumEntry.ENTRY,
            new LibraryKernel(WARP_CHAIN, "a chain with a stride of one warp", "Each element adds an input to the element 32 before it.",
                    (kernel, sizes, seed) -> kernel.invocation().sizes(sizes).input("x", new Random(seed).ints(sizes[0], 0, 100).toArray())
                            .build(), List.of(new int[] {128})),
            new LibraryKernel(WARP_SHARED_CHAIN, "a chain with a stride of one warp, one token per warp",
                    "Each element adds an input to the element 32 before it.",
                    (kernel, sizes, seed) -> kernel.invocation().sizes(sizes).input("x", new Random(seed).ints(sizes[0], 0, 100).toArray())
                            .build(), List.of(new int[] {128}))));

    private record Outcome(int exit, String out, String err) {}

    private static Outcome finegrain(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = FinegrainCli.execute(CATALOG, new PrintWriter(out), new PrintWriter(err), args);
        return new Outcome(exit, out.toString(), err.toString());
    }

    // ---- list, show ----------------------------------------------------------------------------------------

    @Test
    void listPrintsEveryKernelWithItsSummaryOnOneLine() {
        Outcome list = finegrain("list");
        assertEquals(0, list.exit(), list.err());
        for (LibraryKernel entry : CATALOG.kernels()) {
            assertTrue(list.out().lines().anyMatch(line -> line.startsWith(entry.name() + " ") && line.endsWith("  " + entry.summary())),
                    entry.name() + " with its summary in:\n" + list.out());
        }
        assertTrue(list.out().contains("ones along the edges."), "descriptions are printed too:\n" + list.out());
    }

    /** {@code show --java --sizes}: a size the tiles do not divide shows the class that runs it, its edge tiles cut short. */
    @Test
    void showJavaShowsTheClassOfTheSizeGiven() {
        Outcome ragged = finegrain("show", "nw", "--java", "--schedule", "data-parallel:8", "--sizes", "20x12");
        assertEquals(0, ragged.exit(), ragged.err());
        assertTrue(ragged.out().contains("public final class NwDataParallel8x8RaggedTiles"), ragged.out());
        Outcome whole = finegrain("show", "nw", "--java", "--schedule", "data-parallel:8", "--sizes", "16x24");
        assertEquals(0, whole.exit(), whole.err());
        assertTrue(whole.out().contains("public final class NwDataParallel8x8 ") && !whole.out().contains("RaggedTiles"), whole.out());
    }

    @Test
    void showIrPrintsTheIrAfterAllPasses() {
        Outcome show = finegrain("show", "nw", "--ir");
        assertEquals(0, show.exit(), show.err());
        assertEquals(IrPrinter.print(Pipeline.compile(NW)), show.out());
        assertTrue(show.out().contains("channel #0 cell -> cell (1,1) via score[i-1, j-1], shared, implied by #1 + #2"), show.out());
    }

    @Test
    void showPassesPrintsOneSectionPerPassInPipelineOrder() {
        Outcome show = finegrain("show", "pascal", "--passes");
        assertEquals(0, show.exit(), show.err());
        List<String> sections = show.out().lines().filter(line -> line.startsWith("--- after ")).toList();
        List<String> expected = new ArrayList<>(List.of("--- after lower-spec-to-graph ---"));
        Pipeline.STANDARD.stream().map(Pass::name).forEach(name -> expected.add("--- after " + name + " ---"));
        assertEquals(expected, sections);
        assertTrue(show.out().endsWith(IrPrinter.print(Pipeline.compile(PASCAL))), "the last section is the final IR:\n" + show.out());
    }

    @Test
    void showWithAScheduleAlsoPrintsItsPlan() {
        Outcome show = finegrain("show", "nw", "--schedule", "lock-dataflow");
        assertEquals(0, show.exit(), show.err());
        assertTrue(show.out().contains("plan: lock-dataflow: every actor instance fires once its channels hold tokens\n"
                + "  sync: cell waits for cell (1,0) via score[i-1, j], shared channel\n"
                + "  sync: cell waits for cell (0,1) via score[i, j-1], shared channel\n"
                + "  no sync: score[i-1, j-1] is implied by other channels\n"), show.out());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cudaUnits")
    void aCudaUnitsHeaderNamesTheCommandThatPrintsItAgain(String variant, List<String> args) {
        Outcome first = finegrain(args.toArray(String[]::new));
        assertEquals(0, first.exit(), first.err());
        String header = first.out().lines().skip(1).findFirst().orElseThrow();
        String command = header.replaceFirst("^// Generated by Finegrain from the kernel's IR: finegrain ", "")
                .replaceFirst("\\. The GPU mapping:$", "");
        Outcome again = finegrain(command.split(" "));
        assertEquals(0, again.exit(), command + ": " + again.err());
        assertEquals(first.out(), again.out(), command);
    }

    static Stream<Arguments> cudaUnits() {
        return Stream.of(
                Arguments.of("bands", List.of("show", "nw", "--cuda", "--schedule", "lock-dataflow:persistent:columns=2",
                        "--mechanism", "acquire-release", "--sizes", "70x90")),
                Arguments.of("a wavefront's barrier and wait", List.of("show", "nw", "--cuda", "--schedule", "wavefront:xf",
                        "--wait-policy", "backoff", "--sizes", "2048", "--arch", "sm_80")),
                Arguments.of("a mutex", List.of("show", "nw", "--cuda", "--schedule", "lock-dataflow", "--mechanism",
                        "atomic-spin-lock", "--mutex", "ticket", "--arch", "sm_90a")),
                Arguments.of("tiles", List.of("show", "nw", "--cuda", "--schedule", "data-parallel:16", "--sizes", "40x33",
                        "--arch", "sm_120")),
                Arguments.of("warp-shared locks the kernel declares", List.of("show", WARP_SHARED_CHAIN.name(), "--cuda",
                        "--schedule", "lock-dataflow", "--mechanism", "tiny-lock")));
    }

    // ---- run -----------------------------------------------------------------------------------------------

    @Test
    void runPrintsOneVerifiedTableRow() {
        Outcome run = finegrain("run", "nw", "--size", "8", "--schedule", "wavefront", "--backend", "reference");
        assertEquals(0, run.exit(), run.err());
        assertEquals("", run.err());
        List<Map<String, String>> rows = tableRows(run.out());
        assertEquals(1, rows.size(), run.out());
        Map<String, String> row = rows.getFirst();
        assertAll(
                () -> assertEquals("nw", row.get("kernel")),
                () -> assertEquals("8x8", row.get("size")),
                () -> assertEquals("wavefront", row.get("schedule")),
                () -> assertEquals("reference", row.get("backend")),
                () -> assertEquals("verified", row.get("status")),
                () -> assertEquals("15", row.get("value"), "one firing per anti-diagonal of an 8x8 grid"));
    }

    @Test
    void runAcceptsOneExtentPerDimensionAndATilePerDimension() {
        Outcome run = finegrain("run", "pascal", "--size", "4x6", "--schedule", "data-parallel:2x3");
        assertEquals(0, run.exit(), run.err());
        Map<String, String> row = tableRows(run.out()).getFirst();
        assertEquals(List.of("4x6", "data-parallel:2x3", "verified"), List.of(row.get("size"), row.get("schedule"), row.get("status")));
    }

    /** The table's rows as header-to-cell maps; every cell is one word. */
    private static List<Map<String, String>> tableRows(String table) {
        List<String> lines = table.lines().toList();
        List<String> header = List.of(lines.getFirst().trim().split("\\s+"));
        List<Map<String, String>> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            List<String> cells = List.of(line.trim().split("\\s+"));
            assertEquals(header.size(), cells.size(), "one cell per column in:\n" + table);
            Map<String, String> row = new java.util.LinkedHashMap<>();
            for (int c = 0; c < header.size(); c++) {
                row.put(header.get(c), cells.get(c));
            }
            rows.add(row);
        }
        return rows;
    }

    // ---- compare -------------------------------------------------------------------------------------------

    private static final List<String> REQUIRED_KEYS = List.of("kernel", "size", "schedule", "backend", "mechanism",
            "granularity", "channels", "status", "metric", "value", "unit");

    @Test
    void compareJsonIsAnArrayWithOneObjectPerCombination() {
        Outcome compare = finegrain("compare", "nw", "--backends", "reference", "--format", "json");
        assertEquals(0, compare.exit(), compare.err());
        List<?> rows = assertInstanceOf(List.class, Json.parse(compare.out()));
        assertEquals(4, rows.size(), "default size 16x16 times the four default schedules the reference runs:\n" + compare.out());
        Set<Object> schedules = new java.util.HashSet<>();
        for (Object element : rows) {
            Map<?, ?> row = assertInstanceOf(Map.class, element);
            assertTrue(row.keySet().containsAll(REQUIRED_KEYS), "keys " + row.keySet());
            assertEquals("nw", row.get("kernel"));
            assertEquals("16x16", row.get("size"));
            assertEquals("reference", row.get("backend"));
            assertEquals(Boolean.TRUE, row.get("verified"), "verified is a JSON boolean");
            assertInstanceOf(Double.class, row.get("value"), "value is a JSON number");
            schedules.add(row.get("schedule"));
        }
        assertEquals(Set.of("wavefront", "lock-dataflow", "data-parallel:16x16", "dynamic-dataflow:16x16"), schedules);
    }

    /** Found in review: without --mechanism, run swept every mechanism the backend has, not one combination. */
    @Test
    void runWithoutAMechanismRunsOneRowWithTheBackendsDefault() {
        Outcome run = finegrain("run", "nw", "--size", "16", "--schedule", "lock-dataflow", "--backend", "jvm", "--quick",
                "--format", "csv");
        assertEquals(0, run.exit(), run.err());
        List<String> rows = run.out().lines().skip(1).toList();
        assertEquals(1, rows.size(), run.out());
        assertTrue(rows.getFirst().contains(",acquire-release,"), rows.getFirst());
    }

    /** Found in review: repeated arguments were merged for some lists and not others, and the progress count was off. */
    @Test
    void repeatedArgumentsRunEachCombinationOnce() {
        Outcome compare = finegrain("compare", "prefix-sum", "--sizes", "16,16", "--schedules", "wavefront,wavefront",
                "--backends", "reference,reference", "--format", "csv");
        assertEquals(0, compare.exit(), compare.err());
        assertEquals(2, compare.out().lines().count(), "a header and one row:\n" + compare.out());
        Outcome sameTile = finegrain("compare", "nw", "--sizes", "16", "--schedules", "data-parallel:4,data-parallel:4x4",
                "--backends", "reference", "--format", "csv");
        assertEquals(0, sameTile.exit(), sameTile.err());
        assertEquals(2, sameTile.out().lines().count(), "one schedule spelled two ways is one row:\n" + sameTile.out());
    }

    @Test
    void compareCsvHasAHeaderAndOneLinePerCombination() {
        Outcome compare = finegrain("compare", "prefix-sum", "--sizes", "8,12", "--schedules",
                "wavefront,lock-dataflow,data-parallel:4", "--backends", "reference", "--format", "csv");
        assertEquals(0, compare.exit(), compare.err());
        List<String> lines = compare.out().lines().toList();
        List<String> header = List.of(lines.getFirst().split(",", -1));
        assertEquals(REQUIRED_KEYS, header.subList(0, REQUIRED_KEYS.size()), "header " + header);
        assertEquals(1 + 2 * 3, lines.size(), compare.out());
        Set<String> combinations = new java.util.HashSet<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split(",", -1);
            assertEquals(header.size(), cells.length, line);
            assertEquals("verified", cells[header.indexOf("status")], line);
            combinations.add(cells[header.indexOf("size")] + " " + cells[header.indexOf("schedule")]);
        }
        assertEquals(Set.of("8 wavefront", "8 lock-dataflow", "8 data-parallel:4", "12 wavefront", "12 lock-dataflow",
                "12 data-parallel:4"), combinations);
    }

    // ---- compare --out -------------------------------------------------------------------------------------

    @Test
    void compareWithOutWritesTheThreeFilesAndThePageStatesTheCommand(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("new/report");
        Outcome compare = finegrain("compare", "prefix-sum", "--sizes", "8,32", "--schedules", "wavefront,lock-dataflow",
                "--backends", "reference", "--quick", "--out", out.toString());
        assertEquals(0, compare.exit(), compare.err());
        assertEquals("report: " + out.resolve("report.html"), compare.err().lines().toList().getLast(), compare.err());
        String page = Files.readString(out.resolve("report.html"));
        assertTrue(page.contains("<code>finegrain compare prefix-sum --sizes 8,32 --schedules wavefront,lock-dataflow "
                + "--backends reference --quick --out " + out + "</code>"), page);
        assertTrue(page.contains(LocalDate.now().toString()) || page.contains(LocalDate.now().minusDays(1).toString()), "today's date");
        assertEquals(5, Files.readString(out.resolve("results.csv")).lines().count(), "header and four rows");
        assertEquals(4, ((List<?>) Json.parse(Files.readString(out.resolve("results.json")))).size());
    }

    @Test
    void anOutFolderThatCannotBeCreatedIsAOneLineUsageErrorNamingIt(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("not-a-folder"), "x");
        Outcome compare = finegrain("compare", "prefix-sum", "--sizes", "8", "--backends", "reference", "--quick",
                "--out", file.toString());
        assertAll(
                () -> assertEquals(FinegrainCli.EXIT_USAGE, compare.exit(), compare.err()),
                () -> assertEquals(1, compare.err().lines().count(), compare.err()),
                () -> assertTrue(compare.err().startsWith("finegrain: cannot create report folder " + file + ": "), compare.err()),
                () -> assertFalse(compare.err().contains("Exception"), compare.err()),
                () -> assertEquals("", compare.out(), "nothing is run"));
    }

    // ---- usage errors --------------------------------------------------------------------------------------

    static Stream<Arguments> usageErrors() {
        return Stream.of(
                Arguments.of("unknown kernel", List.of("run", "nope", "--size", "8"),
                        "unknown kernel 'nope'; known kernels: nw, pascal, prefix-sum"),
                Arguments.of("unknown kernel in show", List.of("show", "nope"), "unknown kernel 'nope'"),
                Arguments.of("unknown schedule", List.of("run", "nw", "--size", "8", "--schedule", "zigzag"),
                        "unknown schedule 'zigzag'"),
                Arguments.of("unknown backend", List.of("run", "nw", "--size", "8", "--backend", "gpu"),
                        "unknown backend 'gpu'; available backends: reference"),
                Arguments.of("size that is not a number", List.of("run", "nw", "--size", "abc"), "size 'abc' is not a size"),
                Arguments.of("two kernels", List.of("compare", "needleman-wunsch,lcs"),
                        "'needleman-wunsch,lcs' names more than one kernel, and a command takes one; run it once per kernel"),
                Arguments.of("extent above an int", List.of("run", "nw", "--size", "3000000000x1"),
                        "size '3000000000x1' has an extent of 3000000000, above the largest, 2147483647"),
                Arguments.of("size zero", List.of("run", "nw", "--size", "0"), "size '0' has an extent below 1"),
                Arguments.of("size past 2^30 points", List.of("run", "nw", "--size", "32768x32769"),
                        "input 'reference' of kernel 'nw' spans 1073774592 points at size 32768x32769, more than an array"
                                + " holds (1073741824); choose smaller extents, or read the input along fewer dimensions (along(...))"),
                Arguments.of("size of the wrong rank", List.of("run", "nw", "--size", "4x4x4"),
                        "size '4x4x4' has 3 extents but kernel 'nw' has 2 dimensions"),
                Arguments.of("bad size in a list", List.of("compare", "nw", "--sizes", "8,abc"), "size 'abc' is not a size"),
                Arguments.of("mechanisms with the reference backend",
                        List.of("compare", "nw", "--sizes", "8", "--backends", "reference", "--mechanisms", "tiny-lock"),
                        "backend 'reference' models sync points abstractly and takes no lock mechanism"),
                Arguments.of("mechanism with the reference backend", List.of("run", "nw", "--size", "8", "--mechanism", "tiny-lock"),
                        "backend 'reference' models sync points abstractly and takes no lock mechanism"),
                Arguments.of("unknown mechanism", List.of("run", "nw", "--size", "8", "--mechanism", "warp-magic"),
                        "unknown mechanism 'warp-magic'"),
                Arguments.of("unknown option", List.of("run", "nw", "--size", "8", "--bogus"), "Unknown option: '--bogus'"),
                Arguments.of("an option of another command, with the one meant", List.of("compare", "nw", "--backend", "jvm"),
                        "did you mean --backends?"),
                Arguments.of("an unknown kernel names --classpath", List.of("run", "mine", "--size", "8"),
                        "(a kernel of your own needs its classes on --classpath or $FINEGRAIN_CLASSPATH)"),
                Arguments.of("--properties without a profile", List.of("profiles", "--properties"),
                        "--properties prints one profile's file: name it, e.g. finegrain profiles hopper-h200 --properties"),
                Arguments.of("--properties of a profile with settings", List.of("profiles", "hopper-h200@sm.count=66", "--properties"),
                        "--properties prints a profile's file as written, and hopper-h200@sm.count=66 sets keys beyond it;"
                                + " print hopper-h200 and change those keys in the copy"),
                Arguments.of("a profile file that is not there", List.of("profiles", "/nowhere/mine.properties"),
                        "profile file /nowhere/mine.properties not found; give the path of a .properties file (start one from a"
                                + " built-in profile: finegrain profiles hopper-h200 --properties > mine.properties)"),
                Arguments.of("missing --size", List.of("run", "nw"), "Missing required option: '--size"),
                Arguments.of("seed that is not a number", List.of("run", "nw", "--size", "8", "--seed", "many"), "'many'"),
                Arguments.of("unknown subcommand", List.of("frobnicate"), "unknown command 'frobnicate'; the commands are list, show,"),
                Arguments.of("a misspelled subcommand", List.of("comapre", "nw"), "unknown command 'comapre'; did you mean compare?"),
                Arguments.of("sizes separated by a space", List.of("compare", "nw", "--sizes", "64", "128"),
                        "unexpected argument '128': an option takes one value, and a list is written with commas (for example"
                                + " --sizes 64,128)"),
                Arguments.of("a mechanism for a schedule that takes none",
                        List.of("run", "nw", "--size", "8", "--backend", "jvm", "--schedule", "wavefront", "--mechanism", "tiny-lock"),
                        "wavefront synchronises with barriers only and takes no lock mechanism; drop the mechanism option"),
                Arguments.of("show: two views", List.of("show", "nw", "--java", "--simt", "--schedule", "wavefront"),
                        "--java and --simt are separate views; choose one"),
                Arguments.of("show: --mechanism without a view", List.of("show", "nw", "--mechanism", "tiny-lock"),
                        "--mechanism chooses the variant of the --java, --simt, --gpu-plan or --cuda view; add one of them"),
                Arguments.of("show: --sizes without --simt", List.of("show", "nw", "--sizes", "64"),
                        "--sizes is for the --java, --simt, --gpu-plan and --cuda views; add one or drop it"),
                Arguments.of("show: --arch without --cuda", List.of("show", "nw", "--simt", "--schedule", "wavefront", "--arch", "sm_90"),
                        "--arch chooses the CUDA architecture for --cuda and --gpu-plan; add one or drop it"),
                Arguments.of("show: --profile with --cuda", List.of("show", "nw", "--cuda", "--schedule", "wavefront", "--profile", "fermi-gtx570"),
                        "--profile chooses the GPU model for --simt and --gpu-plan; add one or drop it"),
                Arguments.of("show: a mechanism the CUDA target cannot use for the kernel",
                        List.of("show", "nw", "--cuda", "--schedule", "lock-dataflow", "--mechanism", "warp-vote", "--sizes", "64"),
                        "backend 'cuda:sm_90' cannot use mechanism 'warp-vote' here"),
                Arguments.of("a schedule the backend never runs",
                        List.of("run", "nw", "--size", "8", "--backend", "jvm", "--schedule", "lock-dataflow:persistent"),
                        "backend 'jvm' does not run lock-dataflow:persistent: its lock-dataflow is persistent already: workers"
                                + " own bands of columns for the whole run"),
                Arguments.of("show: the Java of a schedule the jvm backend never runs",
                        List.of("show", "nw", "--java", "--schedule", "lock-dataflow:persistent"),
                        "backend 'jvm' does not run lock-dataflow:persistent: its lock-dataflow is persistent already: workers"
                                + " own bands of columns for the whole run"),
                Arguments.of("export: no --out", List.of("export", "nw", "--sizes", "8"), "Missing required option: '--out=DIR'"),
                Arguments.of("export: a backend that is not CUDA", List.of("export", "nw", "--sizes", "8", "--backends", "jvm", "--out", "x"),
                        "export writes CUDA bundles; --backends takes cuda or cuda:sm_XX, not 'jvm'"),
                Arguments.of("show: --passes with a view", List.of("show", "nw", "--java", "--passes", "--schedule", "wavefront"),
                        "--passes shows the IR, not the --java view; drop one of them"),
                Arguments.of("show: two sizes for --simt",
                        List.of("show", "nw", "--simt", "--schedule", "wavefront", "--sizes", "64,128"),
                        "--simt folds one size into the program; give one size, not 64,128"),
                Arguments.of("--out with no name",
                        List.of("compare", "nw", "--sizes", "8", "--backends", "reference", "--quick", "--out", ""),
                        "--out needs a folder name"),
                Arguments.of("tile of the wrong rank", List.of("run", "nw", "--schedule", "data-parallel:2x2x2", "--size", "8"),
                        "dataParallel tile [2, 2, 2] has 3 extents but the domain has 2 dimensions"),
                Arguments.of("unknown format in run", List.of("run", "nw", "--size", "8", "--format", "xml"),
                        "unknown format 'xml'; use table, json or csv"),
                Arguments.of("unknown format in compare", List.of("compare", "nw", "--format", "yaml"),
                        "unknown format 'yaml'; use table, json or csv"),
                Arguments.of("a comma inside one size", List.of("run", "nw", "--size", "64,32"),
                        "size '64,32' holds a comma, which separates sizes in a list; write one size as N or as extents joined"
                                + " by 'x' (64x32)"),
                Arguments.of("a tile of zero", List.of("compare", "nw", "--schedules", "data-parallel:0"),
                        "schedule 'data-parallel:0': tile extents must be positive, one for all dimensions or one per dimension"
                                + " (at most 3), e.g. data-parallel:16 or data-parallel:32x8"),
                Arguments.of("a tile of four extents", List.of("compare", "nw", "--schedules", "data-parallel:2x2x2x2"),
                        "schedule 'data-parallel:2x2x2x2': tile extents must be positive, one for all dimensions or one per"
                                + " dimension (at most 3), e.g. data-parallel:16 or data-parallel:32x8"),
                Arguments.of("threads out of range", List.of("compare", "nw", "--threads", "0"), "--threads 0 is out of range"),
                Arguments.of("jobs out of range", List.of("compare", "nw", "--jobs", "0"), "--jobs 0 is out of range"),
                Arguments.of("a schedule the target never runs, without --mechanism", List.of("show", "nw", "--gpu-plan",
                        "--schedule", "lock-dataflow:persistent", "--profile", "fermi-gtx570"),
                        "the GPU model never runs lock-dataflow:persistent: lock-dataflow:persistent carries values along a"
                                + " band by warp shuffle, which profile fermi-gtx570 does not have (feature.warpShuffle)"),
                Arguments.of("a schedule the default profile never runs", List.of("show", "nw", "--gpu-plan",
                        "--schedule", "lock-dataflow:persistent", "--mechanism", "tiny-lock"),
                        "band by warp shuffle, which profile fermi-gtx570 does not have (feature.warpShuffle) (--gpu-plan used"
                                + " profile fermi-gtx570, the default; choose another with --profile P, e.g. hopper-h200, or a"
                                + " real GPU with --arch sm_90)"),
                Arguments.of("an architecture nvcc no longer builds", List.of("show", "nw", "--cuda", "--schedule", "wavefront",
                        "--arch", "sm_12"), "'sm_12' is older than nvcc 13 builds for; use sm_75 or newer"),
                Arguments.of("an architecture whose limits are not known", List.of("show", "nw", "--cuda", "--schedule",
                        "wavefront", "--arch", "sm_91"), "'sm_91' is an architecture whose SM limits Finegrain does not know;"
                        + " use one of sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_100, sm_120"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("usageErrors")
    void aUsageErrorExitsWithTwoAndOneLineOnStderr(String mistake, List<String> args, String expected) {
        Outcome outcome = finegrain(args.toArray(String[]::new));
        assertUsageError(outcome);
        assertTrue(outcome.err().contains(expected), "expected '" + expected + "' in: " + outcome.err());
    }

    /**
     * Once a bug: a size with more points than an int can count (70000 x 70000) reached {@code Domain}'s
     * {@code Math.toIntExact} and was an internal error with a stack trace; the CLI now checks it where it parses it.
     */
    @Test
    void aSizeTooLargeToIndexIsAUsageError() {
        Outcome outcome = finegrain("run", "pascal", "--size", "70000");
        assertUsageError(outcome);
        assertTrue(outcome.err().contains("size 70000x70000 has 4900000000 points and kernel 'pascal' keeps state field"), outcome.err());
    }

    /** Once a bug: the hint for a top-level mistake read "(see 'finegrain  --help')", with two spaces. */
    @Test
    void theHelpHintForATopLevelMistakeNamesTheCommandOnce() {
        Outcome outcome = finegrain("frobnicate");
        assertUsageError(outcome);
        assertTrue(outcome.err().strip().endsWith(" (see 'finegrain --help')"), outcome.err());
    }

    /** Found in review: 'finegrain help compare' answered "Missing required parameter: 'KERNEL'". */
    @Test
    void helpNamesACommandsOptions() {
        Outcome help = finegrain("help", "compare");
        assertEquals(0, help.exit(), help.err());
        assertTrue(help.out().startsWith("Usage: finegrain compare "), help.out());
    }

    /** Found in review: every usage error pointed at "finegrain show --help", which was itself an unknown option. */
    @Test
    void theHelpEveryUsageErrorPointsToExists() {
        Outcome mistake = finegrain("show");
        assertUsageError(mistake);
        assertTrue(mistake.err().contains("(see 'finegrain show --help')"), mistake.err());
        Outcome help = finegrain("show", "--help");
        assertEquals(0, help.exit(), help.err());
        assertTrue(help.out().contains("--schedule"), help.out());
        assertEquals("", help.err());
    }

    private static void assertUsageError(Outcome outcome) {
        assertAll(
                () -> assertEquals(FinegrainCli.EXIT_USAGE, outcome.exit(), "exit code; stderr: " + outcome.err()),
                () -> assertEquals(1, outcome.err().lines().count(), "exactly one line on stderr:\n" + outcome.err()),
                () -> assertTrue(outcome.err().startsWith("finegrain: "), outcome.err()),
                () -> assertFalse(outcome.err().contains("at dev."), "no stack trace:\n" + outcome.err()),
                () -> assertFalse(outcome.err().contains("Exception"), "no exception name:\n" + outcome.err()),
                () -> assertEquals("", outcome.out(), "nothing on stdout"));
    }

    // ---- inputs --------------------------------------------------------------------------------------------

    private static Invocation nwInputs(Kernel kernel, int[] sizes, long seed) {
        Random random = new Random(seed);
        int[] reference = new int[Invocation.paddedLength(sizes, 0)];
        Arrays.setAll(reference, k -> random.nextInt(21) - 10);
        return kernel.invocation().sizes(sizes).param("penalty", 10).input("reference", reference).build();
    }


    // ---- the GPU model ---------------------------------------------------------------------------------------

    @Test
    void showSimtPrintsTheLaunchPlanAndTheModelIsaProgram() {
        Outcome show = finegrain("show", "nw", "--simt", "--schedule", "lock-dataflow", "--sizes", "62x62");
        assertEquals(0, show.exit(), show.err());
        assertTrue(show.out().startsWith("// launch plan: lock-dataflow with tiny-lock (shared channels, one token per"
                + " thread): tiles of 31x31 points"), show.out());
        assertTrue(show.out().contains("LDSLK P1, ") && show.out().contains("STSUL [R"), show.out());
    }

    @Test
    void profilesPrintsEveryValueOfAProfileWithWhereItComesFrom() {
        Outcome listed = finegrain("profiles");
        assertEquals(0, listed.exit(), listed.err());
        assertTrue(listed.out().contains("hopper-h200  H200 SXM"), listed.out());
        Outcome h200 = finegrain("profiles", "hopper-h200");
        assertEquals(0, h200.exit(), h200.err());
        List<String> lines = h200.out().lines().toList();
        assertTrue(lines.getFirst().startsWith("hopper-h200: H200 SXM"), lines.getFirst());
        assertTrue(lines.stream().anyMatch(line -> line.matches("latency\\.shared +23 +Measured: 23\\.0 cycles per load.*")),
                h200.out());
        assertTrue(lines.stream().anyMatch(line -> line.matches("shared\\.portCycles +0 +Off: .*")), "a mechanism left off"
                + " says so: " + h200.out());
        assertTrue(lines.stream().anyMatch(line -> line.matches("shared\\.pollCycles +4\\.0 +Measured \\(fitted.*")),
                "a fitted value says so: " + h200.out());
        Outcome unknown = finegrain("profiles", "volta-v100");
        assertEquals(2, unknown.exit());
        assertEquals(1, unknown.err().lines().count(), unknown.err());
        assertTrue(unknown.err().startsWith("finegrain: unknown profile 'volta-v100'"), unknown.err());
    }

    /**
     * A schedule that takes the kernel under no mechanism (bands need a 2D domain) is one skipped row that names the
     * schedule, not a mechanism, and gives the reason once; no mechanism is said to be left out for it.
     */
    @Test
    void aScheduleThatTakesTheKernelUnderNoMechanismIsOneSkippedRowNamingTheSchedule() {
        Outcome compare = finegrain("compare", "prefix-sum", "--sizes", "64", "--backends", "gpu-model:hopper-h200",
                "--schedules", "lock-dataflow:persistent", "--quick");
        assertTrue(compare.out().contains("cannot run lock-dataflow:persistent of kernel 'prefix-sum': lock-dataflow:persistent"
                + " deals bands of columns to warps, which needs a 2D domain"), compare.out());
        assertEquals(1, compare.out().split("needs a 2D domain", -1).length - 1, "the reason once: " + compare.out());
        assertTrue(compare.err().lines().noneMatch(line -> line.startsWith("note: left out of the mechanism sweep")
                && line.contains("2D domain")), compare.err());
        Outcome show = finegrain("show", "prefix-sum", "--gpu-plan", "--arch", "sm_90", "--schedule", "lock-dataflow:persistent",
                "--mechanism", "tiny-lock");
        assertEquals(2, show.exit());
        assertTrue(show.err().startsWith("finegrain: backend 'cuda:sm_90' cannot run lock-dataflow:persistent of kernel"
                + " 'prefix-sum': lock-dataflow:persistent deals bands"), show.err());
    }

    /**
     * Mechanisms left out for the same cause, each named at the head of its reason ("mbarrier keeps its tokens ...",
     * "named-barrier keeps its tokens ..."), are one entry: the reason once, said of each.
     */
    @Test
    void aCauseSharedByMechanismsOfDifferentNamesIsOneEntryOfTheNote() {
        Outcome compare = finegrain("compare", "nw", "--sizes", "64", "--backends", "gpu-model:hopper-h200",
                "--schedules", "lock-dataflow:persistent", "--quick");
        String note = compare.err().lines().filter(line -> line.startsWith("note: left out of the mechanism sweep")).findFirst()
                .orElseThrow(() -> new AssertionError(compare.err()));
        assertTrue(note.contains("lock-dataflow:persistent named-barrier, mbarrier (each keeps its tokens in one block's shared memory"),
                note);
        assertEquals(1, note.split("keeps its tokens in one block's shared memory", -1).length - 1, "the cause once: " + note);
        assertTrue(note.contains("shared-spin-lock, warp-vote (each publishes a warp's token"), note);
        assertTrue(note.contains("lock-box (lock-box needs a lock-box unit"), "a cause of one mechanism is said as it gives it: " + note);
    }

    /** A profile file of one's own starts as a copy of a built-in one, every key with its source, and loads as it. */
    @Test
    void profilesPrintsAProfileFileToStartOneFrom(@TempDir Path temp) throws IOException {
        Outcome printed = finegrain("profiles", "hopper-h200", "--properties");
        assertEquals(0, printed.exit(), printed.err());
        assertTrue(printed.out().contains("\nlatency.shared=23\n"), printed.out());
        Path mine = temp.resolve("mine.properties");
        Files.writeString(mine, printed.out().replace("\nsm.count=132\n", "\nsm.count=66\n"));
        Outcome loaded = finegrain("profiles", mine.toString());
        assertEquals(0, loaded.exit(), loaded.err());
        assertTrue(loaded.out().lines().anyMatch(line -> line.matches("sm\\.count +66 .*")), loaded.out());
        Files.writeString(mine, printed.out().replace("\nsm.lockBits=0\n", "\n"));
        Outcome partial = finegrain("profiles", mine.toString());
        assertEquals(2, partial.exit());
        assertTrue(partial.err().contains("missing sm.lockBits (a profile file sets every key a built-in one does"), partial.err());
    }

    /** Found by a new user: compare's help named defaults that were no longer what ran. */
    @Test
    void theHelpsDefaultsAreWhatRunsWithoutTheOption() {
        assertEquals(CliValues.allSchedules(), CliValues.schedules(CliValues.DEFAULT_SCHEDULES));
        assertEquals(CliValues.DEFAULT_BACKENDS, String.join(",", dev.finegrain.compiler.compare.Backends.available().stream()
                .map(dev.finegrain.compiler.backend.Backend::name).toList()));
        Outcome help = finegrain("compare", "--help");
        assertTrue(help.out().replaceAll("\\s+", "").contains("default:" + CliValues.DEFAULT_SCHEDULES), help.out());   // as wrapped
    }

    /** Found by a new user: ten rows skipped for one reason printed the reason ten times. */
    @Test
    void rowsSkippedForOneReasonShareOneLineAndEachIsStillNamed() {
        Outcome skipped = finegrain("compare", "pascal", "--sizes", "8,16", "--backends", "gpu-model:fermi-gtx570", "--schedules",
                "lock-dataflow", "--mechanisms", "warp-vote");
        assertTrue(skipped.out().contains("SKIPPED, 2 rows: backend 'gpu-model:fermi-gtx570' cannot use mechanism 'warp-vote' for"
                + " kernel 'pascal'"), skipped.out());
        assertTrue(skipped.out().contains("\n  pascal 8x8 lock-dataflow gpu-model:fermi-gtx570 warp-vote\n"
                + "  pascal 16x16 lock-dataflow gpu-model:fermi-gtx570 warp-vote\n"), skipped.out());
    }

    /** Found by a new user: the table named no winner; the report's first answer is now under it. */
    @Test
    void theTableIsFollowedByTheFastestVariantPerBackendAndSize() {
        Outcome compare = finegrain("compare", "prefix-sum", "--backends", "gpu-model:fermi-gtx570", "--sizes", "96");
        assertEquals(0, compare.exit(), compare.err());
        List<String> lines = compare.out().lines().toList();
        int heading = lines.indexOf("fastest of the verified rows (tied: their runs overlap the fastest's):");
        assertTrue(heading > 0, compare.out());
        assertTrue(lines.get(heading + 1).startsWith("  prefix-sum 96 gpu-model:fermi-gtx570: "), compare.out());
        assertTrue(lines.get(heading + 1).contains(" ms (modelled), ") && lines.get(heading + 1).contains(" x faster than data-parallel:16"),
                compare.out());
    }

    /** Found by a new user: "[1/42 started] A" was followed by "[1/42 done] B"; a row's two lines now carry one number. */
    @Test
    void aRowsStartedAndDoneLinesCarryTheSameNumber() {
        Outcome compare = finegrain("compare", "prefix-sum", "--backends", "gpu-model:fermi-gtx570", "--sizes", "96,128", "--jobs", "2");
        assertEquals(0, compare.exit(), compare.err());
        java.util.regex.Pattern started = java.util.regex.Pattern.compile("^\\[(\\d+)/(\\d+) started\\] (.*)$");
        java.util.regex.Pattern done = java.util.regex.Pattern.compile("^\\[(\\d+)/(\\d+) done\\] .* \\((\\d+) of \\2 finished\\)$");
        Map<String, String> startedRows = new java.util.HashMap<>();   // number -> the row its started line names
        java.util.Set<String> doneNumbers = new java.util.HashSet<>();
        List<Integer> finished = new java.util.ArrayList<>();
        for (String line : compare.err().lines().toList()) {
            java.util.regex.Matcher m = started.matcher(line);
            if (m.matches()) {
                startedRows.put(m.group(1), m.group(3));
            }
            m = done.matcher(line);
            if (m.matches()) {
                String row = startedRows.get(m.group(1));
                assertTrue(row != null && line.startsWith("[" + m.group(1) + "/" + m.group(2) + " done] " + row + ": "),
                        "a done line whose number started another row, or none: " + line + "\n" + compare.err());
                doneNumbers.add(m.group(1));
                finished.add(Integer.parseInt(m.group(3)));
            }
        }
        assertFalse(doneNumbers.isEmpty(), compare.err());
        assertEquals(startedRows.keySet(), doneNumbers, compare.err());
        assertEquals(IntStream.rangeClosed(1, finished.size()).boxed().toList(), finished, compare.err());
    }

    @Test
    void compareRunsTheGpuModelAndVerifiesEveryRow() {
        Outcome compare = finegrain("compare", "prefix-sum", "--backends", "gpu-model:fermi-gtx570", "--sizes", "96",
                "--format", "csv");
        assertEquals(0, compare.exit(), compare.err());
        List<String> rows = compare.out().lines().skip(1).toList();
        // wavefront, data-parallel, dynamic-dataflow and lock-dataflow with each mechanism the model offers a chain
        assertEquals(6, rows.size(), compare.out());
        assertTrue(rows.stream().allMatch(row -> row.contains(",gpu-model:fermi-gtx570,") && row.contains(",verified,cycles,")),
                compare.out());
    }

    @Test
    void theWarpMechanismsRowsSayTheyKeepOneTokenPerWarp() {
        // the kernel asks for per-thread locks; the warp mechanisms can only keep one token per warp, and say so
        Outcome compare = finegrain("compare", "warp-chain", "--backends", "gpu-model:fermi-gtx570", "--sizes", "128",
                "--schedules", "lock-dataflow", "--mechanisms", "named-barrier,warp-vote,shared-spin-lock,tiny-lock",
                "--format", "csv");
        assertEquals(0, compare.exit(), compare.err());
        List<String> rows = compare.out().lines().skip(1).toList();
        assertEquals(4, rows.size(), compare.out());
        List<String> header = List.of(compare.out().lines().findFirst().orElseThrow().split(","));
        Set<String> warpMechanisms = Set.of("named-barrier", "warp-vote", "shared-spin-lock");
        List<String[]> cells = rows.stream().map(row -> row.split(",", -1)).toList();
        for (String[] row : cells) {
            String mechanism = row[header.indexOf("mechanism")];
            assertEquals(warpMechanisms.contains(mechanism) ? "warp-shared" : "per-thread", row[header.indexOf("granularity")],
                    mechanism + " in\n" + compare.out());
        }
    }

    @Test
    void theCommandTheFidelityPagePrintsRunsTheSameCombinationsItMeasured() {
        ComparisonRequest request = ComparisonRequest.builder(CATALOG.find("nw").orElseThrow())
                .sizes(List.of(new int[] {16, 16}, new int[] {24, 24}))
                .schedules(List.of(new Schedule.DataParallel(List.of(8, 8)), new Schedule.LockDataflow()))
                .backends(List.of(Backends.byName("gpu-model:fermi-gtx570").orElseThrow()))
                .mechanisms(MechanismChoice.listed(List.of(LockMechanism.TINY_LOCK, LockMechanism.ATOMIC_SPIN_LOCK))).seed(7).build();
        String command = FidelityCommand.compareCommandFor(request);
        assertTrue(command.startsWith("./finegrain compare nw "), command);

        List<String> arguments = new ArrayList<>(List.of(command.substring("./finegrain ".length()).split(" ")));
        arguments.addAll(List.of("--format", "csv"));
        Outcome typed = finegrain(arguments.toArray(String[]::new));
        assertEquals(0, typed.exit(), typed.err());
        // the same rows, seed included; only the checker's time (column ms) differs between runs
        String measured = ResultFormat.CSV.render(ComparisonRunner.run(request).rows());
        assertEquals(withoutColumn(measured, "ms"), withoutColumn(typed.out(), "ms"));
    }

    private static List<List<String>> withoutColumn(String csv, String column) {
        List<List<String>> lines = csv.lines().map(line -> (List<String>) new ArrayList<>(Arrays.asList(line.split(",", -1))))
                .toList();
        int index = lines.getFirst().indexOf(column);
        lines.forEach(line -> line.remove(index));
        return lines;
    }

    /** A built-in profile with some keys replaced, written as a profile file. */
    private static Path profileFile(Path folder, Map<String, String> changes) throws IOException {
        java.util.Properties profile = new java.util.Properties();
        try (var in = dev.finegrain.gpu.runtime.SimtProfile.class.getResourceAsStream("/dev/finegrain/gpu/profiles/fermi-gtx570.properties")) {
            profile.load(in);
        }
        changes.forEach(profile::setProperty);
        Path file = folder.resolve("my-gpu.properties");
        try (var out = Files.newOutputStream(file)) {
            profile.store(out, "a user's profile");
        }
        return file;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badProfiles")
    void aProfileFileWithAnImpossibleValueIsOneLineNamingTheKey(String key, String value, String expected, @TempDir Path dir)
            throws IOException {
        Path file = profileFile(dir, Map.of(key, value));
        Outcome outcome = finegrain("compare", "nw", "--backends", "gpu-model:" + file, "--schedules", "wavefront");
        assertUsageError(outcome);
        assertEquals("finegrain: backend 'gpu-model:" + file + "': profile " + file + ": " + expected + "\n", outcome.err());
    }

    static Stream<Arguments> badProfiles() {
        return Stream.of(
                Arguments.of("sm.count", "-2", "sm.count must be at least 1, was -2"),
                Arguments.of("block.maxThreads", "0", "block.maxThreads must be at least 32, was 0"),
                Arguments.of("sm.lockBits", "-1", "sm.lockBits must be at least 0, was -1"),
                Arguments.of("clock.mhz", "0", "clock.mhz must be a positive number, was 0"),
                Arguments.of("block.maxThreads", "4096", "block.maxThreads (4096) must not exceed sm.maxThreads (1536)"));
    }

    @Test
    void aRowFromAProfileFileIsLabelledWithTheFile(@TempDir Path dir) throws IOException {
        Path file = profileFile(dir, Map.of("profile.name", "fermi-gtx570"));
        Outcome compare = finegrain("compare", "prefix-sum", "--backends", "gpu-model:" + file, "--schedules", "wavefront",
                "--sizes", "64", "--format", "csv");
        assertEquals(0, compare.exit(), compare.err());
        assertTrue(compare.out().lines().skip(1).allMatch(row -> row.contains(",gpu-model:" + file + ",")), compare.out());
    }

    @Test
    void aDefaultMechanismTheProfileCannotRunIsANoteNotASilentChange(@TempDir Path dir) throws IOException {
        Path file = profileFile(dir, Map.of("sm.lockBits", "0"));
        // without lock bits, per-thread tiny-lock takes CUDA's form there (a ready bit beside each value) and runs
        Outcome words = finegrain("run", "warp-chain", "--size", "128", "--backend", "gpu-model:" + file, "--format", "csv");
        assertEquals(0, words.exit(), words.err());
        assertEquals("", words.err());
        assertTrue(words.out().contains(",tiny-lock,") && words.out().contains(",verified,"), words.out());
        // its warp-shared form, the vote, the model spells on lock bits only
        Outcome run = finegrain("run", "warp-shared-chain", "--size", "128", "--backend", "gpu-model:" + file, "--format", "csv");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.err().startsWith("note: backend 'gpu-model:" + file + "' cannot use its default mechanism tiny-lock here ("),
                run.err());
        assertTrue(run.err().contains("lock bits") && run.err().endsWith("; choose one with --mechanism\n"), run.err());
        assertFalse(run.out().contains(",tiny-lock,"), run.out());
    }

    @Test
    void theGpuModelRefusesWhatItCannotRunInOneLine() {
        Outcome unknown = finegrain("compare", "nw", "--backends", "gpu-model:gtx9000");
        assertUsageError(unknown);
        assertTrue(unknown.err().startsWith("finegrain: backend 'gpu-model:gtx9000': "), unknown.err());
        Outcome longs = finegrain("compare", "pascal", "--backends", "gpu-model:fermi-gtx570", "--schedules",
                "lock-dataflow", "--mechanisms", "warp-vote");
        assertEquals(FinegrainCli.EXIT_USAGE, longs.exit(), longs.err() + longs.out());
        assertEquals("finegrain: nothing ran: every combination was skipped, for the reasons in the table\n", longs.err());
        assertTrue(longs.out().contains("SKIPPED: pascal 8x8 lock-dataflow gpu-model:fermi-gtx570 warp-vote: backend"
                + " 'gpu-model:fermi-gtx570' cannot use mechanism 'warp-vote' for kernel 'pascal': channel c[i, j-1] (0,1)"
                + " of pascal links threads 1 apart"), longs.out());
    }
}
