package dev.finegrain.compiler.backend.jvm;

import dev.finegrain.compiler.backend.BackendRun;
import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.jvm.JvmBackend;
import dev.finegrain.compiler.backend.jvm.JvmCodegen;
import dev.finegrain.compiler.backend.jvm.code.JClass;
import dev.finegrain.compiler.backend.jvm.code.JavaSourceEmitter;
import dev.finegrain.compiler.backend.jvm.layout.VectorWidth;
import dev.finegrain.compiler.backend.reference.SequentialOracle;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.GoldenKernels;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.Expr;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Type;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dataParallel;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static dev.finegrain.dsl.Finegrain.index;
import static dev.finegrain.dsl.Finegrain.max;
import static dev.finegrain.dsl.Finegrain.select;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Lock-dataflow bands whose rows run as row scans, against the oracle: int and long lanes of 128 to 512 bits, every
 * mechanism, 1 to 3 workers, rows narrower than a vector and many vectors wide (bands of whole vectors and bands with a
 * rest); values near the minimum, where rows must run cell by cell in the scalar order; and the class's Java source.
 */
class RowScanBandsTest {

    private static final List<int[]> SIZES = List.of(new int[] {3, 5}, new int[] {17, 40}, new int[] {9, 300}, new int[] {33, 517});

    @Test
    void bandsOfRowScansMatchTheOracleWithEveryMechanism() {
        for (Kernel kernel : List.of(GoldenKernels.needlemanWunsch(), LaneStripsTest.longsWithIndices(), RowScanTilesTest.indicesAndOffsets())) {
            KernelGraph graph = Pipeline.compile(kernel);
            for (int bits : new int[] {128, 256, 512}) {
                assertTrue(LaneStripsTest.lanes(kernel, lockDataflow(), Optional.of(LockMechanism.BLOCKING), VectorWidth.of(bits))
                        .contains("Row scan: a band's row"), kernel.name() + " at " + bits + " bits");
                for (int[] sizes : SIZES) {
                    for (int threads = 1; threads <= 3; threads++) {
                        for (LockMechanism mechanism : new JvmBackend().mechanisms(SchedulePlanner.plan(graph, lockDataflow()))) {
                            LaneStripsTest.check(kernel, sizes, lockDataflow(), Optional.of(mechanism), bits, threads);
                        }
                        LaneStripsTest.check(kernel.toBuilder().warpShared(8).build(), sizes, lockDataflow(),
                                Optional.of(LockMechanism.ATOMIC_SPIN_LOCK), bits, threads);
                    }
                }
            }
        }
    }

    /**
     * Values just above the int minimum, where the scalar order never wraps but a scan could: every term is at least
     * the input, which lies 5 to 40 above the minimum (or, in the north-reading kernel, for half the cells 150 to 400
     * above it), and the boundary is {@code boundary}; with gap 5 a 16-lane vector needs a carry of at least MIN + 165.
     */
    static Kernel aboveTheMinimum(String name, int boundary, boolean readsNorth) {
        return aboveTheMinimum(name, constant(boundary), readsNorth);
    }

    static Kernel aboveTheMinimum(String name, Expr boundary, boolean readsNorth) {
        return kernel(name).domain(dim("i", "rows"), dim("j", "cols")).param("gap", INT).input("w", INT)
                .state("f", INT, boundary(boundary))
                .actor("cell", "f", a -> readsNorth
                        ? max(a.read("w", 0, 0), a.read("f", -1, 0).minus(a.param("gap")), a.read("f", -1, -1).minus(a.param("gap")),
                                a.read("f", 0, -1).minus(a.param("gap")))
                        : max(a.read("w", 0, 0), a.read("f", 0, -1).minus(a.param("gap"))))
                .build();
    }

