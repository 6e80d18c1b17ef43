package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.BackendRun;
import dev.finegrain.compiler.ir.KernelExecutionException;
import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.compare.FermiCalibration;
import dev.finegrain.compiler.backend.jvm.JvmBackend;
import dev.finegrain.compiler.backend.reference.SequentialOracle;
import dev.finegrain.compiler.backend.gpu.GpuMapper;
import dev.finegrain.compiler.backend.gpu.WavefrontMapping;
import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.GoldenKernels;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.ChannelPolicy;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.GridBarrier;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;
import dev.finegrain.dsl.Type;
import dev.finegrain.dsl.WaitPolicy;
import dev.finegrain.gpu.runtime.SimtProfile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import static dev.finegrain.dsl.Finegrain.abs;
import static dev.finegrain.dsl.Finegrain.along;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.index;
import static dev.finegrain.dsl.Finegrain.iterate;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.max;
import static dev.finegrain.dsl.Finegrain.select;
import static dev.finegrain.dsl.Type.DOUBLE;
import static dev.finegrain.dsl.Type.INT;
import static dev.finegrain.dsl.Type.LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The GPU model backend: every schedule and mechanism it accepts computes what the oracle computes. */
class GpuModelBackendTest {

    private static final Kernel NW = GoldenKernels.needlemanWunsch();

    /** Seed 001's validation chain with a hash as the independent computation (a loop in the program). */
    private static final Kernel CHAIN = kernel("chain-like")
            .domain(dim("i", "n"))
            .param("work", INT)
            .state("a", INT, boundary(index("i").negate()))
            .actor("link", "a", a -> a.read("a", -32).plus(
                    iterate(a.param("work"), a.index("i"), x -> x.times(1664525).plus(1013904223))))
            .build();

    /**
     * An actor whose value is a register of another field's history ({@code b = a[i-2, j]}, b read a row down), so that
     * a steady band step must copy it before the histories move on, where it takes a computed value as it is otherwise.
     */
    private static final Kernel ALIASED = kernel("aliased")
            .domain(dim("i", "rows"), dim("j", "cols"))
            .input("r", INT)
            .state("a", INT, boundary(index("i").plus(index("j"))))
            .state("b", INT, boundary(constant(3)))
            .actor("a", "a", c -> c.read("a", 0, -1).plus(c.read("r", 0, 0)).xor(c.read("b", -1, 0)))
            .actor("b", "b", c -> c.read("a", -2, 0))
            .build();

    /** Two actors per point, a select, and shifts and bitwise operators. */
    private static final Kernel MIXED = kernel("mixed")
            .domain(dim("i", "rows"), dim("j", "cols"))
            .input("same", INT)
            .state("length", INT, boundary(constant(0)))
            .state("mark", INT, boundary(constant(7)))
            .actor("lcs", "length", a -> select(
                    a.read("same", 0, 0).isEqualTo(constant(1)),
                    a.read("length", -1, -1).plus(1),
                    max(a.read("length", -1, 0), a.read("length", 0, -1))))
            .actor("mark", "mark", a -> a.read("length", 0, 0).shiftLeft(3)
                    .xor(a.read("mark", -1, 0)).minus(abs(a.index("j").negate())).not())
            .build();

    private static final GpuModelBackend FERMI = new GpuModelBackend("fermi-gtx570");
    private static final GpuModelBackend HOPPER = new GpuModelBackend("hopper-h200");

    @Test
    void everyScheduleAndMechanismMatchesTheOracleOnFermi() {
        assertAllVerified(FERMI, NW, new int[] {40, 37}, List.of(new Schedule.Wavefront(),
                new Schedule.DataParallel(List.of(16, 16)), new Schedule.LockDataflow()));
        assertAllVerified(FERMI, CHAIN, new int[] {200}, List.of(new Schedule.Wavefront(),
                new Schedule.DataParallel(List.of(16)), new Schedule.LockDataflow()));
        assertAllVerified(FERMI, MIXED, new int[] {33, 70}, List.of(new Schedule.Wavefront(),
                new Schedule.DataParallel(List.of(8, 8)), new Schedule.LockDataflow()));
    }

    /**
     * A 2D kernel whose planned hyperplane is not (1,1) (it reads only west, only north, only north-west, or nothing)
     * still runs on the model's wavefront, along the anti-diagonals, which order every dependence the GPU takes; so
     * does dynamic dataflow over its tiles.
     */
    @Test
    void every2dKernelRunsOnTheWavefrontAlongTheAntiDiagonals() {
        int[][] reads = {{0, -1}, {-1, 0}, {-1, -1}, {}};
        List<String> names = List.of("reads-west", "reads-north", "reads-north-west", "reads-nothing");
        for (int r = 0; r < reads.length; r++) {
            int[] read = reads[r];
            Kernel kernel = kernel(names.get(r))
                    .domain(dim("i", "rows"), dim("j", "cols")).input("b", INT).state("s", INT, boundary(index("i")))
                    .actor("cell", "s", a -> (read.length == 0 ? a.read("b", 0, 0) : a.read("s", read[0], read[1]))
                            .times(3).plus(a.read("b", 0, 0)))
                    .build();
            for (GpuModelBackend backend : List.of(FERMI, HOPPER)) {
                assertAllVerified(backend, kernel, new int[] {40, 48}, List.of(new Schedule.Wavefront(),
                        new Schedule.DynamicDataflow().tile(8)));
            }
        }
    }

    /** Sizes the tile does not divide run with the tiles at the high edges cut short, in 1D, 2D and 3D. */
    @Test
    void raggedEdgeTilesRunOnTheModel() {
        for (GpuModelBackend backend : List.of(FERMI, HOPPER)) {
            assertAllVerified(backend, CHAIN, new int[] {200}, List.of(new Schedule.DataParallel(List.of(48)),
                    new Schedule.DynamicDataflow().tile(48)));
            assertAllVerified(backend, NW, new int[] {40, 37}, List.of(new Schedule.DynamicDataflow().tile(16)));
            assertAllVerified(backend, dev.finegrain.compiler.backend.gpu.GpuGoldenCatalog.box3d(), new int[] {13, 10, 7},
                    List.of(new Schedule.DataParallel(List.of(4, 5, 3)), new Schedule.DynamicDataflow().tile(4, 5, 3)));
        }
    }

