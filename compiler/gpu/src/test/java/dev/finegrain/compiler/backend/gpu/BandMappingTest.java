package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.backend.gpu.cuda.CudaLowering;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.GoldenKernels;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.ActorContext;
import dev.finegrain.dsl.Expr;
import dev.finegrain.dsl.Keep;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;
import dev.finegrain.dsl.Type;
import dev.finegrain.gpu.runtime.SimtProfile;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import static dev.finegrain.dsl.Finegrain.DOUBLE;
import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.along;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.index;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static dev.finegrain.dsl.Finegrain.max;
import static dev.finegrain.dsl.Finegrain.select;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** lock-dataflow:persistent's band mapping on its own: what it decides and what it refuses, with the reasons. */
class BandMappingTest {

    private static final GpuTarget H100 = CudaLowering.target("sm_90");
    private static final GpuTarget FERMI = GpuTarget.of(SimtProfile.load("fermi-gtx570"));
    private static final Kernel NW = GoldenKernels.needlemanWunsch();
    private static final Schedule.LockDataflow PERSISTENT = lockDataflow().persistent();

    /** A 2D average in doubles that reads its input one column to the right, as Gauss-Seidel does. */
    private static final Kernel SMOOTH = kernel("smooth").domain(dim("i", "rows"), dim("j", "cols"))
            .input("grid", DOUBLE, 1)
            .state("u", DOUBLE, boundary(index("i").castTo(Type.DOUBLE)))
            .actor("relax", "u", a -> a.read("u", -1, 0).plus(a.read("u", 0, -1)).plus(a.read("grid", 0, 1)).times(0.25))
            .build();

    private static BandMapping map(Kernel kernel, Schedule.LockDataflow schedule, LockMechanism mechanism, int... sizes) {
        KernelGraph graph = Pipeline.compile(kernel);
        return (BandMapping) GpuMapper.map(SchedulePlanner.plan(graph, schedule), Optional.of(mechanism), H100, sizes);
    }

    private static Optional<String> unsupported(Kernel kernel, Schedule.LockDataflow schedule, LockMechanism mechanism,
                                                GpuTarget target) {
        KernelGraph graph = Pipeline.compile(kernel);
        return GpuMapper.unsupported(SchedulePlanner.plan(graph, schedule), Optional.of(mechanism), target);
    }

    @Test
    void needlemanWunschRunsAWarpPerBandWithTheWestEdgeAsReadyWords() {
        BandMapping nw = map(NW, PERSISTENT, LockMechanism.TINY_LOCK, 4096, 4096);
        assertEquals(128, nw.bands());
        assertEquals(1, nw.warpsPerBlock(), "128 bands on 132 SMs: a block, and an SM, per band");
        assertEquals(128, nw.blocks(), "every band has a warp of its own, all resident");
        assertEquals(4127, nw.stepsPerBand());
        assertEquals(2, nw.history()[nw.graph().fields().stream().filter(f -> f.name().equals("score")).findFirst()
                .orElseThrow().id()], "the north-west read is lane l-1's value two steps back");
        assertTrue(nw.edge().readyWords());
        assertEquals(1, nw.edge().columns());
        assertEquals(1, nw.edge().groupRows());
        assertEquals(8L * 128 * 4096, nw.edge().tokenBytes(), "a 64-bit word per row of every band's last column");
        assertEquals(1, nw.inputRings().size(), "the reference is read in the lane's own column: staged");
        assertEquals(1, nw.outputRings().size());
        assertTrue(nw.helpers(), "a band alone in its block hands its rows and its edge to two helper warps");
        assertEquals(96, nw.threadsPerBlock());
        assertEquals(49152, nw.warpSharedBytes(), "256 rows of the input and 128 of the output, 32 ints each");
        assertTrue(nw.describe().contains("read:       score[i-1, j-1]: shuffled from lane l-1's value 2 step(s) back"),
                nw.describe());
    }

