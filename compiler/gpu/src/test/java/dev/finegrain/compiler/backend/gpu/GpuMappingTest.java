package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.GoldenKernels;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.ChannelPolicy;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.gpu.runtime.SimtProfile;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.along;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dataParallel;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static dev.finegrain.dsl.Finegrain.max;
import static dev.finegrain.dsl.Finegrain.wavefront;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The GPU mapping on its own, before any emitter: the decisions it makes and the reasons it gives. */
class GpuMappingTest {

    private static final GpuTarget FERMI = GpuTarget.of(SimtProfile.load("fermi-gtx570"));
    private static final GpuTarget HOPPER = GpuTarget.of(SimtProfile.load("hopper-h200"));
    private static final Kernel NW = GoldenKernels.needlemanWunsch();
    private static final Kernel WARP_CHAIN = kernel("warp-chain").domain(dim("i", "n")).state("a", INT, boundary(constant(0)))
            .actor("add", "a", a -> a.read("a", -32).plus(1)).build();

    private static GpuMapping map(Kernel kernel, dev.finegrain.dsl.Schedule schedule, LockMechanism mechanism,
                                  GpuTarget target, int... sizes) {
        KernelGraph graph = Pipeline.compile(kernel);
        return GpuMapper.map(SchedulePlanner.plan(graph, schedule), Optional.ofNullable(mechanism), target, sizes);
    }

    @Test
    void needlemanWunschWithTinyLockIsThePapersMapping() {
        LockDataflowMapping nw = (LockDataflowMapping) map(NW, lockDataflow(), LockMechanism.TINY_LOCK, FERMI, 62, 62);
        assertEquals("""
                schedule:   lock-dataflow with tiny-lock
                tiles:      tiles of 31x31 points (shared copy with halo: 32x32 words per field), 2x2 tiles
                launches:   3, one per block-diagonal; blocks per launch 1 2 1
                ownership:  1024 threads per block, one per word of the tile and its halo, row-major; halo threads copy and stop
                channel:    score[i-1, j] (1,0): producer 32 threads back (1 warp), token array 0
                channel:    score[i, j-1] (0,1): producer 1 thread back (0 warps), token array 0
                tokens:     1 array of 1024 token words, the lock bits of the data words themselves, shared channels
                wait:       critical-section loop: a lane fires inside the loop once it holds every token
                copy-in:    a block barrier after every thread copied its words
                shared:     8192 bytes: tokens 0, each field's tile copy at [4096, 0]
                resources:  lock bits 1024 explicit, 0 implicit (1024 claimed on fermi-gtx570); named barriers 0
                """, nw.describe());
    }

    @Test
    void privateChannelsGetATokenArrayPerChannelAndATileThatFitsTheLockBits() {
        Kernel privateNw = NW.toBuilder().channelPolicy(ChannelPolicy.PRIVATE).build();
        LockDataflowMapping nw = (LockDataflowMapping) map(privateNw, lockDataflow(), LockMechanism.TINY_LOCK, FERMI, 62, 62);
        assertEquals(2, nw.tokens().arrays());
        assertEquals(512, nw.tokens().wordsPerArray(), "1024 lock bits / 2 arrays: blocks of 16 rows of 32");
        assertEquals(nw.tokens().words(), nw.resources().explicitLockBits());
        assertEquals(WaitForm.CRITICAL_SECTION, nw.waitForm(), "the west channel links lanes of one warp");
    }

    @Test
    void aChainOfWarpsWaitsInTurnAndWarpSharedLocksBecomeTheWarpVote() {
        LockDataflowMapping perThread = (LockDataflowMapping) map(WARP_CHAIN, lockDataflow(), LockMechanism.TINY_LOCK, FERMI, 512);
        assertEquals(WaitForm.IN_TURN, perThread.waitForm());
        LockDataflowMapping warpShared = (LockDataflowMapping) map(WARP_CHAIN, lockDataflow().warpShared(32),
                LockMechanism.TINY_LOCK, FERMI, 512);
        assertEquals(LockMechanism.WARP_VOTE, warpShared.mechanism().id());
        assertEquals(WaitForm.WARP, warpShared.waitForm());
        assertTrue(warpShared.launchPlan().startsWith("lock-dataflow with tiny-lock in its warp-shared form, warp-vote"),
                warpShared.launchPlan());
    }