    @Test
    void aProfileReadFromAFileRunsAsLoaded(@TempDir Path dir) throws IOException {
        // the launches once looked the profile up again by its name, which only built-in profiles have
        Path file = dir.resolve("slow-barrier.properties");
        try (InputStream builtIn = SimtProfile.class.getResourceAsStream("/dev/finegrain/gpu/profiles/fermi-gtx570.properties")) {
            String text = new String(builtIn.readAllBytes(), StandardCharsets.UTF_8);
            int barrier = FermiCalibration.valueIn(text, "latency.namedBarrier");
            Files.writeString(file, FermiCalibration.withValue(text.replace("profile.name=fermi-gtx570",
                    "profile.name=slow-barrier"), "latency.namedBarrier", 10 * barrier));
        }
        GpuModelBackend fromFile = new GpuModelBackend(file.toString());
        assertAllVerified(fromFile, CHAIN, new int[] {256}, List.of(new Schedule.LockDataflow()));

        KernelGraph graph = Pipeline.compile(CHAIN);
        Variant namedBarriers = new Variant(graph, SchedulePlanner.plan(graph, new Schedule.LockDataflow()),
                Optional.of(LockMechanism.NAMED_BARRIER));
        Invocation invocation = inputs(CHAIN, new int[] {256});
        double slow = fromFile.run(namedBarriers, invocation, RunSettings.once(1, 1)).value();
        double fast = FERMI.run(namedBarriers, invocation, RunSettings.once(1, 1)).value();
        assertTrue(slow > fast, "the file's slower barrier is what runs: " + slow + " against " + fast + " cycles");
    }

    @Test
    void independentThreadSchedulingRunsThePerThreadMechanisms() {
        assertAllVerified(HOPPER, NW, new int[] {45, 50}, List.of(new Schedule.Wavefront(), new Schedule.LockDataflow()));
        assertAllVerified(HOPPER, CHAIN, new int[] {1100}, List.of(new Schedule.Wavefront(), new Schedule.LockDataflow()));
    }

    /**
     * lock-dataflow:persistent on the model (warp shuffles, the band edge in global memory): every mechanism the Hopper
     * profiles offer for it, bands cut short at the right edge, two actors, warp-shared token groups, more bands than
     * resident warps (one SM), and both profiles.
     */
    @Test
    void persistentBandsMatchTheOracleOnHopper() {
        Schedule bands = new Schedule.LockDataflow().persistent();
        for (GpuModelBackend backend : List.of(HOPPER, new GpuModelBackend("hopper-h100"))) {
            assertAllVerified(backend, NW, new int[] {70, 45}, List.of(bands));
            assertAllVerified(backend, ALIASED, new int[] {130, 70}, List.of(bands));   // rows enough for steady chunks
            // token groups of 8 rows (a shift) and of 6 (a division)
            assertAllVerified(backend, MIXED, new int[] {40, 100}, List.of(bands, new Schedule.LockDataflow().persistent().warpShared(8),
                    new Schedule.LockDataflow().persistent().warpShared(6)));
        }
        assertAllVerified(new GpuModelBackend("hopper-h200@sm.count=1@sm.maxBlocks=2"), NW, new int[] {50, 300}, List.of(bands));
        KernelGraph graph = Pipeline.compile(NW);
        // the reference comes through an input ring copied a chunk ahead where the profile copies asynchronously, and
        // is read in the step from global memory where it does not
        GpuModelBackend noAsyncCopy = new GpuModelBackend("hopper-h200@feature.asyncCopy=false");
        assertAllVerified(noAsyncCopy, NW, new int[] {70, 45}, List.of(bands));
        Variant tinyBands = new Variant(graph, SchedulePlanner.plan(graph, bands), Optional.of(LockMechanism.TINY_LOCK));
        String ringed = HOPPER.lower(tinyBands, new int[] {70, 45}).program();
        assertTrue(ringed.contains("LDGSTS") && ringed.contains("DEPBAR"), ringed);
        // the model writes the ring at issue, so only the order of the program says that a chunk's steps wait for it
        assertTrue(ringed.indexOf("DEPBAR") < ringed.indexOf("from my ring"), "a chunk waits for its rows before it reads them");
        String direct = noAsyncCopy.lower(tinyBands, new int[] {70, 45}).program();
        assertFalse(direct.contains("LDGSTS") || direct.contains("DEPBAR"), direct);
        assertEquals(List.of(LockMechanism.ATOMIC_SPIN_LOCK, LockMechanism.TINY_LOCK, LockMechanism.ACQUIRE_RELEASE_FLAG),
                HOPPER.mechanisms(SchedulePlanner.plan(graph, bands)).stream().filter(m -> m == LockMechanism.TINY_LOCK
                        || m == LockMechanism.ATOMIC_SPIN_LOCK || m == LockMechanism.ACQUIRE_RELEASE_FLAG).toList());
        // lanes of several columns run on the model too (BandLanesModelTest)
        assertEquals(Optional.empty(), HOPPER.unsupported(SchedulePlanner.plan(graph, new Schedule.LockDataflow().persistent()
                .columnsPerLane(4)), LockMechanism.TINY_LOCK));
        Kernel rowSequence = kernel("row-sequence").domain(dim("i", "rows"), dim("j", "cols"))
                .input("a", INT, along("i"))
                .state("score", INT, boundary(index("i").plus(index("j")).negate()))
                .actor("cell", "score", c -> max(c.read("score", -1, -1).plus(c.read("a", 0)),
                        c.read("score", -1, 0).minus(1), c.read("score", 0, -1).minus(1)))
                .build();
        // a sequence along the rows, which CUDA's steady steps load a step ahead, is read in its step on the model
        assertAllVerified(HOPPER, rowSequence, new int[] {70, 45}, List.of(bands));
        assertEquals(Optional.of("lock-dataflow:persistent carries values along a band by warp shuffle, which profile fermi-gtx570"
                + " does not have (feature.warpShuffle)"), FERMI.neverRuns(bands));
    }

    /**
     * On a profile with programmatic launch, data-parallel's launches after the first start the shorter gap after the one
     * before them and compute what the oracle computes. Where that is all that changes (a 1D tile, copied whole by loads
     * either way), the run is that much faster than the same launches on the profile with the feature off, less the
     * issue slots of ACQBULK and PREEXIT. (A 2D tile can change its copy beside programmatic launches too: TileCopies.)
     */
    @Test
    void dataParallelsLaunchesAfterTheFirstTakeTheProgrammaticGap() {
        GpuModelBackend off = new GpuModelBackend("hopper-h200@feature.programmaticLaunch=false");
        KernelGraph nw = Pipeline.compile(NW);
        Variant tiles = new Variant(nw, SchedulePlanner.plan(nw, new Schedule.DataParallel(List.of(16, 16))), Optional.empty());
        String overlapped = HOPPER.lower(tiles, new int[] {64, 64}).program();
        assertTrue(overlapped.contains("ACQBULK") && overlapped.contains("PREEXIT"), overlapped);
        assertFalse(off.lower(tiles, new int[] {64, 64}).program().contains("ACQBULK"));
        Invocation nwInputs = inputs(NW, new int[] {64, 64});
        assertEquals(Optional.empty(), SequentialOracle.run(nw, nwInputs).firstDifference(nw, new int[] {64, 64},
                HOPPER.run(tiles, nwInputs, RunSettings.once(1, 1)).outputs()));

        KernelGraph chain = Pipeline.compile(CHAIN);
        Variant chainTiles = new Variant(chain, SchedulePlanner.plan(chain, new Schedule.DataParallel(List.of(64))), Optional.empty());
        // enough work a link that each launch outlasts the interval between submissions, so the gap is what separates them
        Invocation invocation = CHAIN.invocation().sizes(new int[] {256}).param("work", 2000).build();
        BackendRun on = HOPPER.run(chainTiles, invocation, RunSettings.once(1, 1));
        BackendRun plain = off.run(chainTiles, invocation, RunSettings.once(1, 1));
        assertEquals(Optional.empty(), SequentialOracle.run(chain, invocation).firstDifference(chain, new int[] {256}, on.outputs()));
        SimtProfile h200 = SimtProfile.load("hopper-h200");
        int launches = 256 / 64;
        long gaps = (launches - 1L) * (h200.launchGapCycles() - h200.launchProgrammaticGapCycles());
        double saved = plain.value() - on.value();
        assertTrue(saved <= gaps && saved >= gaps - launches * 2 * 4 * h200.issueSlotCycles(),
                "the programmatic launches saved " + saved + " cycles; the gaps differ by " + gaps);
    }

