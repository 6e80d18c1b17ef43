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
import dev.finegrain.gpu.runtime.SimtProfile;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.LONG;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.index;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static dev.finegrain.dsl.Finegrain.max;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where a band's chunks that are not steady take the guarded steps (every lane computes; what leaves it is tested
 * against its row), why they stay checked elsewhere, and which kept boxes a lane holds in registers: one decision, the
 * same on the CUDA target and the model.
 */
class GuardedStepsTest {

    private static final GpuTarget H200 = CudaLowering.target("sm_90");
    private static final GpuTarget H200_MODEL = GpuTarget.of(SimtProfile.load("hopper-h200"));

    private static BandMapping map(Kernel kernel, GpuTarget target, int columnsPerLane, int rows, int columns) {
        KernelGraph graph = Pipeline.compile(kernel);
        return (BandMapping) GpuMapper.map(SchedulePlanner.plan(graph, lockDataflow().persistent().columnsPerLane(columnsPerLane)),
                Optional.of(LockMechanism.TINY_LOCK), target, new int[] {rows, columns});
    }

    /** A recurrence of one int field that reads only itself: nothing a lane outside the domain computes can fault. */
    private static Kernel.Builder recurrence(String name, dev.finegrain.dsl.Type type) {
        return kernel(name)
                .domain(dim("i", "rows"), dim("j", "cols"))
                .state("s", type, boundary(index("i").minus(index("j")).castTo(type)))
                .actor("s", "s", a -> max(a.read("s", -1, -1).plus(3), a.read("s", -1, 0).minus(1), a.read("s", 0, -1).minus(2)));
    }

    @Test
    void sequenceBandsTakeTheGuardedStepsAndHoldAKeptRowInRegisters() {
        for (GpuTarget target : new GpuTarget[] {H200, H200_MODEL}) {
            BandMapping lastRow = map(EdgeRingTest.scoreOnly(Keep.LAST_ROW), target, 4, 65536, 65536);
            assertTrue(lastRow.guardedSteps().guarded(), lastRow.guardedSteps().checkedBecause());
            assertTrue(lastRow.kept().inRegisters(lastRow.graph().field("score")));
            BandMapping raggedLastRow = map(EdgeRingTest.scoreOnly(Keep.LAST_ROW), target, 4, 1000, 600);
            assertTrue(raggedLastRow.guardedSteps().guarded());
            assertFalse(raggedLastRow.kept().inRegisters(raggedLastRow.graph().field("score")), "a narrower last band keeps the stores");
            assertTrue(lastRow.describe().contains("the first and last chunks in the guarded steps"), lastRow.describe());

            BandMapping finalPoint = map(EdgeRingTest.scoreOnly(Keep.FINAL), target, 8, 1000, 600);
            assertTrue(finalPoint.guardedSteps().guarded(), finalPoint.guardedSteps().checkedBecause());
            assertFalse(finalPoint.kept().inRegisters(finalPoint.graph().field("score")), "one point keeps its store: one lane holds it");

            BandMapping lastColumn = map(EdgeRingTest.scoreOnly(Keep.LAST_COLUMN), target, 2, 100, 70);
            assertTrue(lastColumn.guardedSteps().guarded());
            assertFalse(lastColumn.kept().inRegisters(lastColumn.graph().field("score")), "a box of every row is stored as it is met");
        }
    }

    @Test
    void elsewhereTheChunksStayCheckedEachWithItsReason() {
        BandMapping matrix = map(recurrence("whole", INT).build(), H200_MODEL, 4, 1000, 600);
        assertFalse(matrix.guardedSteps().guarded());
        assertEquals("a field kept whole would be stored outside the domain", matrix.guardedSteps().checkedBecause());
        assertFalse(matrix.describe().contains("guarded"), "the plan of a band left as it was reads as before");

        BandMapping helpers = map(GoldenKernels.needlemanWunsch(), H200, 4, 16384, 16384);
        assertTrue(helpers.helpers(), helpers.describe());
        assertEquals("the band has helper warps, which move rows kept whole", helpers.guardedSteps().checkedBecause());

        BandMapping longPoint = map(recurrence("long-point", LONG).keep("s", Keep.LAST_ROW).reduceWithPosition("s", Reduction.MIN).build(),
                H200, 2, 100, 70);
        assertEquals("min(s) keeps its point a point at a time, which a masked candidate would take", longPoint.guardedSteps().checkedBecause());
        assertFalse(longPoint.kept().inRegisters(longPoint.graph().field("s")), "the checked steps store the kept row inside their test");

        Kernel dividing = kernel("dividing")
                .domain(dim("i", "rows"), dim("j", "cols"))
                .state("s", INT, boundary(index("i").plus(index("j")).plus(1)))
                .actor("s", "s", a -> a.read("s", -1, 0).plus(a.read("s", 0, -1)).dividedBy(a.read("s", -1, -1)))
                .keep("s", Keep.FINAL)
                .build();
        assertEquals("actor 's' could fault on a value computed outside the domain", map(dividing, H200_MODEL, 1, 100, 70).guardedSteps().checkedBecause());

        Kernel sum = recurrence("sum", INT).keep("s", Keep.FINAL).reduce("s", Reduction.SUM).build();
        assertTrue(map(sum, H200, 1, 100, 70).guardedSteps().guarded(), "an unpositioned sum is masked a point at a time");
    }
}
