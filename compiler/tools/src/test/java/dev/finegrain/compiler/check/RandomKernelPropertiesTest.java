package dev.finegrain.compiler.check;

import dev.finegrain.compiler.backend.BackendRun;
import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.gpu.GpuLoweringException;
import dev.finegrain.compiler.backend.gpu.model.GpuModelBackend;
import dev.finegrain.compiler.backend.jvm.JvmBackend;
import dev.finegrain.compiler.backend.jvm.JvmCodegen;
import dev.finegrain.compiler.backend.jvm.code.JClass;
import dev.finegrain.compiler.backend.jvm.layout.VectorWidth;
import dev.finegrain.compiler.backend.reference.ReferenceBackend;
import dev.finegrain.compiler.backend.reference.ScheduleChecker;
import dev.finegrain.compiler.backend.reference.SequentialOracle;
import dev.finegrain.compiler.check.RandomKernels.RandomCase;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.compiler.plan.TaskGraph;
import dev.finegrain.dsl.KernelDefinitionException;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;
import dev.finegrain.dsl.internal.DependenceMath;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import static dev.finegrain.dsl.Finegrain.dataParallel;
import static dev.finegrain.dsl.Finegrain.dynamicDataflow;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static dev.finegrain.dsl.Finegrain.wavefront;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Random valid kernels (rank 1 to 3, 1 to 3 actors, 0 to 2 inputs, typed expression trees with folds, casts, bit
 * operations and guarded division) compile with the verifier after every pass, and every schedule the planner accepts
 * computes what the sequential oracle computes, bit for bit, in random legal interleavings.
 */
class RandomKernelPropertiesTest {

    private static final List<Long> INTERLEAVING_SEEDS = List.of(1L, 7L);

    @Provide
    Arbitrary<RandomCase> kernels() {
        return Combinators.combine(
                        Arbitraries.integers().between(1, 3),
                        Arbitraries.integers().between(1, 3),
                        Arbitraries.integers().between(0, 2),
                        Arbitraries.longs())
                .as(RandomKernels::generate)
                .withoutEdgeCases();
    }

    @Property(tries = 100, seed = "20251122")
    void everyScheduleMatchesTheSequentialOracleBitForBit(@ForAll("kernels") RandomCase random) {
        Statistics.label("tiling legal").collect(random.tilingLegal());
        Statistics.label("zero-distance dependence").collect(random.dependences().stream().anyMatch(DependenceMath::isZero));
        Statistics.label("rank").collect(random.kernel().rank());
        KernelGraph graph = Pipeline.compile(random.kernel());
        KernelOutputs oracle = SequentialOracle.run(graph, random.invocation());
        for (Schedule schedule : schedulesFor(random)) {
            ExecutionPlan plan = SchedulePlanner.plan(graph, schedule);
            TaskGraph tasks = plan.materialize(random.sizes());
            for (long seed : INTERLEAVING_SEEDS) {
                String where = schedule.cliName() + ", interleaving seed " + seed;
                ScheduleChecker.Result checked = ScheduleChecker.run(graph, tasks, random.invocation(), new Random(seed));
                assertEquals(Optional.empty(), checked.violation(), () -> "violation under " + where + ", for\n" + random);
                assertEquals(Optional.empty(), oracle.firstDifference(graph, random.sizes(), checked.outputs()),
                        () -> "difference from the oracle under " + where + ", for\n" + random);
            }
        }
        Statistics.label("tiling legal").coverage(coverage -> {
            coverage.check(true).percentage(p -> p >= 15);
            coverage.check(false).percentage(p -> p >= 15);
        });
        Statistics.label("zero-distance dependence").coverage(coverage -> coverage.check(true).percentage(p -> p >= 10));
        Statistics.label("rank").coverage(coverage -> coverage.check(3).percentage(p -> p >= 15));
    }

