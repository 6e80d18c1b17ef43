package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.BackendRun;
import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.gpu.BandMapping;
import dev.finegrain.compiler.backend.gpu.GpuGoldenCatalog;
import dev.finegrain.compiler.backend.gpu.RaggedBand;
import dev.finegrain.compiler.backend.reference.SequentialOracle;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelExecutionException;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.Keep;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Reduction;
import dev.finegrain.dsl.Schedule;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.Random;

import static dev.finegrain.dsl.Finegrain.along;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.index;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.max;
import static dev.finegrain.dsl.Type.INT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The GPU model runs lock-dataflow:persistent on kernels that fold their storage, as CUDA does: kept slices, streamed
 * reductions and their combining launch, band edges held as rings (laps and free counters, bands walked in rounds),
 * lookup tables staged in shared memory or kept as query profiles, and sequences read once a band; every mechanism the
 * Hopper profile offers for the bands, each run checked against the oracle.
 */
class FoldedBandsModelTest {

    private static final GpuModelBackend HOPPER = new GpuModelBackend("hopper-h200");
    private static final Schedule BANDS = new Schedule.LockDataflow().persistent();

    /** Smith-Waterman over two sequences and a table: the best score and its point, the lookup a query profile. */
    private static final Kernel SW = kernel("sw-seq")
            .domain(dim("i", "rows"), dim("j", "cols"))
            .input("a", INT, along("i"))
            .input("b", INT, along("j"))
            .table("sub", INT, 24, 24)
            .state("h", INT, boundary(constant(0)))
            .actor("cell", "h", c -> max(constant(0), c.read("h", -1, -1).plus(c.lookup("sub", c.read("a", 0), c.read("b", 0))),
                    c.read("h", -1, 0).minus(3), c.read("h", 0, -1).minus(3)))
            .keep("h", Keep.FINAL)
            .reduceWithPosition("h", Reduction.MAX)
            .build();

    /** A table too large to stage (100 x 100 ints), read by a query profile filled from global memory. */
    private static final Kernel WIDE_TABLE = kernel("wide-table")
            .domain(dim("i", "rows"), dim("j", "cols"))
            .input("a", INT, along("i"))
            .input("b", INT, along("j"))
            .table("sub", INT, 100, 100)
            .state("h", INT, boundary(index("i").minus(index("j"))))
            .actor("cell", "h", c -> max(c.read("h", -1, -1).plus(c.lookup("sub", c.read("b", 0), c.read("a", 0))),
                    c.read("h", -1, 0).minus(2), c.read("h", 0, -1).minus(2)))
            .keep("h", Keep.LAST_ROW)
            .reduce("h", Reduction.MIN)
            .build();

    /** A table indexed by the row's sequence alone: staged in shared memory, no query profile. */
    private static final Kernel ROW_TABLE = kernel("row-table")
            .domain(dim("i", "rows"), dim("j", "cols"))
            .input("a", INT, along("i"))
            .table("gap", INT, 24)
            .state("h", INT, boundary(index("j").negate()))
            .actor("cell", "h", c -> max(c.read("h", -1, -1).plus(c.lookup("gap", c.read("a", 0))),
                    c.read("h", -1, 0).minus(1), c.read("h", 0, -1).minus(1)))
            .keep("h", Keep.LAST_COLUMN)
            .reduce("h", Reduction.SUM)
            .build();

    @Test
    void foldedKeepsAndReductionsMatchTheOracle() {
        for (Kernel kernel : List.of(GpuGoldenCatalog.foldMix(), GpuGoldenCatalog.foldLastRow())) {
            assertAllVerified(HOPPER, kernel, new int[] {70, 45}, List.of(BANDS));
            assertAllVerified(HOPPER, kernel, new int[] {130, 100}, List.of(BANDS));   // rows enough for steady chunks
        }
    }

    /**
     * An extreme with its point taken once a step in lanes of several columns: fold-mix's max of w (values 0 to 4, so
     * most steps tie the best and the first column holding it decides) in bands narrower than the domain's last
     * (a lane whose columns lie right of it meets no point), and in full bands with steady chunks.
     */
    @Test
    void extremesTakenOnceAStepKeepTheFirstPointInLanesOfSeveralColumns() {
        Kernel mix = GpuGoldenCatalog.foldMix();
        List<Schedule> lanes = List.of(new Schedule.LockDataflow().persistent().columnsPerLane(2),
                new Schedule.LockDataflow().persistent().columnsPerLane(4));
        assertAllVerified(HOPPER, mix, new int[] {70, 45}, lanes);
        assertAllVerified(HOPPER, mix, new int[] {130, 100}, lanes);
        assertAllVerified(HOPPER, mix, new int[] {130, 256}, lanes);
        assertTrue(program(mix, new int[] {130, 256}).contains("this step beats my best"));
    }