    @Test
    void aPersistentWavefrontWhenAStepIsWiderThanABlock() {
        WavefrontMapping small = (WavefrontMapping) map(NW, wavefront(), null, HOPPER, 512, 512);
        WavefrontMapping wide = (WavefrontMapping) map(NW, wavefront(), null, HOPPER, 2048, 2048);
        assertEquals(1, small.blocks());
        assertEquals(2, wide.blocks());
        assertTrue(wide.interBlockBarrier());
        assertEquals(4095, wide.steps());
    }

    /**
     * A relaunched 2D or 3D tile's copy is asynchronous copies where the target has them, a lane copies more than one
     * round and every word is 4 or 8 bytes: not on Fermi, not for an input held a byte an element, not for 1D tiles, not
     * for dynamic dataflow's persistent blocks (they read state past L1, which cp.async of single words cannot).
     */
    @Test
    void aRelaunchedTileIsCopiedAsynchronouslyWhereTheTargetAndTheWordsAllowIt() {
        assertTrue(((DataParallelMapping) map(NW, dataParallel(16), null, HOPPER, 64, 64)).asyncCopy());
        assertTrue(((DataParallelMapping) map(NW, dataParallel(16), null, dev.finegrain.compiler.backend.gpu.cuda.CudaLowering.target("sm_80"), 64, 64)).asyncCopy());
        assertEquals(false, ((DataParallelMapping) map(NW, dataParallel(16), null, FERMI, 64, 64)).asyncCopy());
        assertEquals(false, ((DataParallelMapping) map(NW, dataParallel(16), null, dev.finegrain.compiler.backend.gpu.cuda.CudaLowering.target("sm_75"), 64, 64)).asyncCopy());
        Kernel bytes = kernel("nw-bytes").domain(dim("i", "rows"), dim("j", "cols")).param("penalty", INT)
                .input("reference", INT, dev.finegrain.dsl.Storage.BYTE)
                .state("score", INT, boundary(constant(0)))
                .actor("cell", "score", a -> a.read("score", -1, -1).plus(a.read("reference", 0, 0))).build();
        assertEquals(false, ((DataParallelMapping) map(bytes, dataParallel(16), null, HOPPER, 64, 64)).asyncCopy());
        DynamicDataflowMapping dynamic = (DynamicDataflowMapping) map(NW, dev.finegrain.dsl.Finegrain.dynamicDataflow(), null, HOPPER, 64, 64);
        assertEquals(false, dynamic.tiles().asyncCopy());
        // 1D tiles keep their loads: a chain's tile of 16 points and 32 halo words, 16 lanes (three words a lane, one
        // round), and one of a kernel whose 1D tile a single lane copies in five rounds
        DataParallelMapping chain = (DataParallelMapping) map(WARP_CHAIN, dataParallel(16), null, HOPPER, 512);
        assertEquals(48, chain.tile().words());
        assertEquals(false, chain.asyncCopy());
        Kernel loop = kernel("loop").domain(dim("i", "n")).state("a", INT, boundary(constant(0)))
                .actor("add", "a", a -> a.read("a", -1).plus(1)).build();
        DataParallelMapping oneLane = (DataParallelMapping) map(loop, dataParallel(16), null, HOPPER, 512);
        assertEquals(1, oneLane.lanes());
        assertTrue(Math.ceilDiv(oneLane.tile().words(), oneLane.lanes()) > oneLane.copyUnroll());
        assertEquals(false, oneLane.asyncCopy());
    }

    @Test
    void relaunchedTilesOverlapTheirLaunchesOnlyWhereTheTargetHasProgrammaticLaunch() {
        GpuTarget sm90 = dev.finegrain.compiler.backend.gpu.cuda.CudaLowering.target("sm_90");
        DataParallelMapping hopper = (DataParallelMapping) map(NW, dataParallel(16), null, sm90, 64, 64);
        assertTrue(hopper.programmaticLaunches());
        assertTrue(hopper.describe().contains("each after the first a programmatic dependent launch"), hopper.describe());
        assertTrue(((DataParallelMapping) map(WARP_CHAIN, dataParallel(16), null, sm90, 512)).programmaticLaunches());
        assertEquals(false, ((DataParallelMapping) map(NW, dataParallel(16), null,
                dev.finegrain.compiler.backend.gpu.cuda.CudaLowering.target("sm_80"), 64, 64)).programmaticLaunches());
        // the model's profiles say whether they have it: hopper-h200's was measured, hopper-h100's was not
        DataParallelMapping h200 = (DataParallelMapping) map(NW, dataParallel(16), null, HOPPER, 64, 64);
        assertTrue(h200.programmaticLaunches());
        DataParallelMapping h100 = (DataParallelMapping) map(NW, dataParallel(16), null,
                GpuTarget.of(SimtProfile.load("hopper-h100")), 64, 64);
        assertEquals(false, h100.programmaticLaunches());
        assertTrue(!h100.describe().contains("programmatic"), h100.describe());
        assertEquals(false, ((DataParallelMapping) map(NW, dataParallel(16), null, FERMI, 64, 64)).programmaticLaunches());
        // dynamic dataflow's persistent blocks are one launch
        DynamicDataflowMapping dynamic = (DynamicDataflowMapping) map(NW, dev.finegrain.dsl.Finegrain.dynamicDataflow(), null, sm90, 64, 64);
        assertEquals(false, dynamic.tiles().programmaticLaunches());
    }