    @Test
    void helperWarpsTakeABandsRowsWhereItIsAloneInItsBlockAndTheirRingsFit() {
        BandMapping nw = map(NW, PERSISTENT.columnsPerLane(4), LockMechanism.TINY_LOCK, 16384, 16384);
        assertTrue(nw.helpers());
        assertEquals(BandMapping.HELPER_INPUT_RING_ROWS, nw.inputRings().getFirst().rows());
        assertEquals(BandMapping.HELPER_OUTPUT_RING_ROWS, nw.outputRings().getFirst().rows());
        assertEquals(128, nw.blocks(), "a block of three warps per band, every band resident");
        assertTrue(nw.describe().contains("helpers:    2 more warps per block"), nw.describe());
        assertTrue(nw.describe().contains("two edge windows of 33 rows"), nw.describe());
        assertTrue(nw.resources().sharedBytes() <= H100.sharedBytesPerBlockOptIn());
        BandMapping eight = map(NW, PERSISTENT.columnsPerLane(8), LockMechanism.TINY_LOCK, 16384, 16384);
        assertFalse(eight.helpers(), "rings of 256 and 128 rows of 257 ints would not fit a block");
        assertEquals(BandMapping.INPUT_RING_ROWS, eight.inputRings().getFirst().rows());
        assertEquals(32, eight.threadsPerBlock());
        BandMapping twoWaves = map(NW, PERSISTENT.columnsPerLane(4), LockMechanism.TINY_LOCK, 32768, 32768);
        assertFalse(twoWaves.helpers(), "256 bands: a block of helpers an SM would run them in two waves");
        assertTrue(twoWaves.describe().contains("helpers:    none, the band's warp moves its own rows: only 132 blocks of 198408"
                + " bytes are resident at once, for 256 bands"), twoWaves.describe());
        assertTrue(eight.describe().contains("helpers:    none, the band's warp moves its own rows: their rings would take"),
                eight.describe());
        assertEquals(256, twoWaves.blocks(), "two one-warp blocks an SM, every band resident");
        KernelGraph graph = Pipeline.compile(NW);
        BandMapping model = (BandMapping) GpuMapper.map(SchedulePlanner.plan(graph, PERSISTENT.columnsPerLane(4)),
                Optional.of(LockMechanism.TINY_LOCK), GpuTarget.of(SimtProfile.load("hopper-h200")), new int[] {16384, 16384});
        assertFalse(model.helpers(), "the model's band is one warp that moves its own rows");
        assertFalse(model.describe().contains("helpers:"), "a target that never takes helpers says nothing of them");
        assertEquals(BandMapping.INPUT_RING_ROWS, model.inputRings().getFirst().rows());
    }

    @Test
    void widerLanesMeanFewerWiderBandsAndRingsPaddedAgainstBankConflicts() {
        BandMapping four = map(NW, PERSISTENT.columnsPerLane(4), LockMechanism.TINY_LOCK, 4096, 4096);
        assertEquals(4, four.laneColumns());
        assertEquals(128, four.bandWidth());
        assertEquals(32, four.bands());
        assertEquals(129, four.inputRings().getFirst().stride(), "a row one element longer than the band: lane l's column"
                + " 4l + c of row s - l falls in bank (s + 3l + c) mod 32, a different bank for every lane");
        assertEquals((256 + 128) * 129 * 4, four.warpSharedBytes(), "the helpers' rings");
        assertEquals(1, four.warpsPerBlock(), "32 bands: one per block, so one per SM");
        assertEquals(32, four.blocks());
        BandMapping wide = map(NW, PERSISTENT.columnsPerLane(4), LockMechanism.TINY_LOCK, 4096, 65536);
        assertEquals(512, wide.bands());
        assertFalse(wide.helpers(), "512 bands: several a block, each warp moving its own rows");
        assertEquals((128 + 64) * 129 * 4, wide.warpSharedBytes());
        assertEquals(1, wide.warpsPerBlock(), "a warp's rings a block, two blocks an SM: as many warps as one block of two");
        assertEquals(264, wide.blocks(), "264 warps walk the 512 bands, two each");
        assertEquals(8L * 32 * 4096, four.edge().tokenBytes(), "a ready word per row of each band's last column");
        assertTrue(four.describe().contains("ownership:  a warp per band, lane l owns columns 4l to 4l + 3 of it"), four.describe());
        assertTrue(four.launchPlan().startsWith("lock-dataflow:persistent:columns=4 with tiny-lock: 32 bands of 128 columns"),
                four.launchPlan());
        BandMapping one = map(NW, PERSISTENT.columnsPerLane(1), LockMechanism.TINY_LOCK, 4096, 4096);
        assertEquals(32, one.inputRings().getFirst().stride(), "one-column lanes read 32 consecutive banks unpadded");
        assertEquals(map(NW, PERSISTENT, LockMechanism.TINY_LOCK, 4096, 4096).describe(), one.describe());
    }

