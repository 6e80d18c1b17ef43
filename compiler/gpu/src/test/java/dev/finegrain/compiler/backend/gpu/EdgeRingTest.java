package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.backend.gpu.cuda.CudaLowering;
import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.GoldenKernels;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.Keep;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Reduction;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.along;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.index;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static dev.finegrain.dsl.Finegrain.max;
import static dev.finegrain.dsl.Finegrain.param;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A folded band edge is a ring, so that a score-only alignment's device memory grows with its sequences. */
class EdgeRingTest {

    private static final GpuTarget H200 = CudaLowering.target("sm_90");

    /** Needleman-Wunsch over two sequences (a score per pair of letters, no table), keeping its final score. */
    static Kernel scoreOnly(Keep keep) {
        return kernel("score-only")
                .domain(dim("i", "rows"), dim("j", "cols"))
                .param("penalty", INT)
                .input("a", INT, along("i"))
                .input("b", INT, along("j"))
                .state("score", INT, boundary(index("i").plus(index("j")).plus(2).times(param("penalty")).negate()))
                .actor("cell", "score", c -> max(
                        c.read("score", -1, -1).plus(c.read("a", 0).minus(c.read("b", 0))),
                        c.read("score", -1, 0).minus(c.param("penalty")),
                        c.read("score", 0, -1).minus(c.param("penalty"))))
                .keep("score", keep)
                .reduceWithPosition("score", Reduction.MAX)
                .build();
    }

    private static BandMapping map(Kernel kernel, int columnsPerLane, LockMechanism mechanism, int rows, int columns) {
        KernelGraph graph = Pipeline.compile(kernel);
        return (BandMapping) GpuMapper.map(SchedulePlanner.plan(graph, lockDataflow().persistent().columnsPerLane(columnsPerLane)),
                Optional.of(mechanism), H200, new int[] {rows, columns});
    }

    @Test
    void aScoreOnlyAlignmentOf65536SquaredTakesUnder64MegabytesOfScratch() {
        for (LockMechanism mechanism : new LockMechanism[] {LockMechanism.TINY_LOCK, LockMechanism.ACQUIRE_RELEASE_FLAG,
                LockMechanism.ATOMIC_SPIN_LOCK}) {
            for (int columns : new int[] {1, 4}) {
                BandMapping bands = map(scoreOnly(Keep.FINAL), columns, mechanism, 65536, 65536);
                assertEquals(2048, bands.edge().ringRows(), mechanism + ", " + columns + " column(s) per lane");
                assertTrue(bands.scratchBytes() < 64L << 20, mechanism + ", " + columns + ": " + bands.scratchBytes() + " bytes");
                assertTrue(bands.describe().contains("a ring of 2048 rows"), bands.describe());
            }
        }
        assertFalse(map(scoreOnly(Keep.FINAL), 4, LockMechanism.TINY_LOCK, 16384, 16384).helpers(),
                "a band that folds moves no rows: it waits for its own edge, with no helper warps");
        // tiny-lock's ready words, one column per lane: 2048 bands x 2048 rows x 8 bytes, and the free counters
        BandMapping tiny = map(scoreOnly(Keep.FINAL), 1, LockMechanism.TINY_LOCK, 65536, 65536);
        assertEquals(8L * 2048 * 2048 + 4 * 2048, tiny.edge().tokenBytes());
        assertEquals(BandMapping.TOKEN_BASE_BYTES + 8L * 2048 * 2048, tiny.freeCountersAt());
    }

    @Test
    void theLastRowKeptIsWhatRemainsOfTheDomain() {
        BandMapping lastRow = map(scoreOnly(Keep.LAST_ROW), 4, LockMechanism.ACQUIRE_RELEASE_FLAG, 32768, 32768);
        assertEquals(2048, lastRow.edge().ringRows());
        long tokens = 4L * 256 * 2048 + 4 * 256;   // 256 bands of 128 columns, a token per row of the ring; the free counters
        long edge = 4L * 256 * 2048;   // an int per row of the ring
        long kept = 4L * 32768;
        long maximum = 16L * 256 + 16;   // a partial per band, then the result
        assertEquals(BandMapping.TOKEN_BASE_BYTES + tokens + edge + kept + maximum, lastRow.scratchBytes(), lastRow.describe());
    }

    @Test
    void aRingOnlyWhereItHoldsFewerRowsThanTheDomainAndTheKernelFolds() {
        assertEquals(0, map(scoreOnly(Keep.FINAL), 1, LockMechanism.TINY_LOCK, 2048, 4096).edge().ringRows(),
                "2048 rows: a ring would hold them all");
        assertEquals(2048, map(scoreOnly(Keep.FINAL), 1, LockMechanism.TINY_LOCK, 2049, 4096).edge().ringRows());
        KernelGraph whole = Pipeline.compile(GoldenKernels.needlemanWunsch());
        BandMapping stored = (BandMapping) GpuMapper.map(SchedulePlanner.plan(whole, lockDataflow().persistent()),
                Optional.of(LockMechanism.TINY_LOCK), H200, new int[] {8192, 8192});
        assertEquals(0, stored.edge().ringRows(), "a kernel that keeps every score reads the edge from its array");
    }

    @Test
    void fewResidentWarpsTakeALongerRingSoThatNoBandWaitsOnABandNotYetStarted() {
        // 132 SMs x 16 blocks x 4 warps on an H200: the fewest rows a ring holds decides
        assertEquals(2048, EdgeRing.rows(65536, 1, 1, 8448));
        // 16 resident warps share 65536 rows: each of the 16 rings must hold 4096 rows and the slack
        assertEquals(8192, EdgeRing.rows(65536, 1, 1, 16));
        assertEquals(0, EdgeRing.rows(65536, 1, 1, 2), "two warps would need 32768 rows and the slack: every row");
        // a token per group of 32 rows: the ring is a power of two of groups
        assertEquals(2048, EdgeRing.rows(65536, 32, 1, 8448));
        assertEquals(3 * 1024, EdgeRing.rows(65536, 3, 1, 8448), "1024 groups of 3 rows, the power of two at or above 2048 / 3");
    }
}
