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
import dev.finegrain.dsl.Expr;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Keep;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.Reduction;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;
import dev.finegrain.dsl.Storage;
import dev.finegrain.dsl.Type;
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
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.index;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static dev.finegrain.dsl.Finegrain.lookup;
import static dev.finegrain.dsl.Finegrain.max;
import static dev.finegrain.dsl.Finegrain.select;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Folded rows in Farrar's striped layout (spsc-ring, the field kept as its last row or final value), against the oracle:
 * bands narrower than a vector and many vectors wide with a rest, 1 to 3 workers (more workers than columns too), int
 * lanes of 256 and 512 bits and long lanes; a query profile, a sequence compared in lanes, an index in lanes, sequences
 * kept in bytes; rows whose west value lies near the minimum or whose gap is out of range, which run cell by cell; an
 * index outside the table, which stops the run in the oracle's words; and what keeps a kernel on the row scan.
 */
class StripedRowsTest {

    private static final Schedule RING = lockDataflow();
    private static final Optional<LockMechanism> SPSC = Optional.of(LockMechanism.SPSC_RING);

    /** How the striped kernel scores a cell. */
    enum Score {
        /** {@code pair[a[i], b[j]]}: a query profile. */
        PROFILE,
        /** {@code a[i] == b[j] ? 2 : -1}: the striped sequence compared in lanes. */
        MATCH,
        /** {@code pair[a[i], b[j]] + (j & 3)}: the profile and each lane's column. */
        PROFILE_AND_COLUMN
    }

    /** The alignment; long kernels score by {@link Score#MATCH} over long sequences, as long lanes take no int index. */
    static Kernel alignment(Score score, Type type, Keep keep, Storage storage, Expr west) {
        boolean longs = type == Type.LONG;
        Kernel.Builder builder = kernel("striped-" + score.name().toLowerCase().replace('_', '-') + (longs ? "-long" : "")).domain(dim("i", "rows"), dim("j", "cols"))
                .param("gap", type)
                .input("a", type, along("i"), storage).input("b", type, along("j"), storage);
        if (score != Score.MATCH) {
            builder.table("pair", INT, 24, 24);
        }
        return builder.state("s", type, boundary(west))
                .keep("s", keep)
                .actor("cell", "s", c -> {
                    Expr diagonal = c.read("s", -1, -1);
                    Expr scored = switch (score) {
                        case PROFILE -> diagonal.plus(lookup("pair", c.read("a", 0), c.read("b", 0)));
                        case MATCH -> diagonal.plus(select(c.read("a", 0).isEqualTo(c.read("b", 0)), longs ? constant(2L) : constant(2), longs ? constant(-1L) : constant(-1)));
                        case PROFILE_AND_COLUMN -> diagonal.plus(lookup("pair", c.read("a", 0), c.read("b", 0))).plus(index("j").and(3));
                    };
                    return max(scored, c.read("s", -1, 0).minus(c.param("gap")), c.read("s", 0, -1).minus(c.param("gap")));
                })
                .build();
    }

    static Kernel alignment(Score score, Type type, Keep keep) {
        Expr west = index("i").plus(index("j")).times(-3);
        return alignment(score, type, keep, Storage.NATURAL, type == Type.LONG ? west.castTo(Type.LONG) : west);
    }

    static Invocation inputs(Kernel kernel, int rows, int cols, long gap, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        if (kernel.name().endsWith("-long")) {
            return kernel.invocation().sizes(rows, cols).param("gap", gap)
                    .input("a", random.longs(rows, 0, 24).toArray()).input("b", random.longs(cols, 0, 24).toArray()).build();
        }
        Invocation.Builder builder = kernel.invocation().sizes(rows, cols).param("gap", (int) gap)
                .input("a", random.ints(rows, 0, 24).toArray()).input("b", random.ints(cols, 0, 24).toArray());
        return kernel.tables().isEmpty() ? builder.build() : builder.input("pair", random.ints(24 * 24, -6, 7).toArray()).build();
    }