    @Test
    void eachBandTakesABlockOfItsOwnWhileEveryBandStaysResident() {
        // sm_90: 132 SMs, 32 blocks and 227 KiB of shared memory an SM (1 KiB of each block reserved)
        assertEquals(1, MapBands.warpsPerBlock(3, H100, 1024, 0));
        assertEquals(1, MapBands.warpsPerBlock(512, H100, 12 * 1024, 2304), "512 blocks of one warp: four an SM");
        assertEquals(1, MapBands.warpsPerBlock(4224, H100, 1024, 0), "32 blocks an SM, the most an SM holds");
        assertEquals(2, MapBands.warpsPerBlock(4225, H100, 1024, 0), "one more band: two warps a block");
        assertEquals(2, MapBands.warpsPerBlock(100_000, H100, 1024, 0),
                "none keeps every band resident: 32 blocks of two warps an SM hold as many as 16 of four, the most");
        assertEquals(1, MapBands.warpsPerBlock(500, H100, 60 * 1024, 0), "three blocks of one 60 KiB warp an SM, one of two: one keeps more");
    }

    @Test
    void flagsAndLocksKeepATokenPerRowOrPerGroupOfRows() {
        BandMapping perRow = map(NW, PERSISTENT, LockMechanism.ACQUIRE_RELEASE_FLAG, 256, 256);
        assertFalse(perRow.edge().readyWords());
        assertEquals(1, perRow.edge().groupRows());
        assertEquals(4L * 8 * 256, perRow.edge().tokenBytes());
        BandMapping grouped = map(NW, PERSISTENT.warpShared(32), LockMechanism.ATOMIC_SPIN_LOCK, 256, 256);
        assertEquals(LockMechanism.ATOMIC_SPIN_LOCK, grouped.mechanism().id(), "no warp form replaces it on a band edge");
        assertEquals(32, grouped.edge().groupRows());
        assertEquals(4L * 8 * 8, grouped.edge().tokenBytes());
    }

    @Test
    void anInputReadInAnotherColumnComesFromGlobalMemory() {
        BandMapping smooth = map(SMOOTH, PERSISTENT, LockMechanism.ACQUIRE_RELEASE_FLAG, 100, 70);
        assertTrue(smooth.inputRings().isEmpty(), "grid[i, j+1] is not in the lane's own column");
        assertEquals(3, smooth.bands(), "70 columns: two full bands and a partial one");
        assertEquals(3, smooth.blocks(), "a band per block, so per SM");
        assertEquals(1, smooth.warpsPerBlock());
    }

    /** A double edge has no room for tiny-lock's bit beside the value: a ready word per row, as acquire-release's. */
    @Test
    void tinyLockOnADoubleEdgeTakesAReadyWordPerRow() {
        assertEquals(Optional.empty(), unsupported(SMOOTH, PERSISTENT, LockMechanism.TINY_LOCK, H100));
        BandMapping tiny = map(SMOOTH, PERSISTENT, LockMechanism.TINY_LOCK, 100, 70);
        assertFalse(tiny.edge().readyWords());
        assertEquals(1, tiny.edge().groupRows());
        assertEquals(4L * 3 * 100, tiny.edge().tokenBytes(), "a 32-bit ready word per row of every band");
        BandMapping.BandEdge flags = map(SMOOTH, PERSISTENT, LockMechanism.ACQUIRE_RELEASE_FLAG, 100, 70).edge();
        assertEquals(List.of(flags.columns(), flags.rowsBack(), flags.groupRows(), flags.tokenBytes()),
                List.of(tiny.edge().columns(), tiny.edge().rowsBack(), tiny.edge().groupRows(), tiny.edge().tokenBytes()),
                "the same edge as acquire-release's");
    }