    /**
     * Lanes of eight columns read a wide query profile (four columns side by side, LaneProfile): Smith-Waterman over
     * sequences in full bands and in a last band whose lanes straddle the domain's edge (300 columns: 44 in the last
     * band of 256).
     */
    @Test
    void lanesOfEightColumnsReadAWideProfile() {
        List<Schedule> eight = List.of(new Schedule.LockDataflow().persistent().columnsPerLane(8));
        assertAllVerified(HOPPER, SW, new int[] {130, 256}, eight);
        assertAllVerified(HOPPER, SW, new int[] {130, 300}, eight);
        assertEquals(4, mapping(SW, new int[] {130, 300}, eight.getFirst()).profiles().getFirst().columnsALoad());
    }

    /**
     * The last band, narrower than the others, runs as a full band (steady chunks, and no test a column in its checked
     * ones) where its columns right of the domain are harmless ({@code RaggedBand}): lanes wholly right of the domain (100 columns: the last band's
     * lanes 25 to 31 with four columns a lane), a lane straddling its edge (102 and 45 columns: one or two of four
     * columns inside), with fold-mix's kept last column and final point, its sums, its minimum with its point taken a
     * point at a time and its maximum with its point taken once a step (every field folded), and Smith-Waterman's best
     * cell. A kernel that keeps a field whole (fold-mix itself), reads an input over the domain or divides by what it
     * computes keeps the checked steps there, each with its reason; one that divides by a constant does not.
     */
    @Test
    void aNarrowLastBandRunsAsAFullOneWhereItsColumnsOutsideAreHarmless() {
        Kernel mix = GpuGoldenCatalog.foldAll();
        List<Schedule> widths = List.of(BANDS, new Schedule.LockDataflow().persistent().columnsPerLane(2),
                new Schedule.LockDataflow().persistent().columnsPerLane(4));
        for (int[] sizes : new int[][] {{130, 100}, {130, 102}, {130, 45}}) {
            assertAllVerified(HOPPER, mix, sizes, widths);
            assertAllVerified(HOPPER, SW, sizes, widths);
        }
        Schedule four = new Schedule.LockDataflow().persistent().columnsPerLane(4);
        assertEquals(new RaggedBand(true, 2, ""), mapping(mix, new int[] {130, 102}, four).raggedBand());
        assertEquals(new RaggedBand(true, 1, ""), mapping(SW, new int[] {130, 45}, four).raggedBand());
        assertEquals(new RaggedBand(true, 0, ""), mapping(SW, new int[] {130, 100}, four).raggedBand());
        assertEquals(RaggedBand.FULL, mapping(SW, new int[] {130, 128}, four).raggedBand());
        BandMapping whole = mapping(GpuGoldenCatalog.foldMix(), new int[] {130, 100}, BANDS);
        assertEquals(new RaggedBand(false, 0, "a field kept whole would be stored right of the domain"), whole.raggedBand());
        assertTrue(whole.describe().contains("the last 4 columns wide, checked in every chunk, a test a column: a field kept whole"), whole.describe());
        Kernel overInput = kernel("over-input")
                .domain(dim("i", "rows"), dim("j", "cols"))
                .input("r", INT)
                .state("h", INT, boundary(constant(0)))
                .actor("cell", "h", c -> max(c.read("h", -1, -1).plus(c.read("r", 0, 0)), c.read("h", -1, 0).minus(1), c.read("h", 0, -1).minus(1)))
                .keep("h", Keep.FINAL)
                .build();
        assertEquals("input 'r' would be read right of the domain", mapping(overInput, new int[] {130, 100}, BANDS).raggedBand().checkedBecause());
        Kernel dividing = kernel("dividing")
                .domain(dim("i", "rows"), dim("j", "cols"))
                .state("h", INT, boundary(constant(1)))
                .actor("cell", "h", c -> c.read("h", -1, 0).plus(c.read("h", 0, -1)).dividedBy(c.read("h", -1, -1).plus(3)))
                .keep("h", Keep.FINAL)
                .build();
        assertEquals("actor 'cell' could fault on a value computed right of the domain",
                mapping(dividing, new int[] {130, 100}, BANDS).raggedBand().checkedBecause());
        Kernel halving = kernel("halving")
                .domain(dim("i", "rows"), dim("j", "cols"))
                .state("h", INT, boundary(constant(1)))
                .actor("cell", "h", c -> c.read("h", -1, 0).plus(c.read("h", 0, -1)).dividedBy(2))
                .keep("h", Keep.FINAL)
                .build();
        assertTrue(mapping(halving, new int[] {130, 100}, BANDS).raggedBand().runsAsFull(), "a division by a constant cannot fault");
        assertTrue(mapping(mix, new int[] {130, 102}, four).describe().contains("the last 102 columns wide, run as a full band"
                + " (its columns right of the domain compute what nothing reads; a lane holds 2 of its columns inside)"));
    }

