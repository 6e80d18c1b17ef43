package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.gpu.BandMapping;
import dev.finegrain.compiler.backend.gpu.GpuMapper;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.GoldenKernels;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.LockMechanism;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A lane's columns keep as many past values as some read reaches back into each, no more (nvcc warns of the rest). */
class CudaBandHistoryTest {

    private static BandMapping bands(int columns) {
        KernelGraph graph = Pipeline.compile(GoldenKernels.needlemanWunsch());
        return (BandMapping) GpuMapper.map(SchedulePlanner.plan(graph, lockDataflow().persistent().columnsPerLane(columns)),
                Optional.of(LockMechanism.TINY_LOCK), CudaLowering.target("sm_90"), new int[] {256, 256});
    }

    @Test
    void onlyTheLastColumnOfALaneKeepsTwoStepsForTheLaneToItsRight() {
        BandMapping four = bands(4);
        var score = four.graph().field("score");
        // columns 0 to 2 are read a row up by the column to their right; column 3 also diagonally by the next lane
        assertEquals(1, CudaBandStep.historyDepth(four, score, 0));
        assertEquals(1, CudaBandStep.historyDepth(four, score, 2));
        assertEquals(2, CudaBandStep.historyDepth(four, score, 3));
        BandMapping one = bands(1);
        assertEquals(2, CudaBandStep.historyDepth(one, one.graph().field("score"), 0));
        String unit = CudaLowering.lower("v", "nw", "finegrain show nw --cuda",
                SchedulePlanner.plan(four.graph(), lockDataflow().persistent().columnsPerLane(4)), Optional.of(LockMechanism.TINY_LOCK),
                CudaLowering.target("sm_90"), new int[] {256, 256}).text();
        assertTrue(unit.contains("int h_score_c3_1 = "), unit);
        assertFalse(unit.contains("h_score_c0_1"), unit);
    }
}