    /**
     * A block's shared memory starts with a word no kernel computes (a GPU's holds what an earlier block left there): a
     * tile whose halo is all 0 (a single 16 x 16 tile, and ragged ones at 40 x 24) verifies only if its copy fetched every halo word it
     * reads, which the partial copies beside programmatic launches must do.
     */
    @Test
    void sharedMemoryStartsUnwrittenSoATileMustFetchEveryWordItReads() {
        Kernel zeroHalo = kernel("zero-halo").domain(dim("i", "n"), dim("j", "m"))
                .state("h", INT, boundary(constant(0)))
                .actor("cell", "h", c -> max(c.read("h", -1, -1).plus(1), c.read("h", -1, 0), c.read("h", 0, -1)))
                .build();
        assertAllVerified(HOPPER, zeroHalo, new int[] {16, 16}, List.of(new Schedule.DataParallel(List.of(16, 16))));
        assertAllVerified(HOPPER, zeroHalo, new int[] {40, 24}, List.of(new Schedule.DataParallel(List.of(16, 16))));
    }

    @Test
    void privateChannelsMatchTheOracle() {
        Kernel privateNw = NW.toBuilder().channelPolicy(ChannelPolicy.PRIVATE).build();
        assertAllVerified(FERMI, privateNw, new int[] {50, 50}, List.of(new Schedule.LockDataflow()));
        assertAllVerified(HOPPER, privateNw, new int[] {40, 40}, List.of(new Schedule.LockDataflow()));
    }

    /**
     * A guarded division whose divisor is zero where the guard holds not verifies (only the taken branch runs, as in
     * the oracle); the same division unguarded fails the run with the JVM backend's message.
     */
    @Test
    void integerDivisionByZeroFailsTheRunOnlyWhereItIsEvaluated() {
        Kernel guarded = kernel("dividing").domain(dim("i", "n")).input("d", INT).state("q", LONG, boundary(constant(7L)))
                .actor("step", "q", a -> select(a.read("d", 0).isNotEqualTo(0),
                        a.read("q", -1).plus(a.read("q", -1).dividedBy(a.read("d", 0).castTo(Type.LONG))),
                        a.read("q", -1).remainder(3).plus(1)))
                .build();
        Kernel unguarded = kernel("dividing").domain(dim("i", "n")).input("d", INT)
                .state("q", INT, boundary(constant(7)))
                .actor("step", "q", a -> a.read("q", -1).plus(100).dividedBy(a.read("d", 0)))
                .build();
        int[] divisors = {3, -2, 0, 5, 0, 1, -7, 2};
        for (GpuModelBackend backend : List.of(FERMI, HOPPER)) {
            for (Schedule schedule : List.of(new Schedule.Wavefront(), new Schedule.LockDataflow())) {
                KernelGraph graph = Pipeline.compile(guarded);
                Invocation invocation = guarded.invocation().sizes(8).input("d", divisors).build();
                Variant variant = new Variant(graph, SchedulePlanner.plan(graph, schedule),
                        backend.mechanisms(SchedulePlanner.plan(graph, schedule)).stream().findFirst());
                BackendRun run = backend.run(variant, invocation, RunSettings.once(1, 1));
                assertEquals(Optional.empty(), SequentialOracle.run(graph, invocation).firstDifference(graph,
                        new int[] {8}, run.outputs()), backend.name() + " " + schedule.cliName());
                KernelGraph failing = Pipeline.compile(unguarded);
                Variant failingVariant = new Variant(failing, SchedulePlanner.plan(failing, schedule),
                        backend.mechanisms(SchedulePlanner.plan(failing, schedule)).stream().findFirst());
                KernelExecutionException error = assertThrows(KernelExecutionException.class, () -> backend.run(
                        failingVariant, unguarded.invocation().sizes(8).input("d", divisors).build(), RunSettings.once(1, 1)));
                assertTrue(error.getMessage().startsWith("kernel 'dividing': integer division by zero in an actor body on"
                        + " the GPU model"), error.getMessage());
            }
        }
    }

    /** Found in review: a lane holding one shared token while it waited for another deadlocked its warp. */
    @Test
    void twoSharedChannelsAcrossWarpsDoNotHoldAndWait() {
        Kernel rows = kernel("two-reads-back")
                .domain(dim("i", "rows"), dim("j", "cols"))
                .state("s", INT, boundary(index("i").plus(index("j"))))
                .actor("sum", "s", a -> a.read("s", -1, 0).plus(a.read("s", -1, -1)).and(0xffff))
                .build();
        assertAllVerified(FERMI, rows, new int[] {40, 40}, List.of(new Schedule.LockDataflow()));
        Kernel chains = kernel("two-chains")
                .domain(dim("i", "n"))
                .state("a", INT, boundary(index("i")))
                .actor("link", "a", a -> a.read("a", -48).plus(a.read("a", -32)).plus(1))
                .build();
        assertAllVerified(FERMI, chains, new int[] {300}, List.of(new Schedule.LockDataflow()));
        assertAllVerified(HOPPER, chains, new int[] {300}, List.of(new Schedule.LockDataflow()));
    }

    /** Found in review: the independent computation ran on halo threads too and read past the shared window. */
    @Test
    void independentWorkReadingAheadRunsOnlyWhereAPointIsComputed() {
        Kernel ahead = kernel("reads-ahead")
                .domain(dim("i", "n"))
                .input("b", INT, 1)
                .state("a", INT, boundary(index("i")))
                .actor("link", "a", a -> a.read("a", -32).plus(a.read("b", 1).times(3)))
                .build();
        assertAllVerified(FERMI, ahead, new int[] {300}, List.of(new Schedule.LockDataflow(), new Schedule.Wavefront()));
    }

    /** Found in review: a size in an actor body reached the lowering as an internal error instead of a constant. */
    @Test
    void aSizeInAnActorBodyIsTheSizeLoweredFor() {
        Kernel distance = kernel("distance-to-edge")
                .domain(dim("i", "rows"), dim("j", "cols"))
                .state("d", INT, boundary(constant(0)))
                .actor("edge", "d", a -> max(a.read("d", -1, 0), a.read("d", 0, -1)).plus(a.size("cols").minus(a.index("j")))
                        .plus(a.size("rows")))
                .build();
        assertAllVerified(FERMI, distance, new int[] {40, 37}, List.of(new Schedule.Wavefront(),
                new Schedule.DataParallel(List.of(16, 16)), new Schedule.LockDataflow()));
    }

