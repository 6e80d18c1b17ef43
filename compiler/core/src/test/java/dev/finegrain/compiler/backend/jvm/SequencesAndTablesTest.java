package dev.finegrain.compiler.backend.jvm;

import dev.finegrain.compiler.backend.BackendRun;
import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.jvm.code.JClass;
import dev.finegrain.compiler.backend.jvm.code.JavaSourceEmitter;
import dev.finegrain.compiler.backend.jvm.layout.VectorWidth;
import dev.finegrain.compiler.backend.reference.SequentialOracle;
import dev.finegrain.compiler.ir.IrPrinter;
import dev.finegrain.compiler.ir.KernelExecutionException;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.LONG;
import static dev.finegrain.dsl.Finegrain.DOUBLE;
import static dev.finegrain.dsl.Finegrain.along;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dataParallel;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.dynamicDataflow;
import static dev.finegrain.dsl.Finegrain.index;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static dev.finegrain.dsl.Finegrain.lookup;
import static dev.finegrain.dsl.Finegrain.max;
import static dev.finegrain.dsl.Finegrain.wavefront;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sequence inputs ({@code along} some dimensions) and lookup tables on the reference and the jvm backend: the oracle
 * against a loop written by hand, every schedule and mechanism against the oracle (bytecode and Java source), an index
 * outside a table refused in the same words on both, and the forms with lanes refused with the reason.
 */
class SequencesAndTablesTest {

    private static final int SYMBOLS = 5;

    /** An alignment of two sequences scored by a 5 x 5 table, with a per-row long bonus from a 1D table. */
    static Kernel alignment() {
        return kernel("seq-align").domain(dim("i", "rows"), dim("j", "cols"))
                .input("a", INT, along("i")).input("b", INT, along("j"))
                .table("pair", INT, SYMBOLS, SYMBOLS)
                .state("s", INT, boundary(index("i").plus(index("j")).times(-2)))
                .actor("cell", "s", c -> max(c.read("s", -1, -1).plus(lookup("pair", c.read("a", 0), c.read("b", 0))),
                        c.read("s", -1, 0).minus(2), c.read("s", 0, -1).minus(c.read("b", 0))))
                .build();
    }

    static Invocation alignmentInputs(Kernel kernel, int rows, int cols, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int[] a = random.ints(rows, 0, SYMBOLS).toArray();
        int[] b = random.ints(cols, 0, SYMBOLS).toArray();
        int[] pair = random.ints(SYMBOLS * SYMBOLS, -4, 6).toArray();
        return kernel.invocation().sizes(rows, cols).input("a", a).input("b", b).input("pair", pair).build();
    }

    /** The recurrence of {@link #alignment} as a plain loop. */
    private static int[] alignmentByHand(int[] a, int[] b, int[] pair, int rows, int cols) {
        int[][] s = new int[rows + 1][cols + 1];
        for (int i = -1; i < rows; i++) {
            for (int j = -1; j < cols; j++) {
                if (i < 0 || j < 0) {
                    s[i + 1][j + 1] = (i + j) * -2;
                    continue;
                }
                s[i + 1][j + 1] = Math.max(s[i][j] + pair[a[i] * SYMBOLS + b[j]], Math.max(s[i][j + 1] - 2, s[i + 1][j] - b[j]));
            }
        }
        int[] out = new int[rows * cols];
        for (int i = 0; i < rows; i++) {
            System.arraycopy(s[i + 1], 1, out, i * cols, cols);
        }
        return out;
    }

    @Property(tries = 40)
    void theOracleComputesWhatALoopByHandDoes(@ForAll @IntRange(min = 1, max = 40) int rows,
                                                @ForAll @IntRange(min = 1, max = 40) int cols, @ForAll long seed) {
        Kernel kernel = alignment();
        Invocation invocation = alignmentInputs(kernel, rows, cols, seed);
        int[] expected = alignmentByHand((int[]) invocation.input("a"), (int[]) invocation.input("b"), (int[]) invocation.input("pair"), rows, cols);
        assertArrayEquals(expected, (int[]) SequentialOracle.run(Pipeline.compile(kernel), invocation).field("s"));
    }

    @Property(tries = 12)
    void everyScheduleAndMechanismOnTheJvmMatchesTheOracle(@ForAll @IntRange(min = 1, max = 48) int rows,
                                                             @ForAll @IntRange(min = 1, max = 48) int cols, @ForAll long seed) {
        Kernel kernel = alignment();
        Invocation invocation = alignmentInputs(kernel, rows, cols, seed);
        int[] sizes = {rows, cols};
        List<Schedule> tiled = rows % 4 == 0 && cols % 4 == 0 ? List.of(dataParallel(4, 4), dynamicDataflow().tile(4, 4)) : List.of();
        for (Schedule schedule : concat(List.of(wavefront(), dataParallel(sizes)), tiled)) {
            for (int threads = 1; threads <= 2; threads++) {
                LaneStripsTest.check(kernel, invocation, sizes, schedule, Optional.empty(), 512, threads);
            }
        }
        // every mechanism the jvm sweeps for this 2D kernel
        for (LockMechanism mechanism : new JvmBackend().mechanisms(SchedulePlanner.plan(Pipeline.compile(kernel), lockDataflow()))) {
            LaneStripsTest.check(kernel, invocation, sizes, lockDataflow(), Optional.of(mechanism), 512, 2);
        }
    }