    /** The kernels the lanes take: each score in int lanes, the match in long lanes. */
    private static List<Kernel> kernels(Keep keep) {
        return List.of(alignment(Score.PROFILE, Type.INT, keep), alignment(Score.MATCH, Type.INT, keep),
                alignment(Score.PROFILE_AND_COLUMN, Type.INT, keep), alignment(Score.MATCH, Type.LONG, keep));
    }

    /** Sizes with a rest past whole vectors, one of 2 columns (with 3 workers, a band with none), bands many vectors wide. */
    private static final List<int[]> SIZES = List.of(new int[] {4, 2}, new int[] {3, 5}, new int[] {17, 40}, new int[] {9, 300},
            new int[] {33, 517});

    @Test
    void stripedRowsMatchTheOracle() {
        for (Keep keep : List.of(Keep.FINAL, Keep.LAST_ROW)) {
            for (Kernel kernel : kernels(keep)) {
                assertStriped(kernel);
                for (int[] sizes : SIZES) {
                    Invocation invocation = inputs(kernel, sizes[0], sizes[1], 1 + sizes[1] % 4, sizes[0] * 31L + sizes[1]);
                    for (int threads = 1; threads <= 3; threads++) {
                        LaneStripsTest.check(kernel, invocation, sizes, RING, SPSC, 512, threads);
                    }
                    LaneStripsTest.check(kernel, invocation, sizes, lockDataflow().capacity(2), SPSC, 256, 2);
                }
            }
        }
    }

    @Property(tries = 12)
    void randomStripedAlignmentsMatchTheOracle(@ForAll @IntRange(min = 1, max = 30) int rows, @ForAll @IntRange(min = 1, max = 200) int cols,
                                               @ForAll @IntRange(min = 0, max = 6) int gap, @ForAll long seed) {
        for (Kernel kernel : kernels(Keep.LAST_ROW)) {
            Invocation invocation = inputs(kernel, rows, cols, gap, seed);
            for (int threads = 1; threads <= 3; threads++) {
                LaneStripsTest.check(kernel, invocation, new int[] {rows, cols}, RING, SPSC, 512, threads);
            }
        }
    }

    /**
     * Smith-Waterman's shape (a floor of 0 as one more term) with its best score and cell, the sum and the least value
     * streamed from the striped rows: the slots past a band's last column left out, a tie kept at its first point (the
     * match score of 2 and the floor of 0 tie often). Int lanes of 512 and 256 bits and long lanes, 1 to 3 workers.
     */
    @Test
    void reductionsStreamFromTheStripedRows() {
        for (Type type : List.of(Type.INT, Type.LONG)) {
            boolean longs = type == Type.LONG;
            Kernel kernel = kernel("striped-local" + (longs ? "-long" : "")).domain(dim("i", "rows"), dim("j", "cols"))
                    .param("gap", type).input("a", type, along("i")).input("b", type, along("j"))
                    .state("s", type, boundary(longs ? constant(0L) : constant(0))).keep("s", Keep.LAST_ROW)
                    .actor("cell", "s", c -> max(longs ? constant(0L) : constant(0), c.read("s", -1, -1).plus(select(c.read("a", 0)
                                    .isEqualTo(c.read("b", 0)), longs ? constant(2L) : constant(2), longs ? constant(-1L) : constant(-1))),
                            c.read("s", -1, 0).minus(c.param("gap")), c.read("s", 0, -1).minus(c.param("gap"))))
                    .reduceWithPosition("s", Reduction.MAX).reduce("s", Reduction.SUM).reduceWithPosition("s", Reduction.MIN)
                    .build();
            assertStriped(kernel);
            for (int[] sizes : SIZES) {
                Invocation invocation = inputs(kernel, sizes[0], sizes[1], 1, sizes[1]);
                for (int threads = 1; threads <= 3; threads++) {
                    LaneStripsTest.check(kernel, invocation, sizes, RING, SPSC, 512, threads);
                }
                LaneStripsTest.check(kernel, invocation, sizes, RING, SPSC, 256, 2);
            }
        }
    }

