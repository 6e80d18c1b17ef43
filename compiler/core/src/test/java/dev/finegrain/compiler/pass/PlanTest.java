package dev.finegrain.compiler.pass;

import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.compiler.plan.TaskGraph;
import dev.finegrain.dsl.KernelDefinitionException;
import org.junit.jupiter.api.Test;

import static dev.finegrain.dsl.Finegrain.dataParallel;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static dev.finegrain.dsl.Finegrain.wavefront;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What each schedule's plan orders and synchronises, counted on NW. */
class PlanTest {

    private final KernelGraph nw = Pipeline.compile(GoldenKernels.needlemanWunsch());

    @Test
    void wavefrontRunsOneStepPerAntiDiagonal() {
        TaskGraph tasks = SchedulePlanner.plan(nw, wavefront()).materialize(new int[] {4, 6});
        assertEquals(24, tasks.tasks());
        assertEquals(9, tasks.phases());
        assertEquals(9, tasks.criticalPath());
        assertEquals(8, tasks.syncPoints(), "one barrier between consecutive steps");
    }

    @Test
    void dataflowWaitsOnNorthAndWestOnly() {
        TaskGraph tasks = SchedulePlanner.plan(nw, lockDataflow()).materialize(new int[] {4, 6});
        assertEquals(24, tasks.tasks());
        assertEquals(1, tasks.phases());
        assertEquals(9, tasks.criticalPath());
        assertEquals(3 * 6 + 4 * 5, tasks.syncPoints(), "a north wait below row 0 and a west wait right of column 0");
    }

    @Test
    void dataParallelRunsTilesAlongBlockDiagonals() {
        TaskGraph tasks = SchedulePlanner.plan(nw, dataParallel(2, 3)).materialize(new int[] {4, 6});
        assertEquals(4, tasks.tasks());
        assertEquals(3, tasks.phases());
        assertEquals(3 * 6, tasks.criticalPath(), "three block-diagonals of one 2x3 tile each");
    }

    @Test
    void dataParallelCutsTheTilesAtTheHighEdgesShort() {
        TaskGraph tasks = SchedulePlanner.plan(nw, dataParallel(16)).materialize(new int[] {40, 20});
        assertEquals(3 * 2, tasks.tasks(), "tiles of 16, 16 and 8 rows by 16 and 4 columns");
        assertEquals(3 + 2 - 1, tasks.phases());
        assertEquals(16 * 16 + 16 * 16 + 8 * 16 + 8 * 4, tasks.criticalPath(), "the block-diagonals' longest tiles, then the last two short ones");
    }

    @Test
    void dataParallelChecksForABackendThatNeedsWholeTiles() {
        KernelDefinitionException error = assertThrows(KernelDefinitionException.class,
                () -> ((dev.finegrain.compiler.plan.DataParallelPlan) SchedulePlanner.plan(nw, dataParallel(16))).checkSizes(new int[] {40, 32}));
        assertTrue(error.getMessage().startsWith("kernel 'nw': dataParallel tile extent 16 does not divide rows = 40; "
                + "choose a size that is a multiple of 16 or a tile extent that divides 40 (at GoldenKernels.java:"), error.getMessage());
    }

    @Test
    void dataParallelRejectsATileOfTheWrongRank() {
        KernelDefinitionException error = assertThrows(KernelDefinitionException.class,
                () -> SchedulePlanner.plan(nw, dataParallel(4, 4, 4)));
        assertTrue(error.getMessage().startsWith("kernel 'nw': dataParallel tile [4, 4, 4] has 3 extents but the domain has 2 dimensions;"),
                error.getMessage());
    }

    @Test
    void dataParallelRejectsAKernelWhoseDependencesTilesCannotRespect() {
        KernelGraph skewed = Pipeline.compile(GoldenKernels.skewed3d());
        KernelDefinitionException error = assertThrows(KernelDefinitionException.class,
                () -> SchedulePlanner.plan(skewed, dataParallel(2)));
        assertTrue(error.getMessage().startsWith("kernel 'skewed-3d': rectangular tiles cannot respect dependence (1,-1,0) "
                + "(they need every component >= 0); use the wavefront or lock-dataflow schedule for this kernel"
                + " (wavefront() or lockDataflow(); --schedules wavefront,lock-dataflow) (at "), error.getMessage());
    }
}