    /** A 3D domain reading a plane along (i, k), and long and double tables indexed by computed expressions. */
    @Test
    void aPlaneAlongTwoDimensionsAndTablesOfEveryTypeMatchTheOracle() {
        Kernel kernel = kernel("seq-plane").domain(dim("i", "n"), dim("j", "m"), dim("k", "p"))
                .input("plane", INT, along("i", "k"))
                .table("weights", LONG, 7)
                .table("scale", DOUBLE, 2, 3)
                .state("s", LONG, boundary(constant(1L)))
                .state("x", DOUBLE, boundary(constant(0.5)))
                .actor("sum", "s", c -> c.read("s", 0, -1, 0).plus(lookup("weights", c.read("plane", 0, 0).remainder(7))))
                .actor("mix", "x", c -> c.read("x", 0, 0, -1).times(lookup("scale", index("i").remainder(2), c.read("plane", 0, 0).remainder(3)))
                        .plus(c.read("s", 0, 0, 0).castTo(DOUBLE)))
                .build();
        int[] sizes = {3, 5, 4};
        SplittableRandom random = new SplittableRandom(7);
        Invocation invocation = kernel.invocation().sizes(sizes).input("plane", random.ints(3 * 4, 0, 100).toArray())
                .input("weights", random.longs(7, -1_000_000_000_000L, 1_000_000_000_000L).toArray())
                .input("scale", random.doubles(6, -1.5, 1.5).toArray()).build();
        for (Schedule schedule : List.of(wavefront(), dataParallel(sizes), lockDataflow())) {
            Optional<LockMechanism> mechanism = schedule instanceof Schedule.LockDataflow ? Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG) : Optional.empty();
            KernelGraph graph = Pipeline.compile(kernel);
            ExecutionPlan plan = SchedulePlanner.plan(graph, schedule);
            Variant variant = new Variant(graph, plan, mechanism);
            BackendRun run = new JvmBackend().run(variant, invocation, RunSettings.once(1, 2));
            assertEquals(Optional.empty(), SequentialOracle.run(graph, invocation).firstDifference(graph, sizes, run.outputs()), schedule.cliName());
        }
        long[] s = (long[]) SequentialOracle.run(Pipeline.compile(kernel), invocation).field("s");
        int[] plane = (int[]) invocation.input("plane");
        long[] weights = (long[]) invocation.input("weights");
        // s(i, j, k) = 1 + (j + 1) * weights[plane(i, k) % 7]
        assertEquals(1 + 5 * weights[plane[2 * 4 + 3] % 7], s[((2 * 5) + 4) * 4 + 3]);
    }

    @Test
    void anIndexOutsideATableStopsTheRunNamingTheTableTheAxisAndTheValue() {
        Kernel kernel = alignment();
        Invocation invocation = kernel.invocation().sizes(4, 4).input("a", new int[] {0, 1, 2, 3}).input("b", new int[] {4, 0, 9, 1})
                .input("pair", new int[SYMBOLS * SYMBOLS]).build();
        String expected = "kernel 'seq-align': a lookup of table 'pair' got index 9 on axis 1, outside 0..4; keep the indices an actor "
                + "computes inside the table (check the input values they come from)";
        KernelGraph graph = Pipeline.compile(kernel);
        KernelExecutionException oracle = assertThrows(KernelExecutionException.class, () -> SequentialOracle.run(graph, invocation));
        assertEquals(expected, oracle.getMessage());
        for (Schedule schedule : List.of(wavefront(), lockDataflow(), dataParallel(2, 2))) {
            ExecutionPlan plan = SchedulePlanner.plan(graph, schedule);
            Optional<LockMechanism> mechanism = schedule instanceof Schedule.LockDataflow ? Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG) : Optional.empty();
            KernelExecutionException jvm = assertThrows(KernelExecutionException.class,
                    () -> new JvmBackend().run(new Variant(graph, plan, mechanism), invocation, RunSettings.once(1, 2)));
            assertEquals(expected, jvm.getMessage(), schedule.cliName());
        }
    }

    @Test
    void theJavaSourceReadsSequencesByTheirOwnIndexAndChecksEachAxis() throws Exception {
        Kernel kernel = alignment();
        KernelGraph graph = Pipeline.compile(kernel);
        ExecutionPlan plan = SchedulePlanner.plan(graph, wavefront());
        JClass generated = JvmCodegen.generate(plan, Optional.empty(), "dev.finegrain.generated.source", VectorWidth.of(512));
        String source = JavaSourceEmitter.emit(generated).toString();
        assertTrue(source.contains("TableIndex.check("), source);
        assertTrue(generated.javadoc().contains("Lanes: none; actor 'cell': a table lookup gathers one element per lane, which only"
                + " lanes along a row (a row scan) take."), generated.javadoc());
        Invocation invocation = alignmentInputs(kernel, 9, 13, 3);
        Class<?> compiled = SourceCompiler.compile(generated.name(), source);
        BackendRun fromSource = new JvmBackend().runWith(compiled, new Variant(graph, plan, Optional.empty()), invocation, RunSettings.once(1, 2));
        assertEquals(Optional.empty(), SequentialOracle.run(graph, invocation).firstDifference(graph, new int[] {9, 13}, fromSource.outputs()));
    }

    @Test
    void theIrPrintsSequencesOverTheirOwnDimensionsAndLookupsByTableName() {
        String ir = IrPrinter.print(Pipeline.compile(alignment()));
        assertTrue(ir.contains("  input a: int, along i\n"), ir);
        assertTrue(ir.contains("  input b: int, along j\n"), ir);
        assertTrue(ir.contains("  table pair: int 5 x 5\n"), ir);
        assertTrue(ir.contains("s[i-1, j-1] + pair[a[i], b[j]]"), ir);
    }

    private static <T> List<T> concat(List<T> first, List<T> second) {
        return java.util.stream.Stream.concat(first.stream(), second.stream()).toList();
    }
}