    @Property(tries = 60, seed = "20251123")
    void theReferenceBackendVerifiesEveryScheduleItIsGiven(@ForAll("kernels") RandomCase random) {
        KernelGraph graph = Pipeline.compile(random.kernel());
        KernelOutputs oracle = SequentialOracle.run(graph, random.invocation());
        for (Schedule schedule : schedulesFor(random)) {
            Variant variant = new Variant(graph, SchedulePlanner.plan(graph, schedule), Optional.empty());
            BackendRun run = new ReferenceBackend().run(variant, random.invocation(), RunSettings.once(3, 1));
            assertEquals(Optional.empty(), run.failure(), () -> "reference backend failure under " + schedule.cliName()
                    + " for\n" + random);
            assertEquals(Optional.empty(), oracle.firstDifference(graph, random.sizes(), run.outputs()),
                    () -> "reference backend differs from the oracle under " + schedule.cliName() + " for\n" + random);
        }
    }

    @Property(tries = 100, seed = "20251124")
    void theVerifierAcceptsTheIrAfterEveryPass(@ForAll("kernels") RandomCase random) {
        ByteArrayOutputStream trace = new ByteArrayOutputStream();
        assertDoesNotThrow(() -> Pipeline.run(random.kernel(), true, new PrintStream(trace, true, StandardCharsets.UTF_8)),
                () -> "for\n" + random);
        assertEquals(1 + Pipeline.STANDARD.size(), trace.toString(StandardCharsets.UTF_8).lines()
                .filter(line -> line.startsWith("--- after ")).count(), "one traced section per pass");
    }

    @Property(tries = 100, seed = "20251125")
    void tilingIsLegalExactlyWhenNoDependenceHasANegativeComponent(@ForAll("kernels") RandomCase random) {
        KernelGraph graph = Pipeline.compile(random.kernel());
        assertEquals(random.tilingLegal(), graph.tiling().legal(), () -> "tiling analysis for\n" + random);
        if (!random.tilingLegal()) {
            KernelDefinitionException rejected = assertThrows(KernelDefinitionException.class,
                    () -> SchedulePlanner.plan(graph, dataParallel(1)), () -> "data-parallel planned for\n" + random);
            assertTrue(rejected.getMessage().contains("rectangular tiles cannot respect dependence"), rejected.getMessage());
        }
    }

    /** Wavefront and lock-dataflow always; data-parallel when tiles are legal, with one dividing extent per dimension. */
    @Property(tries = 40, seed = "20251124")
    void theJvmBackendMatchesTheOracleUnderEveryScheduleAndMechanism(@ForAll("kernels") RandomCase random) {
        KernelGraph graph = Pipeline.compile(random.kernel());
        KernelOutputs oracle = SequentialOracle.run(graph, random.invocation());
        JvmBackend jvm = new JvmBackend();
        for (Schedule schedule : schedulesFor(random)) {
            ExecutionPlan plan = SchedulePlanner.plan(graph, schedule);
            List<Optional<LockMechanism>> mechanisms = jvm.mechanisms(SchedulePlanner.plan(graph, schedule)).stream().map(Optional::of).toList();
            for (Optional<LockMechanism> mechanism : mechanisms.isEmpty() ? List.of(Optional.<LockMechanism>empty()) : mechanisms) {
                BackendRun run = jvm.run(new Variant(graph, plan, mechanism), random.invocation(), RunSettings.once(3, 2));
                assertEquals(Optional.empty(), oracle.firstDifference(graph, random.sizes(), run.outputs()),
                        () -> "jvm backend differs from the oracle under " + schedule.cliName() + " " + mechanism + " for\n" + random);
            }
        }
    }

    @Provide
    Arbitrary<RandomCase> laneKernels() {
        return Combinators.combine(Arbitraries.integers().between(1, 3), Arbitraries.integers().between(0, 2), Arbitraries.longs())
                .as(RandomKernels::generateForLanes)
                .withoutEdgeCases();
    }

