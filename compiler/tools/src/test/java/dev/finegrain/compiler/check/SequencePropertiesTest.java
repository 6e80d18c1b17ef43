package dev.finegrain.compiler.check;

import dev.finegrain.compiler.backend.BackendRun;
import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.jvm.JvmBackend;
import dev.finegrain.compiler.backend.reference.SequentialOracle;
import dev.finegrain.compiler.check.RandomKernels.RandomCase;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.LONG;
import static dev.finegrain.dsl.Finegrain.along;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.index;
import static dev.finegrain.dsl.Finegrain.lookup;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Random kernels (2D and 3D, every type, dependences backwards in every dimension; a 1D domain has no sequence, which
 * would span all of it) given a sequence along the first dimension and one along the last, a 7 x 3 table of longs
 * and one more actor that reads them all:
 * the jvm backend under every schedule and mechanism, and the GPU model on a Fermi and a Hopper profile under every
 * schedule it takes, match the oracle.
 */
class SequencePropertiesTest {

    @Provide
    Arbitrary<RandomCase> kernels() {
        return Combinators.combine(Arbitraries.integers().between(2, 3), Arbitraries.integers().between(1, 2),
                Arbitraries.integers().between(0, 2), Arbitraries.longs())
                .as((rank, actors, inputs, seed) -> withSequences(RandomKernels.generateBackward(rank, actors, inputs, seed), seed))
                .withoutEdgeCases();
    }

    /** The kernel with sequences, a table and an actor {@code zed: z = z[first - 1] + weights[row[first], last % 3] + column[last]}. */
    static RandomCase withSequences(RandomCase random, long seed) {
        Kernel kernel = random.kernel();
        int rank = kernel.rank();
        String first = kernel.domain().get(0).index();
        String last = kernel.domain().get(rank - 1).index();
        int[] back = new int[rank];
        back[0] = -1;
        Kernel wrapped = kernel.toBuilder()
                .input("row", INT, along(first))
                .input("column", INT, along(last))
                .table("weights", LONG, 7, 3)
                .state("z", LONG, boundary(constant(1L)))
                .actor("zed", "z", c -> c.read("z", back).plus(lookup("weights", c.read("row", 0), index(last).remainder(3)))
                        .plus(c.read("column", 0).castTo(LONG)))
                .build();
        Random values = new Random(seed);
        int[] sizes = random.sizes();
        Invocation.Builder invocation = rebound(random.invocation(), wrapped);
        invocation.input("row", values.ints(sizes[0], 0, 7).toArray()).input("weights", values.longs(21).toArray())
                .input("column", values.ints(sizes[rank - 1]).toArray());
        List<int[]> dependences = new ArrayList<>(random.dependences());
        int[] zed = new int[rank];
        zed[0] = 1;
        dependences.add(zed);
        return new RandomCase(wrapped, invocation.build(), dependences);
    }

    /** The sizes, params and inputs of {@code invocation}, for {@code kernel}, before its new inputs are added. */
    private static Invocation.Builder rebound(Invocation invocation, Kernel kernel) {
        Invocation.Builder builder = kernel.invocation().sizes(invocation.sizes());
        invocation.kernel().params().forEach(param -> builder.param(param.name(), invocation.param(param.name())));
        invocation.kernel().fields().stream().filter(field -> field.isInput())
                .forEach(field -> builder.input(field.name(), invocation.input(field.name())));
        return builder;
    }

    @Property(tries = 12, seed = "20261129")
    void theJvmBackendMatchesTheOracleUnderEveryScheduleAndMechanism(@ForAll("kernels") RandomCase random) {
        KernelGraph graph = Pipeline.compile(random.kernel());
        KernelOutputs oracle = SequentialOracle.run(graph, random.invocation());
        JvmBackend jvm = new JvmBackend();
        for (Schedule schedule : RandomKernelPropertiesTest.schedulesFor(random)) {
            ExecutionPlan plan = SchedulePlanner.plan(graph, schedule);
            List<Optional<LockMechanism>> mechanisms = jvm.mechanisms(plan).stream().map(Optional::of).toList();
            for (Optional<LockMechanism> mechanism : mechanisms.isEmpty() ? List.of(Optional.<LockMechanism>empty()) : mechanisms) {
                BackendRun run = jvm.run(new Variant(graph, plan, mechanism), random.invocation(), RunSettings.once(1, 2));
                assertEquals(Optional.empty(), oracle.firstDifference(graph, random.sizes(), run.outputs()),
                        () -> "jvm backend differs from the oracle under " + schedule.cliName() + " " + mechanism + " for\n" + random);
            }
        }
    }

    @Property(tries = 10, seed = "20261129")
    void theGpuModelMatchesTheOracleOnFermiAndHopper(@ForAll("kernels") RandomCase random) {
        for (String profile : List.of("fermi-gtx570", "hopper-h200")) {
            Set<String> ran = RandomKernelPropertiesTest.runsOnTheGpuModel(random, profile);
            assertTrue(ran.contains("data-parallel"), () -> "no data-parallel run on " + profile + " for\n" + random);
        }
    }
}
