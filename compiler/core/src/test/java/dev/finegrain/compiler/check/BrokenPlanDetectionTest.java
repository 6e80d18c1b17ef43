package dev.finegrain.compiler.check;

import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.reference.ScheduleChecker;
import dev.finegrain.compiler.backend.reference.SequentialOracle;
import dev.finegrain.compiler.ir.IrChannel;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.GoldenKernels;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.DataParallelPlan;
import dev.finegrain.compiler.plan.DataflowPlan;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.compiler.plan.WavefrontPlan;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.Schedule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static dev.finegrain.dsl.Finegrain.DOUBLE;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dataParallel;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static dev.finegrain.dsl.Finegrain.wavefront;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The schedule checker is only worth its green runs if it turns red on a plan that lacks a sync point. Plans are
 * data, so each test here breaks a correct plan by hand and checks that every seed of the checker notices, by a
 * read before its producer fired or by outputs that differ from the oracle; the correct plans pass many seeds.
 */
class BrokenPlanDetectionTest {

    private static final int[] SIZE = {8, 8};
    private static final List<Long> FEW_SEEDS = List.of(1L, 2L, 3L, 4L, 5L);

    private static final Kernel NW = GoldenKernels.needlemanWunsch();

    /** Reads its north-east neighbour, dependence (1,-1): rectangular tiles cannot respect it. */
    private static final Kernel SKEWED = kernel("skewed")
            .domain(dim("i", "rows"), dim("j", "cols"))
            .input("source", DOUBLE)
            .state("u", DOUBLE, boundary(constant(1.0)))
            .actor("update", "u", a -> a.read("u", -1, 1).times(0.5).plus(a.read("u", 0, -1)).plus(a.read("source", 0, 0)))
            .build();

    private static final KernelGraph NW_GRAPH = Pipeline.compile(NW);
    private static final KernelGraph SKEWED_GRAPH = Pipeline.compile(SKEWED);