    /**
     * Lanes: random 2D kernels of one numeric type (what lanes compute), on domains up to 40 x 70, with 2 to 16
     * lanes, under every schedule and mechanism on 1 to 3 threads, equal the oracle bit for bit. Most of them get
     * lanes in some schedule (strips, row scans, or the wavefront's vectors along hyperplanes); the rest say why and
     * run their scalar loops (a kernel that reads only to the north-east steps its wavefront by rows, cannot be tiled,
     * and its dataflow bands would wait on each other's strips).
     */
    @Property(tries = 40, seed = "20261124")
    void kernelsInLanesMatchTheOracle(@ForAll("laneKernels") RandomCase random,
                                              @ForAll @IntRange(min = 0, max = 2) int widthIndex,
                                              @ForAll @IntRange(min = 1, max = 3) int threads) {
        VectorWidth width = VectorWidth.of(new int[] {128, 256, 512}[widthIndex]);
        KernelGraph graph = Pipeline.compile(random.kernel());
        Statistics.label("lanes in some schedule").collect(schedulesFor(random).stream().anyMatch(schedule -> {
            String javadoc = JvmCodegen.generate(SchedulePlanner.plan(graph, schedule), jvmMechanism(graph, schedule), "p", width).javadoc();
            return javadoc.contains("Lanes: ") && !javadoc.contains("Lanes: none");
        }));
        // the wavefront on its own: a regression that took its lanes away would hide among the other schedules' lanes
        JClass wavefrontClass = JvmCodegen.generate(SchedulePlanner.plan(graph, wavefront()), Optional.empty(), "p", width);
        Statistics.label("wavefront in lanes").collect(wavefrontClass.javadoc().contains("Storage: every field along the hyperplanes"));
        // an int input declared Storage.BYTE and kept in bytes (where the lanes hold at least 8 ints, or there are none)
        Statistics.label("input kept in bytes").collect(wavefrontClass.byteFields().isPresent());
        KernelOutputs oracle = SequentialOracle.run(graph, random.invocation());
        JvmBackend jvm = new JvmBackend(width);
        for (Schedule schedule : schedulesFor(random)) {
            ExecutionPlan plan = SchedulePlanner.plan(graph, schedule);
            List<Optional<LockMechanism>> mechanisms = jvm.mechanisms(SchedulePlanner.plan(graph, schedule)).stream().map(Optional::of).toList();
            for (Optional<LockMechanism> mechanism : mechanisms.isEmpty() ? List.of(Optional.<LockMechanism>empty()) : mechanisms) {
                BackendRun run = jvm.run(new Variant(graph, plan, mechanism), random.invocation(), RunSettings.once(3, threads));
                assertEquals(Optional.empty(), oracle.firstDifference(graph, random.sizes(), run.outputs()),
                        () -> "jvm backend in lanes of " + width.bits() + " bits differs from the oracle under " + schedule.cliName() + " "
                                + mechanism + " on " + threads + " thread(s) for\n" + random);
            }
        }
        Statistics.label("lanes in some schedule").coverage(coverage -> coverage.check(true).percentage(p -> p >= 65));
        Statistics.label("wavefront in lanes").coverage(coverage -> coverage.check(true).percentage(p -> p >= 50));
        Statistics.label("input kept in bytes").coverage(coverage -> coverage.check(true).percentage(p -> p >= 5));
    }

    private static Optional<LockMechanism> jvmMechanism(KernelGraph graph, Schedule schedule) {
        return new JvmBackend().mechanisms(SchedulePlanner.plan(graph, schedule)).stream().findFirst();
    }

    /**
     * The GPU model runs every random kernel whose dependences its tiles can follow (1D, 2D and 3D), of every type (int,
     * long, double, bool, with casts and guarded division), under every schedule and mechanism it offers, and matches
     * the oracle bit for bit. What it refuses, it refuses for the dependences, a 3D domain under lock-dataflow, a
     * hyperplane its steps do not follow, a ready structure built for threads, or a tile the sizes cap, never for a type.
     */
    @Property(tries = 30, seed = "20261124")
    void theGpuModelMatchesTheOracleUnderEveryScheduleAndMechanism(@ForAll("kernels") RandomCase random) {
        Set<String> ran = runsOnTheGpuModel(random, "fermi-gtx570");
        // a regression that refused every mechanism (or every kernel) would otherwise pass without comparing anything
        Statistics.label("gpu lock-dataflow ran").collect(ran.contains("lock-dataflow"));
        Statistics.label("gpu dynamic-dataflow ran").collect(ran.contains("dynamic-dataflow"));
        Statistics.label("gpu lock-dataflow ran").coverage(coverage -> coverage.check(true).percentage(p -> p > 0));
        Statistics.label("gpu dynamic-dataflow ran").coverage(coverage -> coverage.check(true).percentage(p -> p > 0));
    }

