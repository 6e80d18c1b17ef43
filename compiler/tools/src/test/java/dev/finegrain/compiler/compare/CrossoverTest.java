package dev.finegrain.compiler.compare;

import dev.finegrain.compiler.backend.Backend;
import dev.finegrain.compiler.backend.BackendRun;
import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.reference.ReferenceBackend;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LibraryKernel;
import dev.finegrain.dsl.LockMechanism;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongUnaryOperator;

import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static dev.finegrain.dsl.Finegrain.wavefront;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The crossover search: exact on deterministic costs, every probe verified, the spread told from a win. */
class CrossoverTest {

    private static final Kernel CHAIN = kernel("work-chain")
            .domain(dim("i", "n"))
            .param("work", INT)
            .state("a", INT, boundary(constant(0)))
            .actor("link", "a", a -> a.read("a", -1).plus(a.param("work")))
            .build();

    private static final LibraryKernel ENTRY = new LibraryKernel(CHAIN, "a chain", "a chain",
            (kernel, sizes, seed) -> kernel.invocation().sizes(sizes).param("work", 0).build(), List.of(new int[] {16}));

    /**
     * The reference's outputs (so every row is verified) with a cost that is a function of the size and the param
     * {@code work}, modelled like a GPU's time: the search sees only the cost.
     */
    private record CostedBackend(String name, java.util.function.BiFunction<Long, Long, Long> cost, List<String> seen)
            implements Backend {
        @Override
        public boolean modelsSyncAbstractly() {
            return true;
        }

        @Override
        public List<LockMechanism> sweep() {
            return List.of();
        }

        @Override
        public Optional<String> unsupported(ExecutionPlan plan, LockMechanism mechanism) {
            return Optional.empty();
        }

        @Override
        public BackendRun run(Variant variant, Invocation invocation, RunSettings settings) {
            BackendRun reference = new ReferenceBackend().run(variant, invocation, settings);
            long size = invocation.size(0);
            long work = ((Number) invocation.param("work")).longValue();
            seen.add(size + "/" + work);
            long micros = cost.apply(size, work);
            return new BackendRun(reference.outputs(), "cycles", micros, "cycles", Map.of("us", (double) micros), Optional.empty());
        }
    }

    private static Crossover.Variant on(Backend backend) {
        return new Crossover.Variant(lockDataflow(), backend, Optional.empty(), Optional.empty());
    }

    @Test
    void bisectionFindsTheExactStepWhereTheWinnerChanges() {
        List<String> seen = new ArrayList<>();
        // A costs 1000 + n, B costs 10 n: A starts to win past n = 111.1, so between 110 and 120 in steps of 10
        Backend a = new CostedBackend("a", (n, work) -> 1000 + n, seen);
        Backend b = new CostedBackend("b", (n, work) -> 10 * n, seen);
        Crossover.Result result = new Crossover(ENTRY, "size", null, 1, 42, null).search(on(a), on(b), 10, 1290, 10);
        assertEquals(110, result.below().orElseThrow().value());
        assertEquals(120, result.above().orElseThrow().value());
        assertTrue(result.above().get().aWins() && !result.below().get().aWins());
        assertTrue(result.probes().size() <= 2 + 8, "bisection takes about log2(128) probes: " + result.probes().size());
        assertEquals(2 * result.probes().size(), seen.size(), "each probe runs each variant once (not timed: no repeats)");
    }

    @Test
    void aParamAxisRunsEachValueAtTheFixedSize() {
        List<String> seen = new ArrayList<>();
        Backend parallel = new CostedBackend("parallel", (n, work) -> 500 + n * work / 4, seen);
        Backend single = new CostedBackend("single", (n, work) -> n * work, seen);
        Crossover.Result result = new Crossover(ENTRY, "work", new int[] {64}, 1, 42, null)
                .search(on(parallel), on(single), 1, 64, 1);
        // 500 + 16 w < 64 w from w = 10.4: the break-even lies between 10 and 11
        assertEquals(10, result.below().orElseThrow().value());
        assertEquals(11, result.above().orElseThrow().value());
        assertTrue(seen.stream().allMatch(point -> point.startsWith("64/")), "every probe at size 64: " + seen);
    }

    @Test
    void noCrossoverWhenOneVariantWinsAtBothEnds() {
        List<String> seen = new ArrayList<>();
        Crossover.Result result = new Crossover(ENTRY, "size", null, 1, 42, null).search(
                on(new CostedBackend("a", (n, w) -> n, seen)), on(new CostedBackend("b", (n, w) -> 2 * n, seen)), 8, 64, 8);
        assertTrue(result.below().isEmpty() && result.above().isEmpty());
        assertEquals(2, result.probes().size(), "only the two ends are measured");
    }

    @Test
    void anUnverifiedOrSkippedProbeEndsTheSearchNamingIt() {
        // a backend that needs whole tiles (the built-in ones cut them short at the edges) skips a size 16 does not divide
        Crossover.Variant tiled = new Crossover.Variant(new dev.finegrain.dsl.Schedule.DataParallel(List.of(16)),
                new CostedBackend("whole-tiles", (n, work) -> n, new ArrayList<>()), Optional.empty(), Optional.empty());
        UsageException skipped = assertThrows(UsageException.class, () -> new Crossover(ENTRY, "size", null, 1, 42, null)
                .search(tiled, new Crossover.Variant(wavefront(), new ReferenceBackend(), Optional.empty(), Optional.empty()),
                        16, 40, 8));
        assertTrue(skipped.getMessage().startsWith("data-parallel:16/whole-tiles at size 40 is skipped: data-parallel:16 tiles"
                + " do not divide size 40"), skipped.getMessage());
    }

    @Test
    void aDifferenceWithinTheSpreadIsATie() {
        Crossover.Measured a = new Crossover.Measured(1.00, 0.05, "ms", null);
        Crossover.Measured b = new Crossover.Measured(1.08, 0.05, "ms", null);
        assertTrue(new Crossover.Probe(1, a, b).aWins());
        assertTrue(!new Crossover.Probe(1, a, b).beyondSpread(), "0.08 apart with spreads of 0.05 each");
        assertTrue(new Crossover.Probe(1, a, new Crossover.Measured(1.2, 0.05, "ms", null)).beyondSpread());
    }
}