    @Test
    void whatBandsRefuseIsOneReasonEach() {
        Kernel chain = kernel("chain").domain(dim("i", "n")).state("a", INT, boundary(constant(0)))
                .actor("add", "a", a -> a.read("a", -1).plus(1)).build();
        assertEquals(Optional.of("lock-dataflow:persistent deals bands of columns to warps, which needs a 2D domain; kernel"
                + " 'chain' has 1 dimension(s); use lock-dataflow"), unsupported(chain, PERSISTENT, LockMechanism.TINY_LOCK, H100));
        assertEquals(Optional.of("lock-dataflow:persistent carries values along a band by warp shuffle, which profile"
                + " fermi-gtx570 does not model; run it on the cuda backend, or use lock-dataflow here"),
                unsupported(NW, PERSISTENT, LockMechanism.TINY_LOCK, FERMI));
        assertTrue(unsupported(NW, PERSISTENT, LockMechanism.SHARED_SPIN_LOCK, H100).orElseThrow()
                .startsWith("shared-spin-lock keeps its tokens in one block's shared memory"));
        assertTrue(unsupported(NW, PERSISTENT.warpShared(32), LockMechanism.TINY_LOCK, H100).orElseThrow()
                .startsWith("tiny-lock's token is the ready bit beside each value, one per point"));
        Kernel farWest = kernel("far-west").domain(dim("i", "rows"), dim("j", "cols")).state("a", INT, boundary(constant(0)))
                .actor("add", "a", a -> a.read("a", -1, 0).plus(a.read("a", 0, -40))).build();
        assertEquals(Optional.of("kernel 'far-west' reads a 40 columns back, beyond the band to the left (bands are 32"
                + " columns wide); use lock-dataflow"), unsupported(farWest, PERSISTENT, LockMechanism.ACQUIRE_RELEASE_FLAG, H100));
        assertEquals(Optional.empty(), unsupported(NW, PERSISTENT, LockMechanism.ATOMIC_SPIN_LOCK, H100));
    }

    @Test
    void theScheduleSpellsItselfAndParsesBack() {
        assertEquals("lock-dataflow:persistent", PERSISTENT.cliName());
        assertEquals(Optional.of(PERSISTENT), Schedule.parse("lock-dataflow:persistent"));
        assertTrue(PERSISTENT.mechanism(LockMechanism.TINY_LOCK).persistentLaunch(), "a later choice keeps it persistent");
        assertFalse(lockDataflow().persistentLaunch());
    }

    /** A sequence alignment: a substitution table indexed by {@code first} and {@code second}, sequences along i ("a") or j ("b"). */
    private static Kernel aligned(String name, int symbols, String first, String second) {
        return aligned(name, symbols, c -> c.read(first, 0), c -> c.read(second, 0));
    }

    /** An alignment of sequences a (along i) and b (along j) whose table is indexed by {@code first} and {@code second}. */
    private static Kernel aligned(String name, int symbols, Function<ActorContext, Expr> first, Function<ActorContext, Expr> second) {
        return kernel(name).domain(dim("i", "rows"), dim("j", "cols"))
                .input("a", INT, along("i"))
                .input("b", INT, along("j"))
                .table("sub", INT, symbols, symbols)
                .state("score", INT, boundary(index("i").plus(index("j")).negate()))
                .actor("cell", "score", c -> max(
                        c.read("score", -1, -1).plus(c.lookup("sub", first.apply(c), second.apply(c))),
                        c.read("score", -1, 0).minus(1),
                        c.read("score", 0, -1).minus(1)))
                .build();
    }

