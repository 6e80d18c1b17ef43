package dev.finegrain.compiler.check;

import dev.finegrain.compiler.backend.BackendRun;
import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.jvm.JvmBackend;
import dev.finegrain.compiler.backend.reference.SequentialOracle;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.DataflowPlan;
import dev.finegrain.compiler.plan.RingFolding;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.FieldSpec;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.ParamSpec;
import dev.finegrain.dsl.Schedule;
import dev.finegrain.dsl.TableSpec;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.Optional;
import java.util.Random;

import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Random 1D and 2D kernels (one to three actors, every type) with random keeps and reductions, on domains long enough
 * for a ring to wrap: the jvm backend under spsc-ring, its rings as short as the plan allows or the default, 1D blocks
 * dealt in turn or a chain on one worker, 2D bands, on one to three threads, gives what the oracle gives.
 */
class RingFoldingPropertiesTest {

    record Ringed(Kernel kernel, Invocation invocation, boolean shortest, boolean interleaved, int threads) {
        @Override
        public String toString() {
            return "sizes " + java.util.Arrays.toString(invocation.sizes()) + ", shortest ring " + shortest + ", interleaved "
                    + interleaved + ", threads " + threads + "\n" + kernel;
        }
    }

    @Provide
    Arbitrary<Ringed> ringed() {
        return Combinators.combine(Arbitraries.integers().between(1, 3), Arbitraries.integers().between(0, 2),
                Arbitraries.integers().between(1, 3), Arbitraries.longs()).as((actors, inputs, threads, seed) -> {
                    Random choice = new Random(seed ^ 0x21a6);
                    int kind = choice.nextInt(3);
                    RandomKernels.RandomCase random = switch (kind) {
                        case 0 -> RandomKernels.generate(1, actors, inputs, seed);
                        case 1 -> RandomKernels.generate(2, actors, inputs, seed);
                        default -> RandomKernels.generateForLanes(actors, inputs, seed);
                    };
                    KeepAndReducePropertiesTest.Folding folding = KeepAndReducePropertiesTest.fold(random, choice);
                    Invocation invocation = kind == 0
                            ? lengthen(folding.invocation(), folding.kernel(), 50 + choice.nextInt(400), choice) : folding.invocation();
                    return new Ringed(folding.kernel(), invocation, choice.nextBoolean(), kind == 0 && choice.nextBoolean(), threads);
                }).withoutEdgeCases();
    }

    /** The same params and tables over {@code n} instances, the inputs drawn afresh. */
    private static Invocation lengthen(Invocation invocation, Kernel kernel, int n, Random random) {
        Invocation.Builder builder = kernel.invocation().sizes(n);
        for (ParamSpec param : kernel.params()) {
            builder.param(param.name(), invocation.param(param.name()));
        }
        for (FieldSpec field : kernel.fields()) {
            if (field.isInput()) {
                // the input's halo, as many elements beyond the domain as the original had
                int length = n + java.lang.reflect.Array.getLength(invocation.input(field.name())) - invocation.sizes()[0];
                builder.input(field.name(), switch (field.type()) {
                    case INT -> random.ints(length, -50, 50).toArray();
                    case LONG -> random.longs(length, -50, 50).toArray();
                    case DOUBLE -> random.doubles(length, -1, 1).toArray();
                    case BOOL -> {
                        boolean[] values = new boolean[length];
                        for (int k = 0; k < length; k++) {
                            values[k] = random.nextBoolean();
                        }
                        yield values;
                    }
                });
            }
        }
        for (TableSpec table : kernel.tables()) {
            builder.input(table.name(), invocation.input(table.name()));
        }
        return builder.build();
    }

    @Property(tries = 60, seed = "20261201")
    void theJvmBackendUnderSpscRingGivesWhatTheOracleGives(@ForAll("ringed") Ringed ringed) {
        KernelGraph graph = Pipeline.compile(ringed.kernel());
        int[] sizes = ringed.invocation().sizes();
        KernelOutputs oracle = SequentialOracle.run(graph, ringed.invocation());
        Schedule.LockDataflow schedule = ringed.interleaved() ? lockDataflow().interleaved() : lockDataflow();
        RingFolding rings = RingFolding.of((DataflowPlan) SchedulePlanner.plan(graph, schedule)).rings().orElseThrow();
        if (ringed.shortest() && !rings.folded().isEmpty()) {
            int needed = rings.rank() == 2 ? rings.foldReach() + 1 : rings.block() + rings.foldReach();
            schedule = schedule.capacity(Math.max(2, Integer.highestOneBit(needed - 1) << 1));
        }
        net.jqwik.api.statistics.Statistics.collect(sizes.length + "D", rings.folded().isEmpty() ? "nothing folds" : "folds",
                ringed.threads() > 1 ? "threads" : "one thread");
        Variant variant = new Variant(graph, SchedulePlanner.plan(graph, schedule), Optional.of(LockMechanism.SPSC_RING));
        JvmBackend jvm = new JvmBackend();
        assertEquals(Optional.empty(), jvm.unsupported(variant.plan(), LockMechanism.SPSC_RING), ringed::toString);
        BackendRun run = jvm.run(variant, ringed.invocation(), RunSettings.once(1, ringed.threads()));
        assertEquals(Optional.empty(), oracle.firstDifference(graph, sizes, run.outputs()), ringed::toString);
    }
}