    /** Found in review: params beyond the fourteenth overlapped the barrier counter and the fields. */
    @Test
    void sixteenParamsKeepTheirOwnWords() {
        Kernel.Builder builder = kernel("many-params").domain(dim("i", "n"));
        for (int k = 0; k < 16; k++) {
            builder.param("p" + k, INT);
        }
        Kernel many = builder.state("a", INT, boundary(constant(0)))
                .actor("sum", "a", a -> {
                    var total = a.read("a", -1);
                    for (int k = 0; k < 16; k++) {
                        total = total.plus(a.param("p" + k).times(k + 1));
                    }
                    return total;
                })
                .build();
        assertAllVerified(FERMI, many, new int[] {100}, List.of(new Schedule.Wavefront(), new Schedule.LockDataflow()));
    }

    @Test
    void warpSharedGranularityTurnsLocksIntoTheirOneTokenPerWarpForms() {
        Kernel warpChain = CHAIN.toBuilder().warpShared(32).build();
        assertAllVerified(FERMI, warpChain, new int[] {700}, List.of(new Schedule.LockDataflow()));
        KernelGraph graph = Pipeline.compile(warpChain);
        SimtKernel tiny = FERMI.lower(new Variant(graph, SchedulePlanner.plan(graph, new Schedule.LockDataflow()),
                Optional.of(LockMechanism.TINY_LOCK)), new int[] {512});
        assertTrue(tiny.launchPlan().startsWith("lock-dataflow with tiny-lock in its warp-shared form, warp-vote"),
                tiny.launchPlan());
        assertTrue(tiny.program().contains("VOTE.ANY"), tiny.program());
        assertEquals(17, tiny.resources().explicitLockBits(), "one lock bit per warp");
        assertEquals(Optional.of("warp-shared groups of 16 actor instances do not match the GPU model's warps of 32;"
                + " use warpShared(32)"), FERMI.unsupported(SchedulePlanner.plan(Pipeline.compile(CHAIN.toBuilder().warpShared(16).build()), new Schedule.LockDataflow()), LockMechanism.TINY_LOCK));
    }

    @Test
    void mbarriersAreHoppersAndRefusedElsewhere() {
        KernelGraph graph = Pipeline.compile(NW);
        assertTrue(HOPPER.mechanisms(SchedulePlanner.plan(graph, new Schedule.LockDataflow())).contains(LockMechanism.MBARRIER));
        assertEquals(Optional.of("mbarrier needs a profile with feature.mbarrier (hopper-h100, hopper-h200); fermi-gtx570 has none"),
                FERMI.unsupported(SchedulePlanner.plan(graph, new Schedule.LockDataflow()), LockMechanism.MBARRIER));
    }

    @Test
    void largerGridsSpanSeveralPersistentBlocksAndManyTiles() {
        Kernel wide = kernel("wide")
                .domain(dim("i", "n"))
                .state("a", INT, boundary(index("i")))
                .actor("step", "a", a -> a.read("a", -2000).plus(3))
                .build();
        assertAllVerified(FERMI, wide, new int[] {5000}, List.of(new Schedule.Wavefront()));
        KernelGraph graph = Pipeline.compile(wide);
        SimtKernel wavefront = FERMI.lower(new Variant(graph, SchedulePlanner.plan(graph, new Schedule.Wavefront()),
                Optional.empty()), new int[] {5000});
        assertEquals(List.of(2), wavefront.blocksPerLaunch(), "2000 points a step need two blocks of 1024");
        assertTrue(wavefront.program().contains("XF inter-block barrier"), "fermi-gtx570's default barrier, XF:\n" + wavefront.program());
        assertAllVerified(FERMI, NW, new int[] {93, 124}, List.of(new Schedule.LockDataflow()));
    }

    @Test
    void tokenWaitsBackOffOrSleepWithNanosleepOnHopperAndAreRefusedWithoutIt() {
        for (WaitPolicy policy : List.of(WaitPolicy.BACKOFF, WaitPolicy.SLEEP)) {
            Schedule napping = new Schedule.LockDataflow().waitPolicy(policy);
            assertAllVerified(HOPPER, NW, new int[] {45, 50}, List.of(napping));
            assertAllVerified(HOPPER, CHAIN, new int[] {1100}, List.of(napping,
                    new Schedule.LockDataflow().waitPolicy(policy).mechanism(LockMechanism.MBARRIER).warpShared(32)));
            KernelGraph nw = Pipeline.compile(NW);
            SimtKernel lowered = HOPPER.lower(new Variant(nw, SchedulePlanner.plan(nw, napping),
                    Optional.of(LockMechanism.TINY_LOCK)), new int[] {45, 50});
            assertTrue(lowered.program().contains("NANOSLEEP"), lowered.program());
            assertEquals(Optional.of("wait policy " + policy + " naps with nanosleep, which profile fermi-gtx570 does not"
                    + " have (Volta and later, the Hopper profiles)"), FERMI.unsupportedKernel(SchedulePlanner.plan(nw, napping)));
        }
        assertTrue(HOPPER.repeatsAnotherRow(new Schedule.LockDataflow().waitPolicy(WaitPolicy.SPIN)).isPresent());
        KernelGraph nw = Pipeline.compile(NW);
        assertFalse(HOPPER.lower(new Variant(nw, SchedulePlanner.plan(nw, new Schedule.LockDataflow()),
                Optional.of(LockMechanism.TINY_LOCK)), new int[] {45, 50}).program().contains("NANOSLEEP"));
    }

    @Test
    void mbarrierWithWarpSharedGranularityKeepsOneBarrierPerWarp() {
        Schedule warpShared = new Schedule.LockDataflow().mechanism(LockMechanism.MBARRIER).warpShared(32);
        assertAllVerified(HOPPER, CHAIN, new int[] {1100}, List.of(warpShared,
                new Schedule.LockDataflow().mechanism(LockMechanism.MBARRIER_WARP)));
        KernelGraph chain = Pipeline.compile(CHAIN);
        SimtKernel lowered = HOPPER.lower(new Variant(chain, SchedulePlanner.plan(chain, warpShared),
                Optional.of(LockMechanism.MBARRIER)), new int[] {1100});
        assertTrue(lowered.program().contains("MBARRIER.INIT") && lowered.program().contains(", 0x20"),
                "armed for 32 arrivals:\n" + lowered.program());
        Optional<String> nw = HOPPER.unsupported(SchedulePlanner.plan(Pipeline.compile(NW), new Schedule.LockDataflow()),
                LockMechanism.MBARRIER_WARP);
        assertTrue(nw.orElse("").contains("inside or across part of a warp"), nw.toString());
        assertTrue(FERMI.unsupported(SchedulePlanner.plan(chain, new Schedule.LockDataflow()), LockMechanism.MBARRIER_WARP)
                .orElse("").contains("feature.mbarrier"));
    }