    @Test
    void sequencesKeptInBytesRunStriped() {
        Kernel kernel = alignment(Score.PROFILE, Type.INT, Keep.LAST_ROW, Storage.BYTE, index("i").plus(index("j")).times(-3));
        assertStriped(kernel);
        Invocation invocation = inputs(kernel, 20, 130, 2, 9);
        for (int threads = 1; threads <= 2; threads++) {
            LaneStripsTest.check(kernel, invocation, new int[] {20, 130}, RING, SPSC, 512, threads);
        }
    }

    /**
     * West values 7 above the minimum for the first 16 rows (those rows run cell by cell, and the row below them runs
     * in lanes from the values they left in storage), gaps of -3 (every row cell by cell), at and past MAX / (4 (w + 1))
     * for a band of 48 columns (w = 48 with 16 lanes: the first gap that runs in lanes and the first that does not).
     */
    @Test
    void rowsNearTheMinimumOrWithAGapOutOfRangeRunCellByCell() {
        int[] sizes = {40, 96};
        Expr west = select(index("i").lessThan(16), constant(Integer.MIN_VALUE + 7), index("i").times(-3));
        Kernel kernel = alignment(Score.PROFILE, Type.INT, Keep.LAST_ROW, Storage.NATURAL, west);
        int most = Integer.MAX_VALUE / 4 / 49;
        for (int gap : new int[] {5, -3, most, most + 1, 1 << 20}) {
            Invocation invocation = inputs(kernel, sizes[0], sizes[1], gap, gap);
            for (int threads = 1; threads <= 2; threads++) {
                LaneStripsTest.check(kernel, invocation, sizes, RING, SPSC, 512, threads);
            }
        }
        Expr longWest = select(index("i").lessThan(16), constant(Long.MIN_VALUE + 7), index("i").times(-3).castTo(Type.LONG));
        Kernel longs = alignment(Score.MATCH, Type.LONG, Keep.FINAL, Storage.NATURAL, longWest);
        for (long gap : new long[] {5, -3, Long.MAX_VALUE / 4 / 49, Long.MAX_VALUE / 4 / 49 + 1}) {
            LaneStripsTest.check(longs, inputs(longs, sizes[0], sizes[1], gap, 3), sizes, RING, SPSC, 512, 2);
        }
    }

    @Test
    void anIndexOutsideTheTableStopsTheRunAsTheOracleDoes() {
        Kernel kernel = alignment(Score.PROFILE, Type.INT, Keep.FINAL);
        KernelGraph graph = Pipeline.compile(kernel);
        int[] b = new int[48];
        b[21] = 30;
        Invocation badColumn = kernel.invocation().sizes(3, 48).param("gap", 1).input("a", new int[] {0, 1, 2}).input("b", b)
                .input("pair", new int[24 * 24]).build();
        Invocation badRow = kernel.invocation().sizes(3, 48).param("gap", 1).input("a", new int[] {0, 26, 2})
                .input("b", new int[48]).input("pair", new int[24 * 24]).build();
        // both: the first row's residue is checked before the columns', as point (0, 0) checks its indices in axis order
        Invocation both = kernel.invocation().sizes(3, 48).param("gap", 1).input("a", new int[] {26, 1, 2}).input("b", b)
                .input("pair", new int[24 * 24]).build();
        for (Invocation invocation : List.of(badColumn, badRow, both)) {
            String expected = assertThrows(KernelExecutionException.class, () -> SequentialOracle.run(graph, invocation)).getMessage();
            for (int threads = 1; threads <= 2; threads++) {
                int workers = threads;
                KernelExecutionException jvm = assertThrows(KernelExecutionException.class, () -> new JvmBackend()
                        .run(new Variant(graph, SchedulePlanner.plan(graph, RING), SPSC), invocation, RunSettings.once(1, workers)));
                assertEquals(expected, jvm.getMessage());
            }
        }
    }