    @Test
    void aTableIndexedByTheLanesOwnSequenceValueIsAQueryProfile() {
        for (int columns : new int[] {1, 4, 8}) {
            BandMapping mapping = map(aligned("align", 24, "a", "b"), lockDataflow().persistent().columnsPerLane(columns), LockMechanism.TINY_LOCK,
                    4096, 4096);
            assertEquals(1, mapping.profiles().size(), mapping.describe());
            LaneProfile profile = mapping.profiles().getFirst();
            assertEquals(1, profile.laneAxis());
            assertEquals("b", profile.sequence().name());
            assertEquals(24, profile.otherExtent());
            assertEquals(24 * columns * 32 * 4, profile.bytes());
            assertEquals(profile.offsetBytes() + profile.bytes(), mapping.warpSharedBytes(), "the profile is the warp's dynamic shared memory");
            assertTrue(mapping.describe().contains("profile:    sub: indexed by sequence 'b'"), mapping.describe());
            // eight columns of 4-byte entries load four at a time; fewer columns ran slower so (LaneProfile)
            assertEquals(columns == 8 ? 4 : 1, profile.columnsALoad(), mapping.describe());
            assertEquals(columns == 8, mapping.describe().contains("one conflict-free 16-byte load for four cells"), mapping.describe());
        }
    }

    @Test
    void aWideProfileLaysFourColumnsSideBySide() {
        LaneProfile wide = map(aligned("align", 24, "a", "b"), lockDataflow().persistent().columnsPerLane(8), LockMechanism.TINY_LOCK,
                4096, 4096).profiles().getFirst();
        // lane 0's entry of column c at other index 0: columns 0 to 3 in the first 16 bytes, 4 to 7 past all 32 lanes' first 16
        for (int c = 0; c < 8; c++) {
            assertEquals((c / 4) * 32 * 16 + (c % 4) * 4, wide.columnByte(c, 4), "column " + c);
        }
        assertEquals("((x * 2 + 1) * 32 + lane) * 4 + 3", wide.element("x", 8, 7));
        assertEquals("(x * 2 + 1) * 32 + lane", wide.load("x", 8, 1), "the int4 that holds columns 4 to 7");
        LaneProfile narrow = map(aligned("align", 24, "a", "b"), lockDataflow().persistent().columnsPerLane(4), LockMechanism.TINY_LOCK,
                4096, 4096).profiles().getFirst();
        assertEquals(3 * 32 * 4, narrow.columnByte(3, 4));
        assertEquals("(x * 4 + 3) * 32 + lane", narrow.element("x", 4, 3));
        // a row index that differs between a lane's columns reads a word a cell: side by side, lanes would share banks
        Kernel shifted = aligned("shifted", 24, c -> c.read("a", 0).plus(index("j")).and(15), c -> c.read("b", 0));
        LaneProfile perColumn = map(shifted, lockDataflow().persistent().columnsPerLane(8), LockMechanism.TINY_LOCK, 4096, 4096)
                .profiles().getFirst();
        assertEquals(1, perColumn.columnsALoad());
        // a lookup in a select's branch is not a row lookup (not every cell takes it): it too reads a column at a time
        Kernel branch = kernel("branch").domain(dim("i", "rows"), dim("j", "cols"))
                .input("a", INT, along("i")).input("b", INT, along("j")).table("sub", INT, 24, 24)
                .state("score", INT, boundary(index("i").plus(index("j")).negate()))
                .actor("cell", "score", c -> max(
                        c.read("score", -1, -1).plus(c.lookup("sub", c.read("a", 0), c.read("b", 0))),
                        c.read("score", -1, 0).minus(select(c.read("a", 0).greaterThan(3), c.lookup("sub", c.read("a", 0), c.read("b", 0)), constant(1))),
                        c.read("score", 0, -1).minus(1)))
                .build();
        BandMapping branched = map(branch, lockDataflow().persistent().columnsPerLane(8), LockMechanism.TINY_LOCK, 4096, 4096);
        assertEquals(1, branched.rowLookups().size(), branched.describe());
        assertEquals(1, branched.profiles().getFirst().columnsALoad());
    }