    @Test
    void theWordsATileReadsBeforeItWritesThemAreItsReachLessWhatItComputesFirst() {
        KernelGraph graph = Pipeline.compile(NW);
        TileGeometry tile = tileOf(NW);
        // the reference is read at the point only: its interior; the score behind the point only: its halo row and column
        assertEquals(List.of(new CopyBox(new int[] {1, 1}, new int[] {16, 16})), TileCopies.of(graph, tile, graph.field("reference")));
        assertEquals(List.of(new CopyBox(new int[] {0, 0}, new int[] {1, 17}), new CopyBox(new int[] {1, 0}, new int[] {16, 1})),
                TileCopies.of(graph, tile, graph.field("score")));
        // a field read at the point itself (another actor's output, or an input) is fetched where its reads reach
        Kernel twoActors = kernel("two-actors").domain(dim("i", "n"), dim("j", "m")).input("w", INT, 1)
                .state("y", INT, boundary(constant(0))).state("x", INT, boundary(constant(1)))
                .actor("first", "y", a -> a.read("x", -1, 0).plus(a.read("w", 0, 0)).plus(a.read("w", -1, 0)))
                .actor("second", "x", a -> a.read("y", 0, 0).plus(a.read("x", 0, -1)))
                .state("z", INT, boundary(constant(0))).actor("third", "z", a -> a.read("w", 0, 0).plus(1)).build();
        KernelGraph two = Pipeline.compile(twoActors);
        TileGeometry twoTile = tileOf(twoActors);
        assertEquals(List.of(new CopyBox(new int[] {0, 1}, new int[] {17, 16})), TileCopies.of(two, twoTile, two.field("w")));
        assertEquals(List.of(new CopyBox(new int[] {1, 1}, new int[] {16, 16})), TileCopies.of(two, twoTile, two.field("y")));
        assertEquals(List.of(new CopyBox(new int[] {0, 0}, new int[] {1, 17}), new CopyBox(new int[] {1, 0}, new int[] {16, 1})),
                TileCopies.of(two, twoTile, two.field("x")));
        // a field nothing reads is not fetched
        assertEquals(List.of(), TileCopies.of(two, twoTile, two.field("z")));
    }