    /** What keeps a kernel on the row scan where stripes could matter (spsc-ring, or a field kept in part), said in its summary. */
    @Test
    void aKernelTheStripesCannotTakeSaysWhy() {
        Kernel matrix = kernel("matrix-score").domain(dim("i", "rows"), dim("j", "cols")).param("gap", INT).input("ref", INT)
                .state("s", INT, boundary(index("i").plus(index("j")).times(-3))).keep("s", Keep.FINAL)
                .actor("cell", "s", c -> max(c.read("s", -1, -1).plus(c.read("ref", 0, 0)), c.read("s", -1, 0).minus(c.param("gap")),
                        c.read("s", 0, -1).minus(c.param("gap"))))
                .build();
        assertTrue(javadoc(matrix, SPSC).contains("Row scan:") && javadoc(matrix, SPSC).contains("Not striped: a striped row reads"
                + " sequences and tables, and 'ref' spans the domain, which its lanes would gather."), javadoc(matrix, SPSC));
        Kernel whole = alignment(Score.PROFILE, Type.INT, Keep.ALL);
        assertTrue(javadoc(whole, SPSC).contains("Row scan:") && javadoc(whole, SPSC).contains("Not striped: a striped row writes"
                + " storage only at a band's last column, and spsc-ring keeps 's' whole here (s is kept whole (keep ALL))."),
                javadoc(whole, SPSC));
        Kernel final_ = alignment(Score.PROFILE, Type.INT, Keep.FINAL);
        Optional<LockMechanism> flags = Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG);
        assertTrue(javadoc(final_, flags).contains("Row scan:") && javadoc(final_, flags).contains("Not striped: acquire-release"
                + " keeps 's' whole, and a striped row writes storage only at a band's last column; spsc-ring folds it into a ring"
                + " of rows, which runs striped."), javadoc(final_, flags));
        // tiny-lock refuses the row scan's lanes: that is what the summary says, not the strips' reason
        Optional<LockMechanism> tiny = Optional.of(LockMechanism.TINY_LOCK);
        assertTrue(javadoc(final_, tiny).contains("Lanes: none; tiny-lock keeps a ready bit in every data word"), javadoc(final_, tiny));
        // a field kept whole under another mechanism: nothing to say about stripes
        Optional<LockMechanism> blocking = Optional.of(LockMechanism.BLOCKING);
        assertTrue(!javadoc(whole, blocking).contains("Not striped") && !javadoc(whole, blocking).contains("Striped rows"), javadoc(whole, blocking));
    }

    @Test
    void theJavaSourceOfStripedRowsComputesWhatTheOracleDoes() throws Exception {
        Kernel kernel = alignment(Score.PROFILE_AND_COLUMN, Type.INT, Keep.LAST_ROW);
        KernelGraph graph = Pipeline.compile(kernel);
        ExecutionPlan plan = SchedulePlanner.plan(graph, RING);
        JClass generated = JvmCodegen.generate(plan, SPSC, "dev.finegrain.generated.source", VectorWidth.of(512));
        String source = JavaSourceEmitter.emit(generated).toString();
        assertTrue(source.contains("pairProfile = new int[java.lang.Math.multiplyExact(24, stripeWidth)]"), source);
        Class<?> compiled = SourceCompiler.compile(generated.name(), source);
        int[] sizes = {21, 170};
        Invocation invocation = inputs(kernel, sizes[0], sizes[1], 3, 5);
        BackendRun run = new JvmBackend().runWith(compiled, new Variant(graph, plan, SPSC), invocation, RunSettings.once(1, 2));
        assertEquals(Optional.empty(), SequentialOracle.run(graph, invocation).firstDifference(graph, sizes, run.outputs()));
    }

    private static String javadoc(Kernel kernel, Optional<LockMechanism> mechanism) {
        return JvmCodegen.generate(SchedulePlanner.plan(Pipeline.compile(kernel), RING), mechanism, "dev.finegrain.generated.source",
                VectorWidth.of(512)).javadoc();
    }

    /** The class keeps the band's rows striped. */
    static void assertStriped(Kernel kernel) {
        String javadoc = javadoc(kernel, SPSC);
        assertTrue(javadoc.contains("Striped rows:") && !javadoc.contains("Not striped"), javadoc);
    }
}