    @Test
    void aWavefrontsPersistentBlocksMeetAtTheBarrierItNames() {
        Kernel wide = kernel("wide")
                .domain(dim("i", "n"))
                .state("a", INT, boundary(index("i")))
                .actor("step", "a", a -> a.read("a", -2500).plus(3))
                .build();
        Schedule.Wavefront xf = new Schedule.Wavefront().barrier(GridBarrier.XF);
        for (GpuModelBackend profile : List.of(FERMI, HOPPER)) {
            assertAllVerified(profile, wide, new int[] {7000}, List.of(xf, new Schedule.Wavefront().barrier(GridBarrier.ATOMIC)));
        }
        KernelGraph graph = Pipeline.compile(wide);
        SimtKernel lowered = FERMI.lower(new Variant(graph, SchedulePlanner.plan(graph, xf), Optional.empty()),
                new int[] {7000});
        assertEquals(List.of(3), lowered.blocksPerLaunch(), "2500 points a step need three blocks of 1024");
        assertTrue(lowered.program().contains("XF inter-block barrier") && !lowered.program().contains("ATOM.ADD"),
                "flags, no atomics:\n" + lowered.program());
        assertEquals(Optional.of("profile fermi-gtx570 has no cooperative launch (grid.sync() is the CUDA target's)"),
                FERMI.unsupportedKernel(SchedulePlanner.plan(graph, new Schedule.Wavefront().barrier(GridBarrier.COOPERATIVE))));
    }

    @Test
    void aWavefrontsBarrierWaitersNapAsItsWaitPolicySays() {
        Kernel wide = kernel("wide").domain(dim("i", "n")).state("a", INT, boundary(index("i")))
                .actor("step", "a", a -> a.read("a", -2500).plus(3)).build();
        List<Schedule> napping = new java.util.ArrayList<>();
        for (GridBarrier barrier : List.of(GridBarrier.ATOMIC, GridBarrier.XF)) {
            for (dev.finegrain.dsl.WaitPolicy policy : List.of(dev.finegrain.dsl.WaitPolicy.BACKOFF, dev.finegrain.dsl.WaitPolicy.SLEEP)) {
                napping.add(new Schedule.Wavefront().barrier(barrier).waitPolicy(policy));
            }
        }
        assertAllVerified(HOPPER, wide, new int[] {7000}, napping);
        KernelGraph graph = Pipeline.compile(wide);
        SimtKernel lowered = HOPPER.lower(new Variant(graph, SchedulePlanner.plan(graph, napping.get(0)), Optional.empty()),
                new int[] {7000});
        assertTrue(lowered.program().contains("NANOSLEEP"), lowered.program());
        assertEquals(Optional.of("wait policy backoff naps with nanosleep, which profile fermi-gtx570 does not have (Volta"
                + " and later, the Hopper profiles)"), FERMI.unsupportedKernel(SchedulePlanner.plan(graph, napping.get(0))));
        assertEquals(Optional.of("wait policy sleep naps in Finegrain's own barriers (atomic, xf); the relaunch barrier"
                + " waits as the driver does"), HOPPER.unsupportedKernel(SchedulePlanner.plan(graph, new Schedule.Wavefront()
                .barrier(GridBarrier.RELAUNCH).waitPolicy(dev.finegrain.dsl.WaitPolicy.SLEEP))));
    }

    @Test
    void theSpinLocksTakeEachMutexAndVerifyOnFermiAndHopper() {
        for (dev.finegrain.dsl.Mutex mutex : dev.finegrain.dsl.Mutex.values()) {
            Schedule.LockDataflow schedule = new Schedule.LockDataflow().mutex(mutex);
            for (GpuModelBackend profile : List.of(FERMI, HOPPER)) {
                KernelGraph nw = Pipeline.compile(NW);
                assertTrue(profile.mechanisms(SchedulePlanner.plan(nw, schedule)).contains(LockMechanism.ATOMIC_SPIN_LOCK),
                        mutex + " on " + profile.name());
                assertAllVerified(profile, NW, new int[] {40, 70}, List.of(schedule));
                assertAllVerified(profile, CHAIN, new int[] {200}, List.of(schedule));
                // the sample chain's sweep takes shared-spin-lock too, one mutex per warp
                assertAllVerified(profile, dev.finegrain.compiler.backend.gpu.GpuGoldenCatalog.CATALOG.find("chain")
                        .orElseThrow().kernel(), new int[] {256}, List.of(schedule));
            }
        }
        KernelGraph nw = Pipeline.compile(NW);
        Schedule.LockDataflow ticket = new Schedule.LockDataflow().mutex(dev.finegrain.dsl.Mutex.TICKET);
        assertEquals(Optional.of("tiny-lock holds no lock, so mutex ticket does not apply to it (its rows would repeat the"
                + " default ones); the spin-locks take a mutex"), HOPPER.unsupported(SchedulePlanner.plan(nw, ticket),
                LockMechanism.TINY_LOCK));
        SimtKernel lowered = HOPPER.lower(new Variant(nw, SchedulePlanner.plan(nw, ticket),
                Optional.of(LockMechanism.ATOMIC_SPIN_LOCK)), new int[] {64, 64});
        assertTrue(lowered.program().contains("ATOMS.ADD") && lowered.program().contains("draw the ticket served now"),
                lowered.program());
    }

    /**
     * Two blocks of 4096 bytes on one Fermi SM would lock each other's words (a lock bit is picked by a word's address,
     * and 4096 bytes span all 1024 lock addresses): the block claims its window's span and runs alone on its SM, so the
     * doubles of a Gauss-Seidel-like smoother come out exact (Gauss-Seidel at 512 came out NOT VERIFIED before).
     */
    @Test
    void blocksWhoseLockBitsWouldAliasNeverShareAnSm() {
        Kernel smooth = dev.finegrain.compiler.backend.gpu.GpuGoldenCatalog.CATALOG.find("smooth").orElseThrow().kernel();
        KernelGraph graph = Pipeline.compile(smooth);
        SimtKernel lowered = FERMI.lower(new Variant(graph, SchedulePlanner.plan(graph, new Schedule.LockDataflow()),
                Optional.of(LockMechanism.TINY_LOCK)), new int[] {512, 512});
        assertEquals(4096, lowered.sharedBytes(), "the premise: a tile of 16x32 doubles");
        assertEquals(1024, GpuModelBackend.lockBitsClaimed(lowered, dev.finegrain.gpu.runtime.SimtProfile.load("fermi-gtx570")));
        assertAllVerified(FERMI, smooth, new int[] {512, 512}, List.of(new Schedule.LockDataflow().mechanism(LockMechanism.TINY_LOCK)));
    }