    /**
     * Both divergence modes, with warp-shared groups: random multi-actor kernels (an explicit channel now and then, which
     * may repeat one a read derives) with per-thread locks, groups of 8 and groups of 32, on fermi-gtx570 (one program
     * counter per warp and a reconvergence stack, lock bits) and hopper-h200 (independent thread scheduling, tokens in
     * words), under every schedule and mechanism each offers: every run matches the oracle, none deadlocks, and no
     * co-resident blocks alias a lock bit (the model fails a run that does).
     */
    @Property(tries = 60, seed = "20261129")
    void theGpuModelMatchesTheOracleOnBothDivergenceModesWithWarpSharedGroups(@ForAll("kernels") RandomCase random,
                                                                             @ForAll @IntRange(min = 0, max = 2) int grouping) {
        int group = new int[] {0, 8, 32}[grouping];
        RandomCase grouped = group == 0 ? random
                : new RandomCase(random.kernel().toBuilder().warpShared(group).build(), random.invocation(), random.dependences());
        Statistics.label("lock granularity").collect(group == 0 ? "per thread" : "warp-shared " + group);
        for (String profile : List.of("fermi-gtx570", "hopper-h200")) {
            Set<String> ran = runsOnTheGpuModel(grouped, profile);
            Statistics.label("warp-shared lock-dataflow ran on " + profile).collect(group > 0 && ran.contains("lock-dataflow"));
            Statistics.label("per-thread lock-dataflow ran on " + profile).collect(group == 0 && ran.contains("lock-dataflow"));
        }
        // a regression that refused every grouped (or every per-thread) kernel would otherwise pass without comparing it
        for (String profile : List.of("fermi-gtx570", "hopper-h200")) {
            for (String granularity : List.of("warp-shared", "per-thread")) {
                Statistics.label(granularity + " lock-dataflow ran on " + profile)
                        .coverage(coverage -> coverage.check(true).percentage(p -> p > 0));
            }
        }
    }

    @Provide
    Arbitrary<RandomCase> backwardKernels3d() {
        return Combinators.combine(Arbitraries.integers().between(1, 3), Arbitraries.integers().between(0, 2), Arbitraries.longs())
                .as((actors, inputs, seed) -> RandomKernels.generateBackward(3, actors, inputs, seed))
                .withoutEdgeCases();
    }

    /**
     * 3D kernels of every type whose dependences point backwards in every dimension (so every tiled schedule takes
     * them) verify on a Fermi and a Hopper profile under wavefront (planes of the planner's hyperplane), data-parallel
     * and lock-dataflow (3D tiles), every mechanism the profile offers.
     */
    @Property(tries = 20, seed = "20261125")
    void theGpuModelMatchesTheOracleOn3dDomainsOnFermiAndHopper(@ForAll("backwardKernels3d") RandomCase random) {
        Statistics.label("3D field types").collect(random.kernel().fields().stream().map(field -> field.type().name())
                .collect(java.util.stream.Collectors.toCollection(TreeSet::new)).toString());
        for (String profile : List.of("fermi-gtx570", "hopper-h200")) {
            Set<String> ran = runsOnTheGpuModel(random, profile);
            assertTrue(ran.contains("data-parallel"), () -> "no data-parallel run on " + profile + " for\n" + random);
            assertTrue(ran.contains("dynamic-dataflow"), () -> "no dynamic-dataflow run on " + profile + " for\n" + random);
            Statistics.label("3D wavefront ran on " + profile).collect(ran.contains("wavefront"));
            Statistics.label("3D lock-dataflow ran on " + profile).collect(ran.contains("lock-dataflow"));
        }
        Statistics.label("3D wavefront ran on hopper-h200").coverage(coverage -> coverage.check(true).percentage(p -> p >= 60));
        // a kernel of more than 4 channels is past the model's lowering, and a wide halo past a tile: most still run
        Statistics.label("3D lock-dataflow ran on hopper-h200").coverage(coverage -> coverage.check(true).percentage(p -> p >= 50));
    }