    /**
     * A band left of a kept box stores none of it, so its chunk beside the box's rows runs steady: a run waits for the
     * chain of bands' ends, where a checked chunk cost three steady ones (results/cuda-h200-2026-12-02/band-ends).
     */
    @Test
    void theBandsLeftOfAKeptBoxStepSteadilyBesideItsRows() {
        for (Keep keep : new Keep[] {Keep.FINAL, Keep.LAST_ROW}) {
            Kernel kept = kernel("kept").domain(dim("i", "rows"), dim("j", "cols"))
                    .input("a", INT, along("i")).input("b", INT, along("j")).table("sub", INT, 24, 24)
                    .state("score", INT, boundary(index("i").plus(index("j")).negate()))
                    .actor("cell", "score", c -> max(
                            c.read("score", -1, -1).plus(c.lookup("sub", c.read("a", 0), c.read("b", 0))),
                            c.read("score", -1, 0).minus(1),
                            c.read("score", 0, -1).minus(1)))
                    .keep("score", keep)
                    .build();
            BandMapping mapping = map(kept, lockDataflow().persistent().columnsPerLane(8), LockMechanism.TINY_LOCK, 4096, 4096);
            var score = mapping.graph().field("score");
            assertTrue(mapping.folding().folds(score), mapping.describe());
            // 16 bands of 256 columns: the final point lies in the last; the last row spans them all
            assertEquals(keep == Keep.FINAL ? 15 : 0, mapping.kept().bandsLeftOf(score), keep.toString());
            assertTrue(mapping.kept().rowsCheckChunks(score), "the band over the box checks its chunks beside the box's rows");
        }
    }

    /**
     * Found in review: the helpers' residency check left out the query profile, so 157 bands of a kernel with a
     * profile, a staged table and a matrix input took helpers while only 132 of their blocks could be resident.
     */
    @Test
    void helperWarpsCountTheProfileAndTheTablesInTheirBlock() {
        Kernel profiled = kernel("profiled").domain(dim("i", "rows"), dim("j", "cols"))
                .input("a", INT, along("i")).input("b", INT, along("j")).input("w", INT).table("sub", INT, 40, 40)
                .state("score", INT, boundary(index("i").plus(index("j")).negate()))
                .actor("cell", "score", c -> max(c.read("score", -1, -1).plus(c.lookup("sub", c.read("a", 0), c.read("b", 0)))
                        .plus(c.read("w", 0, 0)), c.read("score", -1, 0).minus(1), c.read("score", 0, -1).minus(1)))
                .build();
        BandMapping many = map(profiled, PERSISTENT.columnsPerLane(2), LockMechanism.TINY_LOCK, 1000, 10000);
        assertEquals(157, many.bands());
        assertFalse(many.helpers(), "116744 bytes a block leave one an SM: 132 blocks for 157 bands");
        assertTrue((long) many.blocks() * many.warpsPerBlock() >= many.bands(), "every band resident");
        assertEquals(1, many.profiles().size());
        BandMapping few = map(profiled, PERSISTENT.columnsPerLane(2), LockMechanism.TINY_LOCK, 1000, 1000);
        assertTrue(few.helpers(), "16 bands: a block each, with helpers");
        assertEquals(1, few.profiles().size());
    }

    @Test
    void aSequenceAlongTheRowsIsLoadedAStepAhead() {
        BandMapping aligned = map(aligned("align", 24, "a", "b"), PERSISTENT, LockMechanism.TINY_LOCK, 512, 512);
        assertEquals(List.of("a"), aligned.rowSequences().stream().map(f -> f.name()).toList());
        assertTrue(aligned.describe().contains("sequence:   a: one value per lane and step (its row), loaded a step ahead\n"),
                aligned.describe());
        assertEquals(List.of("b"), aligned.laneSequences().stream().map(f -> f.name()).toList(), "the columns' sequence is read once a band");
        assertFalse(aligned.rowLookupsReadTheRow(), "the row's table index reads only the sequence, which every step holds a step ahead");
    }