    /**
     * A point's thread never waits twice on one token: an explicit channel beside the one a read derives, and two
     * actors reading one field at one offset, deadlocked the warp vote on Fermi ("lock bit ... held by itself").
     */
    @Test
    void repeatedChannelsAreOneWaitOnEveryMechanism() {
        Kernel explicit = kernel("explicit-repeat").domain(dim("i", "n")).state("x", INT, boundary(index("i")))
                .actor("a", "x", a -> a.read("x", -32).plus(1)).channel("a", "a", 32).build();
        Kernel twoReaders = kernel("two-readers").domain(dim("i", "n")).state("x", INT, boundary(index("i")))
                .state("y", INT, boundary(index("i")))
                .actor("a", "x", a -> a.read("x", -32).plus(1))
                .actor("b", "y", a -> a.read("x", -32).plus(2)).build();
        for (Kernel repeated : List.of(explicit, twoReaders)) {
            for (int n : new int[] {1, 512}) {
                assertAllVerified(FERMI, repeated, new int[] {n}, List.of(new Schedule.LockDataflow()));
                assertAllVerified(FERMI, repeated.toBuilder().warpShared(32).build(), new int[] {n},
                        List.of(new Schedule.LockDataflow()));
            }
        }
    }

    @Test
    void aRelaunchedWavefrontLaunchesEachStepWithTheBlocksItsPointsNeed() {
        Schedule.Wavefront relaunch = new Schedule.Wavefront().barrier(GridBarrier.RELAUNCH);
        for (GpuModelBackend profile : List.of(FERMI, HOPPER)) {
            assertAllVerified(profile, NW, new int[] {40, 70}, List.of(relaunch));
        }
        KernelGraph graph = Pipeline.compile(NW);
        SimtKernel lowered = HOPPER.lower(new Variant(graph, SchedulePlanner.plan(graph, relaunch), Optional.empty()),
                new int[] {3000, 2000});
        assertEquals(4999, lowered.launches(), "a launch per anti-diagonal");
        assertEquals(List.of(1, 1, 2, 2, 2), lowered.blocksPerLaunch().subList(1022, 1027),
                "diagonal 1023 holds 1024 points, one block of 1024 threads; diagonal 1024 holds 1025, two blocks");
        assertEquals(2, lowered.blocksPerLaunch().stream().mapToInt(Integer::intValue).max().orElseThrow(),
                "2000 points at most, two blocks, however many SMs");
        assertTrue(!lowered.program().contains("ATOM") && !lowered.program().contains("BRA step"),
                "no barrier inside a launch, no loop over steps:\n" + lowered.program());
    }

    @Test
    void warpMechanismsRefuseChannelsInsideAWarp() {
        KernelGraph graph = Pipeline.compile(NW);
        Optional<String> vote = FERMI.unsupported(SchedulePlanner.plan(graph, new Schedule.LockDataflow()), LockMechanism.WARP_VOTE);
        assertEquals(Optional.of("channel score[i, j-1] (0,1) of nw links threads 1 apart, inside or across part of"
                + " a warp; warp-vote keeps one token per warp, so use a per-thread mechanism (tiny-lock,"
                + " atomic-spin-lock)"), vote);
        assertEquals(List.of(LockMechanism.ATOMIC_SPIN_LOCK, LockMechanism.TINY_LOCK, LockMechanism.ACQUIRE_RELEASE_FLAG),
                FERMI.mechanisms(SchedulePlanner.plan(graph, new Schedule.LockDataflow())));
        KernelGraph chain = Pipeline.compile(CHAIN);
        assertEquals(List.of(LockMechanism.ATOMIC_SPIN_LOCK, LockMechanism.NAMED_BARRIER, LockMechanism.TINY_LOCK,
                LockMechanism.ACQUIRE_RELEASE_FLAG, LockMechanism.MBARRIER), HOPPER.mechanisms(SchedulePlanner.plan(chain, new Schedule.LockDataflow())),
                "tokens a representative publishes need Fermi's reconvergence; named barriers count lanes");
        assertEquals(6, FERMI.mechanisms(SchedulePlanner.plan(chain, new Schedule.LockDataflow())).size());
    }

    /**
     * A 3D recurrence along i: the plane (1,0,0) leaves j and k free, 15625 candidates a step, more than Fermi's 15
     * persistent blocks of 1024 threads, so threads step on to a second candidate and blocks meet at the inter-block
     * barrier; 3D tiles of 2 x 3 x 7 points run many blocks per launch on Hopper, and lock-dataflow's tiles of planes
     * of warp-wide rows run on both, every mechanism.
     */
    @Test
    void threeDimensionalDomainsRunWavefrontDataParallelAndLockDataflow() {
        Kernel cube = kernel("cube")
                .domain(dim("i", "n"), dim("j", "m"), dim("k", "p"))
                .state("x", DOUBLE, boundary(index("j").minus(index("k")).castTo(Type.DOUBLE)))
                .actor("halve", "x", a -> a.read("x", -1, 0, 0).times(0.5).plus(a.index("k").castTo(Type.DOUBLE)))
                .build();
        KernelGraph graph = Pipeline.compile(cube);
        assertEquals(Optional.empty(), FERMI.unsupportedKernel(SchedulePlanner.plan(graph, new Schedule.LockDataflow())));
        assertAllVerified(FERMI, cube, new int[] {3, 125, 125}, List.of(new Schedule.Wavefront()));
        assertAllVerified(FERMI, cube, new int[] {5, 9, 40}, List.of(new Schedule.LockDataflow()));
        assertAllVerified(HOPPER, cube, new int[] {7, 10, 33}, List.of(new Schedule.LockDataflow()));
        SimtKernel wavefront = FERMI.lower(new Variant(graph, SchedulePlanner.plan(graph, new Schedule.Wavefront()),
                Optional.empty()), new int[] {3, 125, 125});
        assertEquals(List.of(15), wavefront.blocksPerLaunch(), "15625 candidates a step fill Fermi's 15 SMs");
        assertTrue(wavefront.program().contains("XF inter-block barrier"), "fermi-gtx570's default barrier, XF:\n" + wavefront.program());
        assertAllVerified(HOPPER, cube, new int[] {6, 9, 14}, List.of(new Schedule.Wavefront(),
                new Schedule.DataParallel(List.of(2, 3, 7))));
    }