    /**
     * Four ways a scan could wrap where the scalar order does not. A boundary at MIN + 7: no row may scan. A boundary at
     * MIN + 200: a row starts above the floor but its values fall by up to a gap per column, below it, so a row may scan
     * only with room for all its columns. A boundary of 0 and rest terms that read no neighbour: rows scan, and their
     * rest terms within 40 of the minimum must be raised before up to 15 gaps to the last lane are taken from them. A
     * boundary row above the domain at MIN + 7 and a boundary column of 0: the first row scans, and its rest terms (north
     * - gap among them) lie near the minimum, so it must raise them though later rows, below a row that scanned, need not.
     * A boundary at MIN + 7 above the domain and west of its first 32 rows, and at MIN + 2765 west of the rows below: the
     * first 32 rows run cell by cell, and row 32 scans below a row that did not, so it must raise its rest terms.
     */
    @Test
    void aScanNeitherWrapsACarryNorARestTermNearTheMinimum() {
        List<Kernel> kernels = List.of(aboveTheMinimum("at-min", Integer.MIN_VALUE + 7, true),
                aboveTheMinimum("falling-to-min", Integer.MIN_VALUE + 200, true), aboveTheMinimum("rest-at-min", 0, false),
                aboveTheMinimum("low-row-above", select(index("i").lessThan(0), constant(Integer.MIN_VALUE + 7), constant(0)), true),
                aboveTheMinimum("scan-below-cells", select(index("i").lessThan(32), constant(Integer.MIN_VALUE + 7),
                        constant(Integer.MIN_VALUE + 2765)), true));
        for (Kernel kernel : kernels) {
            for (int[] sizes : List.of(new int[] {24, 200}, new int[] {40, 517})) {
                SplittableRandom random = new SplittableRandom(sizes[1]);
                boolean lowOnly = !kernel.name().equals("at-min");
                int[] w = random.ints(sizes[0] * sizes[1], 0, 100)
                        .map(x -> Integer.MIN_VALUE + (x < 50 || lowOnly ? 5 + x % 35 : 150 + 5 * x % 250)).toArray();
                Invocation invocation = kernel.invocation().sizes(sizes).param("gap", 5).input("w", w).build();
                for (int threads = 1; threads <= 3; threads++) {
                    LaneStripsTest.check(kernel, invocation, sizes, lockDataflow(), Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG), 512, threads);
                    LaneStripsTest.check(kernel, invocation, sizes, lockDataflow(), Optional.of(LockMechanism.BLOCKING), 256, threads);
                }
            }
        }
    }

    /**
     * Values just below the int maximum: the scan takes each lane's gaps to the vector's last lane from its terms and
     * adds them back after meeting the carry, so no step may add to a term first (a term within 15 gaps of MAX plus
     * lane l's l gaps would wrap). Gaps of 5 and 2^20, inputs up to 3 gaps below MAX; band rows and tiles 6 vectors
     * wide (both run the band's row scan), on 1 to 3 workers.
     */
    @Test
    void aScanDoesNotWrapNearTheMaximum() {
        Kernel kernel = aboveTheMinimum("near-max", 0, true);
        for (int gap : new int[] {5, 1 << 20}) {
            for (int[] sizes : List.of(new int[] {24, 200}, new int[] {40, 517}, new int[] {40, 192})) {
                SplittableRandom random = new SplittableRandom(sizes[1] + gap);
                int[] w = random.ints(sizes[0] * sizes[1], 0, 3 * gap + 1).map(x -> Integer.MAX_VALUE - x).toArray();
                Invocation invocation = kernel.invocation().sizes(sizes).param("gap", gap).input("w", w).build();
                for (int threads = 1; threads <= 3; threads++) {
                    if (sizes[1] == 192) {
                        LaneStripsTest.check(kernel, invocation, sizes, dataParallel(8, 96), Optional.empty(), 512, threads);
                    } else {
                        LaneStripsTest.check(kernel, invocation, sizes, lockDataflow(), Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG), 512, threads);
                        LaneStripsTest.check(kernel, invocation, sizes, lockDataflow(), Optional.of(LockMechanism.BLOCKING), 256, threads);
                    }
                }
            }
        }
    }

    /**
     * A tile whose first row scans below a row that ran cell by cell, right after a tile whose last row scanned, on the
     * same worker: tiles 96 columns wide (6 vectors, the band's row scan), one worker, so tile (0, 1) runs just before
     * tile (1, 0). Tile (0, 0) runs cell by cell (its west and north boundary lie 7 above the minimum), its values near
     * the minimum but for its last column (input 0); tile (0, 1) scans from that column's values; tile (1, 0) scans
     * (its west boundary is 0) under tile (0, 0)'s last row, so its rest terms lie within 20 of the minimum and must be
     * raised, though the row its worker scanned last did scan.
     */
    @Test
    void aTileForgetsThatItsWorkersLastRowScanned() {
        int min = Integer.MIN_VALUE;
        Kernel kernel = aboveTheMinimum("tile-below-cells", select(index("i").lessThan(96), constant(min + 7), constant(0)), true);
        int[] sizes = {192, 192};
        int[] w = new int[sizes[0] * sizes[1]];
        for (int p = 0; p < w.length; p++) {
            w[p] = p % sizes[1] == 95 ? 0 : min + 20;
        }
        Invocation invocation = kernel.invocation().sizes(sizes).param("gap", 5).input("w", w).build();
        LaneStripsTest.check(kernel, invocation, sizes, dataParallel(96, 96), Optional.empty(), 512, 1);
    }

    @Test
    void vectorsWhoseTermsCouldWrapRunCellByCellInTheScalarOrder() {
        int[] sizes = {24, 200};
        // gap 5 and 2^20: rows whose west value lies too near the minimum run cell by cell, the others scan; gap -3: every
        // row cell by cell; MAX / 17 is the largest gap 16 lanes scan, past it every row of 16 lanes runs cell by cell
        // (MAX / 9 for 8 lanes), and 16 times 2^28 wraps to 0
        Kernel ints = RowScanTilesTest.nearTheMinimum(Type.INT);
        for (int gap : new int[] {5, -3, Integer.MAX_VALUE / 17, Integer.MAX_VALUE / 17 + 1, Integer.MAX_VALUE / 9 + 1,
                Integer.MAX_VALUE / 16 + 1, 1 << 20, 1 << 28}) {
            Invocation invocation = RowScanTilesTest.invocation(ints, sizes, gap);
            for (int threads = 1; threads <= 2; threads++) {
                LaneStripsTest.check(ints, invocation, sizes, lockDataflow(), Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG), 512, threads);
                LaneStripsTest.check(ints, invocation, sizes, lockDataflow(), Optional.of(LockMechanism.BLOCKING), 256, threads);
            }
        }
        Kernel longs = RowScanTilesTest.nearTheMinimum(Type.LONG);
        for (long gap : new long[] {5, -3, Long.MAX_VALUE / 9, Long.MAX_VALUE / 9 + 1, Long.MAX_VALUE / 8 + 1, 1L << 61}) {
            SplittableRandom random = new SplittableRandom(gap);
            long[] w = random.longs(sizes[0] * sizes[1], -1000, 1000).map(x -> x % 3 == 0 ? Long.MIN_VALUE + Math.abs(x) % 40 : x).toArray();
            Invocation invocation = longs.invocation().sizes(sizes).param("gap", gap).input("w", w).build();
            for (int threads = 1; threads <= 2; threads++) {
                LaneStripsTest.check(longs, invocation, sizes, lockDataflow(), Optional.of(LockMechanism.ATOMIC_SPIN_LOCK), 512, threads);
            }
        }
    }

    @Test
    void theJavaSourceOfABandOfRowScansComputesWhatTheOracleDoes() throws Exception {
        for (Kernel kernel : List.of(GoldenKernels.needlemanWunsch(), RowScanTilesTest.nearTheMinimum(Type.INT))) {
            int[] sizes = {40, 150};
            Invocation invocation = kernel.name().equals("near-min") ? RowScanTilesTest.invocation(kernel, sizes, 5) : LaneStripsTest.inputs(kernel, sizes);
            KernelGraph graph = Pipeline.compile(kernel);
            ExecutionPlan plan = SchedulePlanner.plan(graph, lockDataflow());
            Optional<LockMechanism> mechanism = Optional.of(LockMechanism.SHARED_SPIN_LOCK);
            JClass generated = JvmCodegen.generate(plan, mechanism, "dev.finegrain.generated.source", VectorWidth.of(512));
            assertTrue(generated.javadoc().contains("Row scan: a band's row"), kernel.name());
            Class<?> compiled = SourceCompiler.compile(generated.name(), JavaSourceEmitter.emit(generated).toString());
            for (int threads = 1; threads <= 2; threads++) {
                BackendRun fromSource = new JvmBackend().runWith(compiled, new Variant(graph, plan, mechanism), invocation, RunSettings.once(2, threads));
                assertEquals(Optional.empty(), SequentialOracle.run(graph, invocation).firstDifference(graph, sizes, fromSource.outputs()),
                        kernel.name() + " " + threads + " thread(s)");
            }
        }
    }
}