    static Stream<Arguments> brokenPlans() {
        DataflowPlan dataflow = (DataflowPlan) SchedulePlanner.plan(NW_GRAPH, lockDataflow());
        IrChannel west = channelWithVector(NW_GRAPH, 0, 1);
        IrChannel northWest = channelWithVector(NW_GRAPH, 1, 1);
        List<IrChannel> withoutWest = dataflow.waits().stream().filter(c -> c != west).toList();
        return Stream.of(
                Arguments.of("lock-dataflow without the west channel", NW_GRAPH, new DataflowPlan(NW_GRAPH, withoutWest)),
                Arguments.of("wavefront over hyperplane (1,0), which puts west neighbours in one step", NW_GRAPH,
                        new WavefrontPlan(NW_GRAPH, new int[] {1, 0}, 1)),
                Arguments.of("lock-dataflow keeping only the implied north-west channel", NW_GRAPH,
                        new DataflowPlan(NW_GRAPH, List.of(northWest))),
                Arguments.of("wavefront over (1,1) with stride 2, which puts west neighbours in one step", NW_GRAPH,
                        new WavefrontPlan(NW_GRAPH, new int[] {1, 1}, 2)),
                Arguments.of("lock-dataflow without any channel", NW_GRAPH, new DataflowPlan(NW_GRAPH, List.of())),
                Arguments.of("data-parallel 4x4 tiles for a dependence (1,-1) that tiles cannot respect", SKEWED_GRAPH,
                        new DataParallelPlan(SKEWED_GRAPH, new int[] {4, 4})));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("brokenPlans")
    void everySeedCatchesABrokenPlan(String broken, KernelGraph graph, ExecutionPlan plan) {
        Invocation invocation = invocation(graph.kernel());
        KernelOutputs oracle = SequentialOracle.run(graph, invocation);
        for (long seed : FEW_SEEDS) {
            ScheduleChecker.Result result = ScheduleChecker.run(graph, plan.materialize(SIZE), invocation, new Random(seed));
            Optional<String> difference = oracle.firstDifference(graph, SIZE, result.outputs());
            assertTrue(result.violation().isPresent() || difference.isPresent(),
                    broken + ", seed " + seed + ": neither a violation nor a difference from the oracle was reported");
        }
    }

    @Test
    void aMissingSyncPointIsReportedAsTheReadThatCameTooEarly() {
        DataflowPlan dataflow = (DataflowPlan) SchedulePlanner.plan(NW_GRAPH, lockDataflow());
        IrChannel west = channelWithVector(NW_GRAPH, 0, 1);
        DataflowPlan withoutWest = new DataflowPlan(NW_GRAPH, dataflow.waits().stream().filter(c -> c != west).toList());
        Invocation invocation = invocation(NW);
        for (long seed : FEW_SEEDS) {
            ScheduleChecker.Result result = ScheduleChecker.run(NW_GRAPH, withoutWest.materialize(SIZE), invocation, new Random(seed));
            String violation = result.violation().orElseThrow(() -> new AssertionError("seed " + seed + ": no violation reported"));
            assertTrue(violation.matches("actor cell at \\[\\d, \\d] read score\\[i(-1)?, j-1] = score\\[\\d, \\d] before it was produced"),
                    "seed " + seed + ", a west or north-west read: " + violation);
        }
    }

    static Stream<Arguments> correctPlans() {
        return Stream.of(
                Arguments.of(NW_GRAPH.name(), NW_GRAPH, wavefront()),
                Arguments.of(NW_GRAPH.name(), NW_GRAPH, lockDataflow()),
                Arguments.of(NW_GRAPH.name(), NW_GRAPH, dataParallel(4)),
                Arguments.of(NW_GRAPH.name(), NW_GRAPH, dataParallel(2, 8)),
                Arguments.of(NW_GRAPH.name(), NW_GRAPH, dataParallel(1)),
                Arguments.of(SKEWED_GRAPH.name(), SKEWED_GRAPH, wavefront()),
                Arguments.of(SKEWED_GRAPH.name(), SKEWED_GRAPH, lockDataflow()));
    }

    @ParameterizedTest(name = "{0}, {2}")
    @MethodSource("correctPlans")
    void theCorrectPlanPassesTwentySeeds(String kernel, KernelGraph graph, Schedule schedule) {
        Invocation invocation = invocation(graph.kernel());
        KernelOutputs oracle = SequentialOracle.run(graph, invocation);
        ExecutionPlan plan = SchedulePlanner.plan(graph, schedule);
        LongStream.rangeClosed(1, 20).forEach(seed -> {
            ScheduleChecker.Result result = ScheduleChecker.run(graph, plan.materialize(SIZE), invocation, new Random(seed));
            String where = kernel + ", " + schedule.cliName() + ", seed " + seed;
            assertEquals(Optional.empty(), result.violation(), where);
            assertEquals(Optional.empty(), oracle.firstDifference(graph, SIZE, result.outputs()), where);
        });
    }

    private static IrChannel channelWithVector(KernelGraph graph, int... vector) {
        return graph.channels().stream().filter(c -> Arrays.equals(c.vector(), vector)).findFirst()
                .orElseGet(() -> fail("no channel " + Arrays.toString(vector) + " in\n" + graph));
    }

    private static Invocation invocation(Kernel kernel) {
        Random random = new Random(11);
        Invocation.Builder invocation = kernel.invocation().sizes(SIZE);
        if (kernel == NW) {
            int[] reference = new int[SIZE[0] * SIZE[1]];
            Arrays.setAll(reference, k -> random.nextInt(21) - 10);
            return invocation.param("penalty", 10).input("reference", reference).build();
        }
        double[] source = new double[SIZE[0] * SIZE[1]];
        Arrays.setAll(source, k -> random.nextInt(17) / 4.0);
        return invocation.input("source", source).build();
    }
}