    /**
     * The guarded steps (a band's first and last chunks: every lane computes, what leaves it is tested against its row)
     * at rows that leave the lanes of the last chunk below the domain at several offsets, in lanes of one to four
     * columns: kept last columns, final points and last rows (held in registers and stored at the band's end), a
     * masked sum and minimum, extremes with their points taken once a step, and a table read at the row clamped into
     * the domain; each run checked against the oracle.
     */
    @Test
    void guardedStepsMatchTheOracle() {
        Kernel guarded = GpuGoldenCatalog.foldGuarded();
        // the table's row read at the row itself: outside the domain, unclamped, it would index outside the table
        Kernel rowIndexed = GpuGoldenCatalog.nwSequences("row-indexed", c -> c.read("a", 0).plus(index("i")).remainder(24));
        List<Schedule> widths = List.of(BANDS, new Schedule.LockDataflow().persistent().columnsPerLane(2),
                new Schedule.LockDataflow().persistent().columnsPerLane(4));
        for (int[] sizes : new int[][] {{45, 70}, {161, 100}, {100, 128}}) {
            assertAllVerified(HOPPER, guarded, sizes, widths);
            assertAllVerified(HOPPER, WIDE_TABLE, sizes, widths);
            assertAllVerified(HOPPER, rowIndexed, sizes, List.of(BANDS, new Schedule.LockDataflow().persistent().columnsPerLane(2)));
        }
        for (Kernel kernel : List.of(guarded, WIDE_TABLE, rowIndexed, SW)) {
            assertTrue(mapping(kernel, new int[] {161, 100}, BANDS).guardedSteps().guarded(), kernel.name());
        }
        String full = program(WIDE_TABLE, new int[] {100, 128});
        assertTrue(full.contains("guarded steps of a chunk") && full.contains("stored at the band's end"), full);
        String ragged = program(WIDE_TABLE, new int[] {161, 100});
        assertTrue(ragged.contains("guarded steps of a chunk") && !ragged.contains("stored at the band's end"), ragged);
    }

    private static BandMapping mapping(Kernel kernel, int[] sizes, Schedule schedule) {
        KernelGraph graph = Pipeline.compile(kernel);
        return (BandMapping) HOPPER.map(new Variant(graph, SchedulePlanner.plan(graph, schedule), Optional.of(LockMechanism.TINY_LOCK)), sizes);
    }

    @Test
    void tablesAndSequencesMatchTheOracle() {
        assertAllVerified(HOPPER, SW, new int[] {150, 90}, List.of(BANDS));
        assertAllVerified(HOPPER, WIDE_TABLE, new int[] {100, 70}, List.of(BANDS));
        assertAllVerified(HOPPER, ROW_TABLE, new int[] {100, 70}, List.of(BANDS));
        String sw = program(SW, new int[] {150, 90});
        assertTrue(sw.contains("from my query profile") && sw.contains("the lookup tables, copied into the block's shared memory"), sw);
        assertTrue(sw.contains("sequence 'b' at my column"), sw);
        assertTrue(sw.contains("launch 2: the bands' partial reductions"), sw);
        String wide = program(WIDE_TABLE, new int[] {100, 70});
        assertTrue(wide.contains("from my query profile") && !wide.contains("copied into the block's shared memory"), wide);
        String row = program(ROW_TABLE, new int[] {100, 70});
        assertTrue(row.contains("from the block's copy") && !row.contains("query profile"), row);
    }