    @Test
    void aBlockFetchesTheTilesPartsWhereTheyTakeALaneFewerRoundsThanTheWholeCopy() {
        GpuTarget sm90 = dev.finegrain.compiler.backend.gpu.cuda.CudaLowering.target("sm_90");
        // Needleman-Wunsch's parts are 16 + 2 + 1 rounds of 16 lanes, the whole 17 x 17 copy 19: it copies the whole tile
        DataParallelMapping nw = (DataParallelMapping) map(NW, dataParallel(16), null, sm90, 64, 64);
        assertTrue(GlobalReads.stagedFields(nw.graph()).stream().allMatch(nw::copiesWhole));
        assertTrue(!nw.describe().contains(" only "), nw.describe());
        // a score read only behind the point, its inputs along the dimensions (the sequence samples): its halo, 2 + 1 rounds
        Kernel alignment = kernel("alignment").domain(dim("i", "n"), dim("j", "m"))
                .input("a", INT, along("i")).input("b", INT, along("j")).param("penalty", INT)
                .state("score", INT, boundary(constant(0)))
                .actor("cell", "score", c -> max(c.read("score", -1, -1).plus(c.read("a", 0)).minus(c.read("b", 0)),
                        c.read("score", -1, 0).minus(c.param("penalty")), c.read("score", 0, -1).minus(c.param("penalty"))))
                .state("z", INT, boundary(constant(0))).actor("third", "z", c -> c.read("a", 0).plus(1))
                .build();
        DataParallelMapping parts = (DataParallelMapping) map(alignment, dataParallel(16), null, sm90, 64, 64);
        KernelGraph graph = parts.graph();
        assertEquals(List.of(new CopyBox(new int[] {0, 0}, new int[] {1, 17}), new CopyBox(new int[] {1, 0}, new int[] {16, 1})),
                parts.copies().get(graph.field("score").id()));
        assertTrue(parts.describe().contains("of 'score' only [0, 1) x [0, 17) (17 words) and [1, 17) x [0, 1) (16 words)"),
                parts.describe());
        // a field nothing reads is not fetched
        assertEquals(List.of(), parts.copies().get(graph.field("z").id()));
        assertTrue(parts.describe().contains("of 'z' nothing (nothing reads it)"), parts.describe());
        // copies by loads keep the whole tile, and so do asynchronous copies without programmatic launches (sm_80)
        DataParallelMapping fermi = (DataParallelMapping) map(alignment, dataParallel(16), null, FERMI, 64, 64);
        assertTrue(GlobalReads.stagedFields(fermi.graph()).stream().allMatch(fermi::copiesWhole));
        DataParallelMapping sm80 = (DataParallelMapping) map(alignment, dataParallel(16), null,
                dev.finegrain.compiler.backend.gpu.cuda.CudaLowering.target("sm_80"), 64, 64);
        assertTrue(sm80.asyncCopy());
        assertTrue(GlobalReads.stagedFields(sm80.graph()).stream().allMatch(sm80::copiesWhole));
    }

    /** The tile of {@code kernel}'s data-parallel:16 mapping at 64 x 64 on sm_90. */
    private static TileGeometry tileOf(Kernel kernel) {
        return ((DataParallelMapping) map(kernel, dataParallel(16), null,
                dev.finegrain.compiler.backend.gpu.cuda.CudaLowering.target("sm_90"), 64, 64)).tile();
    }

    @Test
    void dataParallelCopiesInWholeRounds() {
        DataParallelMapping tiles = (DataParallelMapping) map(NW, dataParallel(16), null, FERMI, 64, 64);
        assertEquals(16, tiles.lanes());
        assertEquals(31, tiles.steps());
        assertEquals(2 * 4 * 320, tiles.sharedBytes(), "17x17 words rounded up to rounds of 4 x 16, for two fields");
    }

    @Test
    void whatCannotRunIsKnownWithoutMappingASize() {
        var plan = SchedulePlanner.plan(Pipeline.compile(NW), lockDataflow());
        assertEquals(Optional.of("channel score[i, j-1] (0,1) of nw links threads 1 apart, inside or across part of a warp;"
                + " named-barrier keeps one token per warp, so use a per-thread mechanism (tiny-lock, atomic-spin-lock)"),
                GpuMapper.unsupported(plan, Optional.of(LockMechanism.NAMED_BARRIER), FERMI));
        assertEquals(Optional.of("mbarrier needs a profile with feature.mbarrier (hopper-h100, hopper-h200); fermi-gtx570 has none"),
                GpuMapper.unsupported(plan, Optional.of(LockMechanism.MBARRIER), FERMI));
        assertEquals(Optional.of("warp-vote publishes a warp's token after its lanes reconverge, which independent thread"
                + " scheduling (profile hopper-h200) does not guarantee; use a Fermi profile or a per-thread mechanism"),
                GpuMapper.unsupported(plan, Optional.of(LockMechanism.WARP_VOTE), HOPPER));
        assertEquals(Optional.empty(), GpuMapper.unsupported(plan, Optional.of(LockMechanism.TINY_LOCK), FERMI));
    }

