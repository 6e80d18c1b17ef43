package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.backend.gpu.cuda.CudaLowering;
import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.GoldenKernels;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.Keep;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LockMechanism;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static dev.finegrain.dsl.Finegrain.INT;
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

/** Where a persistent band peels its first chunk into the steady steps, and why it keeps it checked elsewhere. */
class FirstChunkTest {

    private static final GpuTarget H200 = CudaLowering.target("sm_90");
    private static final GpuTarget H200_MODEL = GpuTarget.of(SimtProfile.load("hopper-h200"));

    private static BandMapping map(Kernel kernel, GpuTarget target, int columnsPerLane, LockMechanism mechanism, int rows, int columns) {
        KernelGraph graph = Pipeline.compile(kernel);
        return (BandMapping) GpuMapper.map(SchedulePlanner.plan(graph, lockDataflow().persistent().columnsPerLane(columnsPerLane)),
                Optional.of(mechanism), target, new int[] {rows, columns});
    }

    /** Needleman-Wunsch whose west read divides by a parameter: a value computed above the domain could divide by anything. */
    private static Kernel dividing() {
        return kernel("dividing")
                .domain(dim("i", "rows"), dim("j", "cols"))
                .param("penalty", INT)
                .input("reference", INT)
                .state("score", INT, boundary(index("i").plus(index("j")).plus(2).times(param("penalty")).negate()))
                .actor("cell", "score", c -> max(
                        c.read("score", -1, -1).plus(c.read("reference", 0, 0)),
                        c.read("score", -1, 0).minus(c.param("penalty")),
                        c.read("score", 0, -1).dividedBy(c.read("reference", 0, 0))))
                .build();
    }

    @Test
    void aBandWithHelperWarpsPeelsItsFirstChunkIntoTheSteadySteps() {
        for (LockMechanism mechanism : new LockMechanism[] {LockMechanism.TINY_LOCK, LockMechanism.ACQUIRE_RELEASE_FLAG}) {
            BandMapping bands = map(GoldenKernels.needlemanWunsch(), H200, 4, mechanism, 16384, 16384);
            assertTrue(bands.helpers(), bands.describe());
            assertTrue(bands.firstChunk().peeled(), mechanism + ": " + bands.firstChunk().checkedBecause());
            assertTrue(bands.describe().contains("the first chunk peeled out of the chunk loop"), bands.describe());
        }
    }

    @Test
    void elsewhereTheFirstChunkStaysCheckedAndThePlanSaysNothingNew() {
        BandMapping ownRows = map(EdgeRingTest.scoreOnly(Keep.FINAL), H200, 8, LockMechanism.TINY_LOCK, 65536, 65536);
        assertFalse(ownRows.firstChunk().peeled());
        assertTrue(ownRows.firstChunk().checkedBecause().contains("moves its own rows"), ownRows.firstChunk().checkedBecause());
        assertFalse(ownRows.describe().contains("first chunk"), "the plan of a band left as it was reads as before");

        BandMapping model = map(GoldenKernels.needlemanWunsch(), H200_MODEL, 4, LockMechanism.TINY_LOCK, 4096, 4096);
        assertFalse(model.helpers(), "the model's bands are one warp");
        assertFalse(model.firstChunk().peeled(), "so the model never peels, and spells no such form");

        BandMapping shallow = map(GoldenKernels.needlemanWunsch(), H200, 1, LockMechanism.TINY_LOCK, 31, 64);
        assertEquals("fewer than 32 rows: the first chunk is also the last", shallow.firstChunk().checkedBecause());

        BandMapping ragged = map(GoldenKernels.needlemanWunsch(), H200, 4, LockMechanism.TINY_LOCK, 1000, 600);
        assertEquals("the last band is checked in every chunk", ragged.firstChunk().checkedBecause());

        BandMapping divides = map(dividing(), H200, 1, LockMechanism.TINY_LOCK, 256, 256);
        assertTrue(divides.helpers(), divides.describe());
        assertEquals("actor 'cell' could fault on a value computed above the domain", divides.firstChunk().checkedBecause());
    }
}