    /**
     * Past 2048 rows a folding kernel holds each edge as a ring: tagged laps, free counters, and (one SM) bands walked in
     * rounds of the resident warps; token groups of 8 rows (a shift) and of 6 (a division) too.
     */
    @Test
    void ringEdgesMatchTheOracle() {
        Kernel mix = GpuGoldenCatalog.foldMix();
        assertAllVerified(HOPPER, GpuGoldenCatalog.foldLastRow(), new int[] {4200, 70}, List.of(BANDS));
        assertAllVerified(new GpuModelBackend("hopper-h200@sm.count=1@sm.maxBlocks=1"), SW, new int[] {4200, 256}, List.of(BANDS));
        assertAllVerified(HOPPER, mix, new int[] {4200, 70}, List.of(new Schedule.LockDataflow().persistent().warpShared(8),
                new Schedule.LockDataflow().persistent().warpShared(6)));
        KernelGraph graph = Pipeline.compile(SW);
        BandMapping mapping = (BandMapping) HOPPER.map(new Variant(graph, SchedulePlanner.plan(graph, BANDS),
                Optional.of(LockMechanism.TINY_LOCK)), new int[] {2100, 256});
        assertTrue(mapping.edge().ring(), mapping.describe());
        String program = program(SW, new int[] {2100, 256});
        assertTrue(program.contains("not this lap's value yet") && program.contains("my free counter")
                && program.contains("the right band's free counter"), program);
    }

    @Test
    void aSequenceValueOutsideTheTableFailsTheRunNamingTheTable() {
        KernelGraph graph = Pipeline.compile(SW);
        Invocation invocation = inputs(SW, new int[] {40, 40}, 24, 25);
        Variant variant = new Variant(graph, SchedulePlanner.plan(graph, BANDS), Optional.of(LockMechanism.TINY_LOCK));
        KernelExecutionException error = assertThrows(KernelExecutionException.class,
                () -> HOPPER.run(variant, invocation, RunSettings.once(1, 1)));
        assertTrue(error.getMessage().startsWith("kernel 'sw-seq': a lookup of table 'sub' got an index outside axis"), error.getMessage());
    }

    private static String program(Kernel kernel, int[] sizes) {
        KernelGraph graph = Pipeline.compile(kernel);
        return HOPPER.lower(new Variant(graph, SchedulePlanner.plan(graph, BANDS), Optional.of(LockMechanism.TINY_LOCK)), sizes).program();
    }

    private static void assertAllVerified(GpuModelBackend backend, Kernel kernel, int[] sizes, List<Schedule> schedules) {
        KernelGraph graph = Pipeline.compile(kernel);
        Invocation invocation = inputs(kernel, sizes, 0, 24);
        KernelOutputs oracle = SequentialOracle.run(graph, invocation);
        int runs = 0;
        for (Schedule schedule : schedules) {
            for (LockMechanism mechanism : backend.mechanisms(SchedulePlanner.plan(graph, schedule))) {
                Variant variant = new Variant(graph, SchedulePlanner.plan(graph, schedule), Optional.of(mechanism));
                BackendRun run = backend.run(variant, invocation, RunSettings.once(1, 1));
                String name = backend.name() + " " + kernel.name() + " " + sizes[0] + "x" + sizes[1] + " " + schedule.cliName() + " " + mechanism;
                assertEquals(Optional.empty(), run.failure(), name);
                assertEquals(Optional.empty(), oracle.firstDifference(graph, sizes, run.outputs()), name);
                runs++;
            }
        }
        assertFalse(runs == 0);
    }

    /** Sequences of values in [low, high), tables of small random values, every param 4, and nothing else the kernels here need. */
    private static Invocation inputs(Kernel kernel, int[] sizes, int low, int high) {
        Random random = new Random(11);
        Invocation.Builder builder = kernel.invocation().sizes(sizes);
        KernelGraph graph = Pipeline.compile(kernel);
        for (IrField field : graph.fields()) {
            if (field.isSequence()) {
                builder.input(field.name(), random.ints(field.spans()[0] ? sizes[0] : sizes[1], low, high).toArray());
            }
        }
        for (var table : kernel.tables()) {
            builder.input(table.name(), random.ints(table.length(), -6, 9).toArray());
        }
        for (var param : kernel.params()) {
            builder.param(param.name(), 4);
        }
        return builder.build();
    }
}