    /**
     * Runs {@code random} under every schedule and mechanism the profile offers and checks each against the oracle;
     * returns the schedules (by CLI name, tiles left out) that ran at least once.
     */
    static Set<String> runsOnTheGpuModel(RandomCase random, String profile) {
        KernelGraph graph = Pipeline.compile(random.kernel());
        KernelOutputs oracle = SequentialOracle.run(graph, random.invocation());
        GpuModelBackend gpu = new GpuModelBackend(profile);
        Set<String> ran = new TreeSet<>();
        for (Schedule schedule : schedulesFor(random)) {
            Optional<String> refused = gpu.unsupportedKernel(SchedulePlanner.plan(graph, schedule));
            if (refused.isPresent()) {
                assertTrue(refused.get().startsWith("the GPU model's tiles need dependences that point backwards")
                        || refused.get().contains("ready structure is the JVM's")
                        && schedule instanceof Schedule.DynamicDataflow, refused.get());
                continue;
            }
            ExecutionPlan plan = SchedulePlanner.plan(graph, schedule);
            List<Optional<LockMechanism>> mechanisms = gpu.mechanisms(SchedulePlanner.plan(graph, schedule)).stream().map(Optional::of).toList();
            for (Optional<LockMechanism> mechanism : schedule instanceof Schedule.LockDataflow ? mechanisms
                    : List.of(Optional.<LockMechanism>empty())) {
                BackendRun run;
                try {
                    run = gpu.run(new Variant(graph, plan, mechanism), random.invocation(), RunSettings.once(1, 1));
                } catch (GpuLoweringException sizeLimit) {
                    assertTrue(sizeLimit.getMessage().contains("(the sizes cap the tile)"), sizeLimit.getMessage());
                    continue;
                }
                String where = schedule.cliName() + " " + mechanism + " on " + profile;
                assertEquals(Optional.empty(), run.failure(), () -> where + " for\n" + random);
                assertEquals(Optional.empty(), oracle.firstDifference(graph, random.sizes(), run.outputs()),
                        () -> "the GPU model differs from the oracle under " + where + " for\n" + random);
                ran.add(schedule.cliName().replaceAll(":.*", ""));
            }
        }
        return ran;
    }

    static List<Schedule> schedulesFor(RandomCase random) {
        List<Schedule> schedules = new ArrayList<>(List.of(wavefront(), lockDataflow()));
        if (random.tilingLegal()) {
            int[] sizes = random.sizes();
            int[] tile = new int[sizes.length];
            for (int d = 0; d < sizes.length; d++) {
                tile[d] = largestProperDivisorOrSelf(sizes[d]);
            }
            schedules.add(dataParallel(tile));
            schedules.add(dataParallel(1));
            // tiles that do not divide the sizes (for sizes of 3 and more): those at the high edges are cut short
            int[] ragged = new int[sizes.length];
            for (int d = 0; d < sizes.length; d++) {
                ragged[d] = sizes[d] / 2 + 1;
            }
            schedules.add(dataParallel(ragged));
            schedules.add(dynamicDataflow().tile(ragged));
            // dynamic dataflow over the same tiles, each ready structure; tiles of 1 make every point a task
            schedules.add(dynamicDataflow().tile(tile));
            schedules.add(dynamicDataflow().tile(1).ready(dev.finegrain.dsl.ReadyQueue.MICHAEL_SCOTT));
            schedules.add(dynamicDataflow().tile(tile).ready(dev.finegrain.dsl.ReadyQueue.LOCKED));
            schedules.add(dynamicDataflow().tile(1).ready(dev.finegrain.dsl.ReadyQueue.RING));
        }
        return schedules;
    }

    /** 6 -> 3, 9 -> 3, 8 -> 4, 7 -> 7: tiles that split the domain where they can, so several block-diagonals run. */
    private static int largestProperDivisorOrSelf(int size) {
        for (int divisor = size / 2; divisor > 1; divisor--) {
            if (size % divisor == 0) {
                return divisor;
            }
        }
        return size;
    }
}