    @Test
    void staticChecksNameTheLimitAndTheNeed() {
        KernelGraph graph = Pipeline.compile(NW);
        GpuLoweringException bits = assertThrows(GpuLoweringException.class, () -> StaticChecks.check(graph, FERMI, 1024,
                new GpuMapping.Resources(0, 8192, 2048, 0, 2048, 0), LockMechanism.TINY_LOCK));
        assertEquals("nw with tiny-lock needs 2048 lock bits per block; fermi-gtx570 has 1024, so token words"
                + " would alias (seed 001 §4.4.2); use shared channels or a smaller tile", bits.getMessage());
        GpuLoweringException barriers = assertThrows(GpuLoweringException.class, () -> StaticChecks.check(graph, FERMI, 1024,
                new GpuMapping.Resources(0, 0, 0, 0, 0, 17), LockMechanism.NAMED_BARRIER));
        assertTrue(barriers.getMessage().startsWith("nw with named-barrier needs 17 named barriers per block;"),
                barriers.getMessage());
    }
    private static final Kernel CUBE = kernel("cube")
            .domain(dim("i", "n"), dim("j", "m"), dim("k", "p"))
            .state("x", INT, boundary(constant(1)))
            .actor("sum", "x", a -> a.read("x", -1, 0, 0).plus(a.read("x", 0, -1, 0)).plus(a.read("x", 0, 0, -1)))
            .build();

    @Test
    void aCubeStepsThePlanesIPlusJPlusKAndTilesInThreeDimensions() {
        WavefrontMapping planes = (WavefrontMapping) map(CUBE, wavefront(), null, FERMI, 12, 10, 9);
        assertEquals("""
                schedule:   wavefront over planes (1,1,1).p = s
                launches:   1, 1 block of 128 threads
                ownership:  thread k of the grid takes candidates k, k + 128, ... of each step
                candidates: candidate c of step s is i = max(0, s - 17) + c / 10, j = c % 10, k = s - i - j (skipped unless 0 <= k < 9)
                steps:      29, the widest 120 candidates
                barrier:    the block barrier after each step
                memory:     every field in global memory, no shared memory
                """, planes.describe());
        DataParallelMapping tiles = (DataParallelMapping) map(CUBE, dataParallel(4, 5, 3), null, FERMI, 12, 10, 9);
        assertEquals("""
                schedule:   data-parallel, tiles of 4x5x3 points (shared copy with halo: 5x6x4 words per field), 3x2x3 tiles
                launches:   6, one per block-diagonal; blocks per launch 1 3 5 5 3 1
                ownership:  20 threads per block, thread t takes the tile's line a = t / 5, b = t % 5, point c = s - a - b of it at step s (the planes a + b + c = s in turn)
                steps:      10 per tile, a block barrier after each
                shared:     640 bytes: each field's tile copy at [0], copied 4 words per thread and round
                """, tiles.describe());
    }

    @Test
    void aCubeTileOverTheMachinesLimitsIsRefusedByTheStaticChecks() {
        GpuLoweringException threads = assertThrows(GpuLoweringException.class,
                () -> map(CUBE, dataParallel(64, 32, 4), null, FERMI, 64, 64, 64));
        assertEquals("cube needs 2048 threads per block; fermi-gtx570 allows 1024; use a smaller tile", threads.getMessage());
        GpuLoweringException shared = assertThrows(GpuLoweringException.class,
                () -> map(CUBE, dataParallel(32), null, FERMI, 64, 64, 64));
        assertTrue(shared.getMessage().startsWith("cube needs 147456 bytes of shared memory per block; fermi-gtx570 has"),
                shared.getMessage());
    }

    /**
     * Lock-dataflow on a cube: a block is 4 planes of 8 rows of a warp (1024 threads on Hopper), so a channel a plane
     * back links threads 256 apart, a row back 32, a word back 1; Fermi's lock bits give tiny-lock 1024 words too.
     */
    @Test
    void lockDataflowOnACubeTilesPlanesOfWarpWideRows() {
        LockDataflowMapping hopper = (LockDataflowMapping) map(CUBE, lockDataflow(), LockMechanism.TINY_LOCK, HOPPER, 20, 20, 70);
        assertEquals(List.of(3, 7, 31), Arrays.stream(hopper.tile().interior()).boxed().toList());
        assertEquals(1024, hopper.threadsPerBlock());
        assertEquals(List.of(256, 32, 1), hopper.channels().stream().map(SyncChannel::threadDistance).toList());
        assertEquals(7 + 3 + 3 - 2, hopper.blocksPerLaunch().size(), "a launch per block-diagonal I + J + K");
        GpuLoweringException bands = assertThrows(GpuLoweringException.class,
                () -> map(CUBE, lockDataflow().persistent(), LockMechanism.TINY_LOCK, HOPPER, 8, 8, 8));
        assertTrue(bands.getMessage().endsWith("use lock-dataflow"), bands.getMessage());
    }
}
