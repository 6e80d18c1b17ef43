package dev.finegrain.compiler.backend.jvm;

import dev.finegrain.compiler.backend.BackendRun;
import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.jvm.code.JClass;
import dev.finegrain.compiler.backend.jvm.code.JavaSourceEmitter;
import dev.finegrain.compiler.backend.jvm.layout.VectorWidth;
import dev.finegrain.compiler.backend.reference.SequentialOracle;
import dev.finegrain.compiler.ir.KernelExecutionException;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Keep;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;
import dev.finegrain.dsl.Storage;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.along;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dataParallel;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.index;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static dev.finegrain.dsl.Finegrain.lookup;
import static dev.finegrain.dsl.Finegrain.max;
import static dev.finegrain.dsl.Finegrain.param;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sequences and table lookups in lanes along a row (the row scans of lock-dataflow's bands and of data-parallel's
 * tiles): a score read from a table row that every lane shares (selected from one vector, from two, or gathered when
 * the row is longer than two vectors), a lookup whose row differs per lane (gathered), an index computed in lanes,
 * folded rows under spsc-ring, each against the oracle at sizes that leave partial vectors, and an index outside the
 * table stopping the run in the oracle's words.
 */
class SequenceLanesTest {

    /** How an alignment kernel looks its score up. */
    enum Scoring {
        /** {@code pair[a[i], b[j]]}: one row for every lane. */
        ROW_PER_ROW,
        /** {@code pair[b[j], a[i]]}: a row per lane, gathered. */
        ROW_PER_LANE,
        /** {@code pair[a[i], max(b[j] - 1, 0)]}: the lane's index computed in lanes. */
        COMPUTED
    }

    static Kernel alignment(Scoring scoring, int symbols, boolean keepFinal) {
        return alignment(scoring, symbols, keepFinal, Storage.NATURAL);
    }

    /** The alignment with its sequences kept in {@code storage} (bytes: each lane's residue widened from a byte). */
    static Kernel alignment(Scoring scoring, int symbols, boolean keepFinal, Storage storage) {
        Kernel.Builder builder = kernel("lane-align").domain(dim("i", "rows"), dim("j", "cols"))
                .param("gap", INT)
                .input("a", INT, along("i"), storage).input("b", INT, along("j"), storage)
                .table("pair", INT, symbols, symbols)
                .state("s", INT, boundary(index("i").plus(index("j")).times(-3)))
                .actor("cell", "s", c -> max(c.read("s", -1, -1).plus(switch (scoring) {
                    case ROW_PER_ROW -> lookup("pair", c.read("a", 0), c.read("b", 0));
                    case ROW_PER_LANE -> lookup("pair", c.read("b", 0), c.read("a", 0));
                    case COMPUTED -> lookup("pair", c.read("a", 0), max(c.read("b", 0).minus(1), constant(0)));
                }), c.read("s", -1, 0).minus(param("gap")), c.read("s", 0, -1).minus(param("gap"))));
        if (keepFinal) {
            builder.keep("s", Keep.FINAL);
        }
        return builder.build();
    }

    static Invocation inputs(Kernel kernel, int symbols, int rows, int cols, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        return kernel.invocation().sizes(rows, cols).param("gap", random.nextInt(0, 5))
                .input("a", random.ints(rows, 0, symbols).toArray()).input("b", random.ints(cols, 0, symbols).toArray())
                .input("pair", random.ints(symbols * symbols, -6, 7).toArray()).build();
    }

    /** Tables whose rows are shorter than a vector of 16 ints, one vector, between one and two, two, and longer. */
    private static final int[] SYMBOLS = {4, 16, 24, 32, 40};