    @Test
    void aRowLookupWhoseIndexReadsTheRowItselfIsCheckedAtTheClampedRow() {
        // the table's row index names the row and takes it away again: the same value, but it reads i
        Kernel rowIndexed = aligned("row-indexed", 24, c -> c.read("a", 0).plus(index("i")).minus(index("i")), c -> c.read("b", 0));
        BandMapping mapping = map(rowIndexed, lockDataflow().persistent().columnsPerLane(4), LockMechanism.TINY_LOCK, 512, 512);
        assertEquals(1, mapping.rowLookups().size(), mapping.describe());
        assertTrue(mapping.rowLookupsReadTheRow());
    }

    @Test
    void theLanesSequenceMayIndexEitherAxis() {
        LaneProfile profile = map(aligned("transposed", 24, "b", "a"), PERSISTENT, LockMechanism.TINY_LOCK, 512, 512).profiles().getFirst();
        assertEquals(0, profile.laneAxis());
        assertEquals(1, profile.otherAxis());
    }

    @Test
    void aTableWhoseIndicesBothChangeOrTooLargeForSharedMemoryIsReadAsItIs() {
        // both indices change from step to step
        assertTrue(map(aligned("rows", 24, "a", "a"), PERSISTENT, LockMechanism.TINY_LOCK, 512, 512).profiles().isEmpty());
        // 1024 symbols x 4 columns x 32 lanes x 4 bytes = 512 KiB a warp: past what a warp may take
        BandMapping large = map(aligned("large", 1024, "a", "b"), lockDataflow().persistent().columnsPerLane(4), LockMechanism.TINY_LOCK, 512, 512);
        assertTrue(large.profiles().isEmpty(), large.describe());
        assertFalse(large.describe().contains("profile:"), large.describe());
    }

    @Test
    void aLookupOnlySomeCellsEvaluateGetsNoProfileWhoseFillWouldCheckItsIndex() {
        Kernel guarded = kernel("guarded").domain(dim("i", "rows"), dim("j", "cols"))
                .input("a", INT, along("i"))
                .input("b", INT, along("j"))
                .table("sub", INT, 24, 24)
                .state("score", INT, boundary(index("i").plus(index("j")).negate()))
                .actor("cell", "score", c -> max(
                        c.read("score", -1, -1).plus(select(c.read("b", 0).lessThan(constant(24)),
                                c.lookup("sub", c.read("a", 0), c.read("b", 0)), constant(-5))),
                        c.read("score", -1, 0).minus(1),
                        c.read("score", 0, -1).minus(1)))
                .build();
        assertTrue(map(guarded, PERSISTENT, LockMechanism.TINY_LOCK, 512, 512).profiles().isEmpty());
    }

    @Test
    void aProfileThatWouldNotLetOneWarpFitABlockIsDropped() {
        // eight columns a lane: an input ring and an output ring of ints take most of a block; a 32 x 32 profile (32 KiB)
        // on top would pass what an H100 block may opt into, and the kernel maps with its table read as it is
        Kernel heavy = kernel("heavy").domain(dim("i", "rows"), dim("j", "cols"))
                .input("a", INT, along("i"))
                .input("b", INT, along("j"))
                .input("g", INT)
                .table("sub", INT, 32, 32)
                .state("score", INT, boundary(index("i").plus(index("j")).negate()))
                .actor("cell", "score", c -> max(
                        c.read("score", -1, -1).plus(c.lookup("sub", c.read("a", 0), c.read("b", 0))).plus(c.read("g", 0, 0)),
                        c.read("score", -1, 0).minus(1),
                        c.read("score", 0, -1).minus(1)))
                .build();
        BandMapping mapping = map(heavy, lockDataflow().persistent().columnsPerLane(8), LockMechanism.TINY_LOCK, 4096, 4096);
        assertTrue(mapping.profiles().isEmpty(), mapping.describe());
        assertTrue(mapping.resources().sharedBytes() <= H100.sharedBytesPerBlockOptIn(), mapping.describe());
    }
}
