package dev.finegrain.compiler.check;

import dev.finegrain.compiler.backend.BackendRun;
import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.jvm.JvmBackend;
import dev.finegrain.compiler.backend.reference.SequentialOracle;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.FieldSpec;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Keep;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.ParamSpec;
import dev.finegrain.dsl.Reduction;
import dev.finegrain.dsl.Schedule;
import dev.finegrain.dsl.TableSpec;
import dev.finegrain.dsl.Type;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.List;
import java.util.Optional;
import java.util.Random;

import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static dev.finegrain.dsl.Finegrain.wavefront;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Random kernels (1D to 3D, every type) given a random keep per state field and random reductions of their int and long
 * fields: the oracle, which folds every field it does not keep whole into a rolling window of rows and gathers the
 * kept values and reductions as they are produced, gives what cutting and reducing the whole fields gives; and the
 * jvm backend gives the same under the wavefront and lock-dataflow.
 */
class KeepAndReducePropertiesTest {

    /** A random case with keeps and reductions added. */
    record Folding(RandomKernels.RandomCase original, Kernel kernel, Invocation invocation) {
        @Override
        public String toString() {
            return "sizes " + java.util.Arrays.toString(invocation.sizes()) + "\n" + kernel;
        }
    }

    @Provide
    Arbitrary<Folding> foldings() {
        return Combinators.combine(Arbitraries.integers().between(1, 3), Arbitraries.integers().between(1, 3),
                Arbitraries.integers().between(0, 2), Arbitraries.longs()).as((rank, actors, inputs, seed) -> {
                    RandomKernels.RandomCase random = RandomKernels.generate(rank, actors, inputs, seed);
                    return fold(random, new Random(seed ^ 0x5eed));
                }).withoutEdgeCases();
    }

    static Folding fold(RandomKernels.RandomCase random, Random choice) {
        Kernel.Builder builder = random.kernel().toBuilder();
        for (FieldSpec field : random.kernel().fields()) {
            if (field.isState()) {
                Keep keep = Keep.values()[choice.nextInt(Keep.values().length)];
                if (keep != Keep.ALL) {
                    builder.keep(field.name(), keep);
                }
                if ((field.type() == Type.INT || field.type() == Type.LONG) && choice.nextBoolean()) {
                    Reduction reduction = Reduction.values()[choice.nextInt(Reduction.values().length)];
                    if (reduction.hasPosition() && choice.nextBoolean()) {
                        builder.reduceWithPosition(field.name(), reduction);
                    } else {
                        builder.reduce(field.name(), reduction);
                    }
                }
            }
        }
        Kernel kernel = builder.build();
        return new Folding(random, kernel, rebind(random.invocation(), kernel));
    }

    /** The same sizes, params and inputs, for {@code kernel}. */
    static Invocation rebind(Invocation invocation, Kernel kernel) {
        Invocation.Builder builder = kernel.invocation().sizes(invocation.sizes());
        for (ParamSpec param : kernel.params()) {
            builder.param(param.name(), invocation.param(param.name()));
        }
        for (FieldSpec field : kernel.fields()) {
            if (field.isInput()) {
                builder.input(field.name(), invocation.input(field.name()));
            }
        }
        for (TableSpec table : kernel.tables()) {
            builder.input(table.name(), invocation.input(table.name()));
        }
        return builder.build();
    }

    @Property(tries = 60, seed = "20261129")
    void theFoldedOracleGivesWhatCuttingAndReducingTheWholeFieldsGives(@ForAll("foldings") Folding folding) {
        KernelOutputs whole = SequentialOracle.run(Pipeline.compile(folding.original().kernel()), folding.original().invocation());
        KernelGraph graph = Pipeline.compile(folding.kernel());
        int[] sizes = folding.invocation().sizes();
        KernelOutputs expected = KernelOutputs.ofDomain(graph, sizes, whole.fields());
        KernelOutputs folded = SequentialOracle.run(graph, folding.invocation());
        assertEquals(Optional.empty(), expected.firstDifference(graph, sizes, folded), folding::toString);
        assertEquals(expected.digest(graph, sizes), folded.digest(graph, sizes));
    }

    @Property(tries = 15, seed = "20261130")
    void theJvmBackendGivesWhatTheFoldedOracleGives(@ForAll("foldings") Folding folding) {
        KernelGraph graph = Pipeline.compile(folding.kernel());
        int[] sizes = folding.invocation().sizes();
        KernelOutputs oracle = SequentialOracle.run(graph, folding.invocation());
        for (Schedule schedule : List.of(wavefront(), lockDataflow())) {
            Optional<LockMechanism> mechanism = schedule instanceof Schedule.LockDataflow ? Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG) : Optional.empty();
            BackendRun run = new JvmBackend().run(new Variant(graph, SchedulePlanner.plan(graph, schedule), mechanism), folding.invocation(),
                    RunSettings.once(1, 2));
            assertEquals(Optional.empty(), oracle.firstDifference(graph, sizes, run.outputs()), () -> schedule.cliName() + "\n" + folding);
        }
    }
}