    @Property(tries = 15)
    void rowScansWithLookupsMatchTheOracle(@ForAll @IntRange(min = 1, max = 24) int rows, @ForAll @IntRange(min = 1, max = 150) int cols,
                                           @ForAll @IntRange(min = 0, max = 4) int table, @ForAll long seed) {
        int symbols = SYMBOLS[table];
        for (Scoring scoring : Scoring.values()) {
            Kernel kernel = alignment(scoring, symbols, false);
            Invocation invocation = inputs(kernel, symbols, rows, cols, seed);
            int[] sizes = {rows, cols};
            for (LockMechanism mechanism : List.of(LockMechanism.ACQUIRE_RELEASE_FLAG, LockMechanism.SPSC_RING)) {
                assertRowScan(kernel, lockDataflow(), Optional.of(mechanism));
                for (int threads = 1; threads <= 3; threads++) {
                    LaneStripsTest.check(kernel, invocation, sizes, lockDataflow(), Optional.of(mechanism), 512, threads);
                }
            }
            LaneStripsTest.check(kernel, invocation, sizes, lockDataflow(), Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG), 256, 2);
        }
    }

    @Property(tries = 8)
    void foldedRowsWithLookupsKeepTheFinalScore(@ForAll @IntRange(min = 1, max = 40) int rows,
                                                       @ForAll @IntRange(min = 1, max = 150) int cols, @ForAll long seed) {
        Kernel kernel = alignment(Scoring.ROW_PER_ROW, 24, true);
        Invocation invocation = inputs(kernel, 24, rows, cols, seed);
        // folded, the rows run striped in the bands' own rows (StripedRowsTest)
        StripedRowsTest.assertStriped(kernel);
        for (int threads = 1; threads <= 3; threads++) {
            LaneStripsTest.check(kernel, invocation, new int[] {rows, cols}, lockDataflow().capacity(2), Optional.of(LockMechanism.SPSC_RING),
                    512, threads);
            LaneStripsTest.check(kernel, invocation, new int[] {rows, cols}, lockDataflow(), Optional.of(LockMechanism.SPSC_RING), 512, threads);
        }
    }

    @Test
    void tilesOfRowScansWithLookupsMatchTheOracle() {
        for (Scoring scoring : Scoring.values()) {
            for (int symbols : SYMBOLS) {
                Kernel kernel = alignment(scoring, symbols, false);
                int[] sizes = {12, 256};
                Invocation invocation = inputs(kernel, symbols, sizes[0], sizes[1], symbols * 31L + scoring.ordinal());
                for (Schedule schedule : List.of(dataParallel(4, 16), dataParallel(4, 64), dataParallel(4, 128))) {
                    assertRowScan(kernel, schedule, Optional.empty());
                    for (int threads = 1; threads <= 2; threads++) {
                        LaneStripsTest.check(kernel, invocation, sizes, schedule, Optional.empty(), 512, threads);
                    }
                }
            }
        }
    }

    /** The class runs its rows in lanes: a row scan of 16 int lanes, not scalar loops. */
    private static void assertRowScan(Kernel kernel, Schedule schedule, Optional<LockMechanism> mechanism) {
        JClass generated = JvmCodegen.generate(SchedulePlanner.plan(Pipeline.compile(kernel), schedule), mechanism,
                "dev.finegrain.generated.source", VectorWidth.of(512));
        assertTrue(generated.javadoc().contains("Lanes: 16 int lanes") && generated.javadoc().contains("Row scan:"),
                schedule.cliName() + " " + mechanism + ": " + generated.javadoc());
    }

    @Test
    void sequencesKeptInBytesRunInLanes() {
        for (Scoring scoring : Scoring.values()) {
            Kernel kernel = alignment(scoring, 24, false, Storage.BYTE);
            Invocation invocation = inputs(kernel, 24, 9, 128, scoring.ordinal() + 5L);
            assertRowScan(kernel, lockDataflow(), Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG));
            for (int threads = 1; threads <= 2; threads++) {
                LaneStripsTest.check(kernel, invocation, new int[] {9, 128}, lockDataflow(), Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG),
                        512, threads);
                LaneStripsTest.check(kernel, invocation, new int[] {9, 128}, dataParallel(3, 64), Optional.empty(), 512, threads);
            }
        }
    }

    @Test
    void theRowScanNamesItsLanesAndTheJavaSourceRunsThem() throws Exception {
        for (Scoring scoring : Scoring.values()) {
            Kernel kernel = alignment(scoring, 24, false);
            KernelGraph graph = Pipeline.compile(kernel);
            ExecutionPlan plan = SchedulePlanner.plan(graph, lockDataflow());
            Optional<LockMechanism> mechanism = Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG);
            JClass generated = JvmCodegen.generate(plan, mechanism, "dev.finegrain.generated.source", VectorWidth.of(512));
            assertTrue(generated.javadoc().contains("Lanes: 16 int lanes"), generated.javadoc());
            String source = JavaSourceEmitter.emit(generated).toString();
            assertTrue(source.contains(scoring == Scoring.ROW_PER_LANE ? "IntVector.fromArray(IntVector.SPECIES_512, pair, 0, lookupIndexMap, 0)"
                    : "pairRow = IntVector.fromArray(IntVector.SPECIES_512, pair, pairRowStart"), source);
            Invocation invocation = inputs(kernel, 24, 9, 70, 11);
            Class<?> compiled = SourceCompiler.compile(generated.name(), source);
            BackendRun run = new JvmBackend().runWith(compiled, new Variant(graph, plan, mechanism), invocation, RunSettings.once(1, 2));
            assertEquals(Optional.empty(), SequentialOracle.run(graph, invocation).firstDifference(graph, new int[] {9, 70}, run.outputs()));
        }
    }

    @Test
    void lanesAcrossRowsKeepLookupsScalarAndSayWhy() {
        KernelGraph graph = Pipeline.compile(alignment(Scoring.ROW_PER_ROW, 24, false));
        JClass generated = JvmCodegen.generate(SchedulePlanner.plan(graph, dev.finegrain.dsl.Finegrain.wavefront()), Optional.empty(),
                "dev.finegrain.generated.source", VectorWidth.of(512));
        assertTrue(generated.javadoc().contains("Lanes: none; actor 'cell': a table lookup gathers one element per lane, which only"
                + " lanes along a row (a row scan) take."), generated.javadoc());
    }

    /**
     * A lookup in a select's branch is looked up only where the branch is taken, by the oracle and the scalar loops; lanes
     * would look it up in every lane, so such a kernel keeps scalar loops, and a residue outside the table where the
     * branch is not taken stops nothing.
     */
    @Test
    void aLookupInASelectsBranchKeepsScalarLoopsAndLooksUpOnlyWhereTaken() {
        Kernel kernel = kernel("guarded-align").domain(dim("i", "rows"), dim("j", "cols"))
                .input("a", INT, along("i")).input("b", INT, along("j"))
                .table("pair", INT, 24, 24)
                .state("s", INT, boundary(index("i").plus(index("j")).times(-3)))
                .actor("cell", "s", c -> max(c.read("s", -1, -1).plus(dev.finegrain.dsl.Finegrain.select(c.read("b", 0).lessThan(24),
                        lookup("pair", c.read("a", 0), c.read("b", 0)), constant(-5))), c.read("s", -1, 0).minus(2),
                        c.read("s", 0, -1).minus(2)))
                .build();
        KernelGraph graph = Pipeline.compile(kernel);
        JClass generated = JvmCodegen.generate(SchedulePlanner.plan(graph, lockDataflow()), Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG),
                "dev.finegrain.generated.source", VectorWidth.of(512));
        assertTrue(generated.javadoc().contains("a table lookup in a select's branch would be looked up in lanes that do not take"
                + " the branch"), generated.javadoc());
        SplittableRandom random = new SplittableRandom(3);
        int[] b = random.ints(40, 0, 24).toArray();
        b[7] = 31;
        Invocation invocation = kernel.invocation().sizes(5, 40).input("a", random.ints(5, 0, 24).toArray()).input("b", b)
                .input("pair", random.ints(24 * 24, -6, 7).toArray()).build();
        for (int threads = 1; threads <= 2; threads++) {
            LaneStripsTest.check(kernel, invocation, new int[] {5, 40}, lockDataflow(), Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG),
                    512, threads);
        }
    }

    /**
     * Two lookups in a cell keep scalar loops: a run stops at the first point's first index outside, which lanes checking
     * one lookup's lanes at a time would not find first (here table 'u' at column 2, not table 't' at column 5).
     */
    @Test
    void twoLookupsInACellKeepScalarLoopsAndStopWhereTheOracleDoes() {
        Kernel kernel = kernel("two-lookups").domain(dim("i", "rows"), dim("j", "cols"))
                .input("a", INT, along("i")).input("b", INT, along("j")).input("c", INT, along("j"))
                .table("t", INT, 24, 24).table("u", INT, 4)
                .state("s", INT, boundary(index("i").plus(index("j")).times(-3)))
                .actor("cell", "s", c -> max(c.read("s", -1, -1).plus(lookup("t", c.read("a", 0), c.read("b", 0)))
                        .plus(lookup("u", c.read("c", 0))), c.read("s", -1, 0).minus(2), c.read("s", 0, -1).minus(2)))
                .build();
        KernelGraph graph = Pipeline.compile(kernel);
        JClass generated = JvmCodegen.generate(SchedulePlanner.plan(graph, lockDataflow()), Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG),
                "dev.finegrain.generated.source", VectorWidth.of(512));
        assertTrue(generated.javadoc().contains("more than one table lookup in a cell"), generated.javadoc());
        int[] b = new int[32];
        int[] c = new int[32];
        b[5] = 30;
        c[2] = 9;
        Invocation invocation = kernel.invocation().sizes(3, 32).input("a", new int[3]).input("b", b).input("c", c)
                .input("t", new int[24 * 24]).input("u", new int[4]).build();
        String expected = assertThrows(KernelExecutionException.class, () -> SequentialOracle.run(graph, invocation)).getMessage();
        assertTrue(expected.contains("table 'u' got index 9"), expected);
        for (Schedule schedule : List.of(lockDataflow(), dataParallel(3, 16))) {
            ExecutionPlan plan = SchedulePlanner.plan(graph, schedule);
            Optional<LockMechanism> mechanism = schedule instanceof Schedule.LockDataflow
                    ? Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG) : Optional.empty();
            KernelExecutionException jvm = assertThrows(KernelExecutionException.class,
                    () -> new JvmBackend().run(new Variant(graph, plan, mechanism), invocation, RunSettings.once(1, 2)));
            assertEquals(expected, jvm.getMessage(), schedule.cliName());
        }
    }

    @Test
    void anIndexOutsideTheTableInALaneStopsTheRunAsTheOracleDoes() {
        for (Scoring scoring : Scoring.values()) {
            Kernel kernel = alignment(scoring, 24, false);
            int[] b = new int[48];
            b[21] = 30;
            Invocation invocation = kernel.invocation().sizes(3, 48).param("gap", 1).input("a", new int[] {0, 1, 2}).input("b", b)
                    .input("pair", new int[24 * 24]).build();
            KernelGraph graph = Pipeline.compile(kernel);
            String expected = assertThrows(KernelExecutionException.class, () -> SequentialOracle.run(graph, invocation)).getMessage();
            assertTrue(expected.contains("got index " + (scoring == Scoring.COMPUTED ? 29 : 30)), expected);
            assertStopsAsTheOracle(graph, invocation, expected, scoring.toString());
            // the row's residue outside the table: the lanes check the row's index once, before the row's first vector
            Invocation badRow = kernel.invocation().sizes(3, 48).param("gap", 1).input("a", new int[] {0, 26, 2})
                    .input("b", new int[48]).input("pair", new int[24 * 24]).build();
            String rowExpected = assertThrows(KernelExecutionException.class, () -> SequentialOracle.run(graph, badRow)).getMessage();
            assertTrue(rowExpected.contains("got index 26"), rowExpected);
            assertStopsAsTheOracle(graph, badRow, rowExpected, scoring + ", a row outside");
        }
    }

    private static void assertStopsAsTheOracle(KernelGraph graph, Invocation invocation, String expected, String what) {
        for (Schedule schedule : List.of(lockDataflow(), dataParallel(3, 16), dataParallel(3, 48))) {
            ExecutionPlan plan = SchedulePlanner.plan(graph, schedule);
            Optional<LockMechanism> mechanism = schedule instanceof Schedule.LockDataflow
                    ? Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG) : Optional.empty();
            KernelExecutionException jvm = assertThrows(KernelExecutionException.class,
                    () -> new JvmBackend().run(new Variant(graph, plan, mechanism), invocation, RunSettings.once(1, 2)));
            assertEquals(expected, jvm.getMessage(), what + " " + schedule.cliName());
        }
    }
}