    /**
     * Lock-dataflow in 3D with a channel along every dimension and two actors, one reading the other at its own point
     * (four channels, the most the model's lowering holds):
     * a tile of 4 planes of 8 rows of 32 words waits a row back, a plane back and a word back; every mechanism and both
     * channel policies verify at sizes the tiles do not divide, on Hopper and on Fermi's lock bits.
     */
    @Test
    void threeDimensionalLockDataflowWaitsAlongEveryDimension() {
        Kernel box = kernel("box")
                .domain(dim("i", "ni"), dim("j", "nj"), dim("k", "nk"))
                .state("c", INT, boundary(index("i").times(3).plus(index("k"))))
                .state("u", DOUBLE, boundary(index("i").minus(index("k")).castTo(Type.DOUBLE).times(0.5)))
                .actor("count", "c", a -> a.read("c", -1, 0, 0).plus(a.read("c", 0, -1, 0)).minus(a.read("c", 0, 0, -1))
                        .xor(a.index("j")))
                .actor("average", "u", a -> a.read("u", -1, 0, 0).times(0.25).plus(a.read("c", 0, 0, 0).castTo(Type.DOUBLE)))
                .build();
        dev.finegrain.compiler.backend.gpu.LockDataflowMapping mapping = (dev.finegrain.compiler.backend.gpu.LockDataflowMapping) GpuMapper.map(
                SchedulePlanner.plan(Pipeline.compile(box), new Schedule.LockDataflow()), Optional.of(LockMechanism.TINY_LOCK),
                GpuTarget.of(dev.finegrain.gpu.runtime.SimtProfile.load("hopper-h200")), new int[] {6, 20, 70});
        assertEquals(List.of(3, 7, 31), java.util.Arrays.stream(mapping.tile().interior()).boxed().toList());
        assertEquals(List.of(256, 32, 1), mapping.channels().stream().map(c -> c.threadDistance()).sorted(java.util.Comparator.reverseOrder())
                .distinct().toList());
        for (Kernel kernel : List.of(box, box.toBuilder().channelPolicy(ChannelPolicy.PRIVATE).build())) {
            for (int[] sizes : List.of(new int[] {6, 20, 70}, new int[] {4, 8, 31})) {
                assertAllVerified(HOPPER, kernel, sizes, List.of(new Schedule.LockDataflow()));
            }
        }
        assertAllVerified(FERMI, box, new int[] {5, 9, 40}, List.of(new Schedule.LockDataflow()));
    }

    /**
     * A dependence with a negative component: the bands refuse it naming the wavefront, whose steps follow a plane that
     * orders it, rows (1,0) for a read of north-east alone, and lock-dataflow's skewed tiles; both verify on both
     * divergence modes.
     */
    @Test
    void aDependenceTheTilesCannotFollowRunsOnTheWavefrontAlongAPlaneThatOrdersIt() {
        Kernel anti = kernel("anti")
                .domain(dim("i", "n"), dim("j", "m"))
                .state("s", LONG, boundary(index("i").minus(index("j")).castTo(Type.LONG)))
                .actor("a", "s", c -> c.read("s", -1, 1).times(3).plus(c.index("j").castTo(Type.LONG)))
                .build();
        KernelGraph graph = Pipeline.compile(anti);
        assertEquals(Optional.empty(), FERMI.unsupportedKernel(SchedulePlanner.plan(graph, new Schedule.Wavefront())));
        String reason = FERMI.unsupportedKernel(SchedulePlanner.plan(graph, new Schedule.LockDataflow().persistent())).orElseThrow();
        assertTrue(reason.startsWith("the GPU model's tiles need dependences that point backwards in every dimension;"
                + " anti has (1,-1)"), reason);
        assertTrue(reason.endsWith("; wavefront takes it on every target, along hyperplane (1,0) on the GPU targets, and"
                + " lock-dataflow's tiles there, skewed (j + i)"), reason);
        assertEquals(Optional.empty(), FERMI.unsupportedKernel(SchedulePlanner.plan(graph, new Schedule.LockDataflow())));
        assertAllVerified(FERMI, anti, new int[] {9, 7}, List.of(new Schedule.LockDataflow()));
        assertAllVerified(HOPPER, anti, new int[] {40, 70}, List.of(new Schedule.LockDataflow()));
        assertAllVerified(FERMI, anti, new int[] {9, 7}, List.of(new Schedule.Wavefront()));
        assertAllVerified(HOPPER, anti, new int[] {40, 70}, List.of(new Schedule.Wavefront()));
        SimtKernel rows = HOPPER.lower(new Variant(graph, SchedulePlanner.plan(graph, new Schedule.Wavefront()),
                Optional.empty()), new int[] {40, 70});
        assertTrue(rows.program().contains("point k of step s is j = k, i = s"), rows.program());
    }

    /**
     * North-east and west, (1,-1) and (0,1): neither the anti-diagonals nor rows order both, the plane 2i + j = s does;
     * two columns east and west, (1,-2) and (0,1), take 3i + j = s. Both verify on the model at sizes the slope does
     * not divide.
     */
    @Test
    void dependencesForwardInOneDimensionTakeASteeperPlane() {
        Kernel eastward = eastAndWest("eastward", 1);
        WavefrontMapping mapping = hopperWavefront(eastward, new int[] {9, 13});
        assertArrayEquals(new int[] {2, 1}, mapping.hyperplane());
        assertEquals(2 * 8 + 13, mapping.steps(), "2i + j runs from 0 to 2 * 8 + 12");
        assertEquals(7, mapping.widest(), "ceil(13 / 2) points, j = s - 2i");
        assertAllVerified(FERMI, eastward, new int[] {9, 13}, List.of(new Schedule.Wavefront()));
        assertAllVerified(HOPPER, eastward, new int[] {33, 70}, List.of(new Schedule.Wavefront(), new Schedule.Wavefront(
                Optional.of(GridBarrier.RELAUNCH), Optional.empty())));
        // one column: plane (2,1) has an empty step every other step, which still launches (one block, no point)
        assertAllVerified(HOPPER, eastward, new int[] {40, 1}, List.of(new Schedule.Wavefront(), new Schedule.Wavefront(
                Optional.of(GridBarrier.RELAUNCH), Optional.empty())));
        Kernel further = eastAndWest("further", 2);
        assertArrayEquals(new int[] {3, 1}, hopperWavefront(further, new int[] {9, 13}).hyperplane());
        assertAllVerified(FERMI, further, new int[] {11, 6}, List.of(new Schedule.Wavefront()));
        assertAllVerified(HOPPER, further, new int[] {70, 33}, List.of(new Schedule.Wavefront()));
        // far east: (1,-40) and (0,1) take 41i + j = s, the gentlest plane, however steep
        Kernel far = eastAndWest("far", 40);
        WavefrontMapping farPlanes = hopperWavefront(far, new int[] {12, 60});
        assertArrayEquals(new int[] {41, 1}, farPlanes.hyperplane());
        assertEquals(41 * 11 + 60, farPlanes.steps());
        assertAllVerified(HOPPER, far, new int[] {12, 60}, List.of(new Schedule.Wavefront()));
    }

    /**
     * Lock-dataflow takes the same kernels on skewed tiles: (1,-1) and (0,1) become (1,0) and (0,1) in (i, j + i),
     * (1,-2) and (0,1) become (1,0) and (0,1) in (i, j + 2i); a skewed tile's words that fall left of the halo or
     * right of the domain compute nothing. Every mechanism verifies, on Hopper and on Fermi's lock bits, at sizes
     * with one tile column, several, and a single column.
     */
    @Test
    void dependencesForwardInOneDimensionRunOnSkewedLockDataflowTiles() {
        Kernel eastward = eastAndWest("eastward", 1);
        dev.finegrain.compiler.backend.gpu.LockDataflowMapping mapping = (dev.finegrain.compiler.backend.gpu.LockDataflowMapping)
                GpuMapper.map(SchedulePlanner.plan(Pipeline.compile(eastward), new Schedule.LockDataflow()),
                        Optional.of(LockMechanism.TINY_LOCK), GpuTarget.of(SimtProfile.load("hopper-h200")), new int[] {40, 70});
        assertEquals(1, mapping.tile().skew().factor());
        assertEquals(List.of(40, 70 + 39), java.util.Arrays.stream(mapping.tile().sizes()).boxed().toList());
        assertTrue(mapping.describe().contains("skewed tiles: tile column J holds j + i"), mapping.describe());
        assertEquals(List.of(32, 1), mapping.channels().stream().map(c -> c.threadDistance()).toList());
        for (Kernel kernel : List.of(eastward, eastAndWest("further", 2))) {
            assertAllVerified(FERMI, kernel, new int[] {11, 6}, List.of(new Schedule.LockDataflow()));
            assertAllVerified(HOPPER, kernel, new int[] {40, 70}, List.of(new Schedule.LockDataflow()));
            assertAllVerified(HOPPER, kernel, new int[] {33, 1}, List.of(new Schedule.LockDataflow()));
        }
    }

    /** s[i, j] = (s[i-1, j+east] + s[i, j-1]) % 1000 + i: a dependence forward in j, and one west. */
    private static Kernel eastAndWest(String name, int east) {
        return kernel(name)
                .domain(dim("i", "n"), dim("j", "m"))
                .state("s", INT, boundary(index("i").minus(index("j"))))
                .actor("a", "s", c -> c.read("s", -1, east).plus(c.read("s", 0, -1)).remainder(1000).plus(c.index("i")))
                .build();
    }

    private static WavefrontMapping hopperWavefront(Kernel kernel, int[] sizes) {
        KernelGraph graph = Pipeline.compile(kernel);
        return (WavefrontMapping) GpuMapper.map(SchedulePlanner.plan(graph, new Schedule.Wavefront()), Optional.empty(),
                GpuTarget.of(SimtProfile.load("hopper-h200")), sizes);
    }

    @Test
    void tinyLockSharesTheDataWordsLockBitsAndFitsThemWithoutAliasing() {
        KernelGraph graph = Pipeline.compile(NW);
        SimtKernel tiny = FERMI.lower(new Variant(graph, SchedulePlanner.plan(graph, new Schedule.LockDataflow()),
                Optional.of(LockMechanism.TINY_LOCK)), new int[] {62, 62});
        assertEquals(1024, tiny.threadsPerBlock(), "seed 001's 32 x 32 blocks");
        assertEquals(new SimtKernel.Resources(0, 8192, 1024, 0, 0, tiny.resources().registers()), tiny.resources());
        assertEquals(List.of(1, 2, 1), tiny.blocksPerLaunch(), "a 31 x 31 interior per block, 2 x 2 tiles");
        assertTrue(tiny.program().contains("STSUL"), tiny.program());
        Kernel privateNw = NW.toBuilder().channelPolicy(ChannelPolicy.PRIVATE).build();
        KernelGraph privateGraph = Pipeline.compile(privateNw);
        SimtKernel privateTiny = FERMI.lower(new Variant(privateGraph, SchedulePlanner.plan(privateGraph,
                new Schedule.LockDataflow()), Optional.of(LockMechanism.TINY_LOCK)), new int[] {62, 62});
        assertEquals(512, privateTiny.threadsPerBlock(), "two flag words per point halve the block");
        assertEquals(1024, privateTiny.resources().explicitLockBits());
    }

    @Test
    void fermiAtomicsAreLockBitLoopsAndHoppersAreAtomicInstructions() {
        KernelGraph graph = Pipeline.compile(NW);
        Variant atomic = new Variant(graph, SchedulePlanner.plan(graph, new Schedule.LockDataflow()),
                Optional.of(LockMechanism.ATOMIC_SPIN_LOCK));
        SimtKernel fermi = FERMI.lower(atomic, new int[] {62, 62});
        assertFalse(fermi.program().contains("ATOMS"), fermi.program());
        assertTrue(fermi.program().contains("atomicExch as Fermi runs it"), fermi.program());
        assertEquals(1024, fermi.lockBits(), "the mutex words' lock bits count for occupancy");
        SimtKernel hopper = HOPPER.lower(atomic, new int[] {62, 62});
        assertTrue(hopper.program().contains("ATOMS.EXCH"), hopper.program());
        assertEquals(0, hopper.lockBits());
    }

    private static void assertAllVerified(GpuModelBackend backend, Kernel kernel, int[] sizes, List<Schedule> schedules) {
        KernelGraph graph = Pipeline.compile(kernel);
        Invocation invocation = inputs(kernel, sizes);
        KernelOutputs oracle = SequentialOracle.run(graph, invocation);
        int runs = 0;
        for (Schedule schedule : schedules) {
            List<LockMechanism> mechanisms = backend.mechanisms(SchedulePlanner.plan(graph, schedule));
            List<Optional<LockMechanism>> variants = mechanisms.isEmpty() ? List.of(Optional.empty())
                    : mechanisms.stream().map(Optional::of).toList();
            for (Optional<LockMechanism> mechanism : variants) {
                Variant variant = new Variant(graph, SchedulePlanner.plan(graph, schedule), mechanism);
                BackendRun run = backend.run(variant, invocation, RunSettings.once(1, 1));
                String name = backend.name() + " " + kernel.name() + " " + schedule.cliName() + " " + mechanism;
                assertEquals(Optional.empty(), run.failure(), name);
                assertEquals(Optional.empty(), oracle.firstDifference(graph, sizes, run.outputs()), name);
                assertTrue(run.value() > 0, name);
                runs++;
            }
        }
        assertFalse(runs == 0);
    }

    private static Invocation inputs(Kernel kernel, int[] sizes) {
        Random random = new Random(7);
        Invocation.Builder builder = kernel.invocation().sizes(sizes);
        int points = java.util.Arrays.stream(sizes).reduce(1, (a, b) -> a * b);
        switch (kernel.name()) {
            case "nw" -> builder.param("penalty", 10).input("reference", random.ints(points, -4, 12).toArray());
            case "chain-like", "chain" -> builder.param("work", 3);
            case "mixed" -> builder.input("same", random.ints(points, 0, 2).toArray());
            case "aliased" -> builder.input("r", random.ints(points, -9, 9).toArray());
            case "reads-west", "reads-north", "reads-north-west", "reads-nothing" ->
                    builder.input("b", random.ints(points, -9, 9).toArray());
            case "reads-ahead" -> builder.input("b", random.ints(Invocation.paddedLength(sizes, 1), -9, 9).toArray());
            case "row-sequence" -> builder.input("a", random.ints(sizes[0], -9, 9).toArray());
            case "many-params" -> {
                for (int k = 0; k < 16; k++) {
                    builder.param("p" + k, 3 * k - 7);
                }
            }
            default -> { }
        }
        return builder.build();
    }
}
