package dev.finegrain.compiler.backend.jvm;

import dev.finegrain.compiler.backend.BackendRun;
import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.jvm.JvmBackend;
import dev.finegrain.compiler.backend.jvm.JvmCodegen;
import dev.finegrain.compiler.backend.jvm.code.JClass;
import dev.finegrain.compiler.backend.jvm.code.JavaSourceEmitter;
import dev.finegrain.compiler.backend.jvm.lanes.RowScanTiles;
import dev.finegrain.compiler.backend.jvm.layout.VectorWidth;
import dev.finegrain.compiler.backend.reference.SequentialOracle;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.GoldenKernels;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.Schedule;
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
import static dev.finegrain.dsl.Finegrain.index;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.max;
import static dev.finegrain.dsl.Finegrain.select;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Row-scan tiles against the oracle: int lanes (4 to 16) and long lanes (2 to 8), tiles as tall as the lanes, taller
 * and shorter, 1 to 3 workers; terms with inputs at offsets, both indices and a constant floor; and rows whose values
 * could wrap, which must run cell by cell and still match the scalar order exactly; and the class's Java source.
 */
class RowScanTilesTest {

    /** Needleman-Wunsch's shape with both indices and an input read one row down and one column east in the rest. */
    static Kernel indicesAndOffsets() {
        return kernel("scan-indices").domain(dim("i", "rows"), dim("j", "cols")).param("gap", INT).input("w", INT, 1)
                .state("f", INT, boundary(index("i").minus(index("j").times(2))))
                .actor("cell", "f", a -> max(a.read("f", -1, -1).plus(a.read("w", 1, 1)).minus(index("j")),
                        max(a.read("f", 0, -1).minus(a.param("gap")), a.read("f", -1, 0).minus(constant(3)).plus(index("i")))))
                .build();
    }

    /**
     * Needleman-Wunsch's shape with a boundary 7 above the int (or long) minimum: with gap 5, west - 5 does not wrap and
     * the west term a vector meets, west - k gap, does, so a scan of the first row would meet a west term near the
     * maximum where the scalar order has max(terms, lane 0's value - 5); its inputs put more terms near the minimum.
     */
    static Kernel nearTheMinimum(Type type) {
        boolean longs = type == Type.LONG;
        return kernel(longs ? "near-min-long" : "near-min").domain(dim("i", "rows"), dim("j", "cols")).param("gap", type).input("w", type)
                .state("f", type, boundary(longs ? constant(Long.MIN_VALUE + 7) : constant(Integer.MIN_VALUE + 7)))
                .actor("cell", "f", a -> max(a.read("f", -1, -1).plus(a.read("w", 0, 0)), a.read("f", -1, 0).minus(a.param("gap")),
                        a.read("f", 0, -1).minus(a.param("gap"))))
                .build();
    }

    static List<Kernel> kernels() {
        return List.of(GoldenKernels.needlemanWunsch(), LaneStripsTest.longsWithIndices(), indicesAndOffsets());
    }

    @Test
    void rowScanTilesMatchTheOracle() {
        for (Kernel kernel : kernels()) {
            TileGroupLanesTest.checkTilesAsWideAsTheLanes(kernel, "Row scan");
        }
    }

    /**
     * Tiles several vectors wide: the west value carried from vector to vector, the row above from storage (its first
     * vector's north-west from the west block), in two and three vectors; wider tiles and tiles of a whole vector and a
     * rest run as a band's rows (one tile as wide as the domain, and k + 5 columns); 1 to 3 workers, int and long lanes.
     */
    @Test
    void rowScanTilesSeveralVectorsWideMatchTheOracle() {
        for (Kernel kernel : kernels()) {
            int k = kernel.fields().stream().anyMatch(f -> f.type() == Type.INT) ? 16 : 8;
            assertTrue(LaneStripsTest.lanes(kernel, dataParallel(8, 2 * k), Optional.empty(), VectorWidth.of(512)).contains(
                    "Row scan: a tile's row is 2 vectors of " + k + " cells"), kernel.name());
            // wider than four vectors, or not whole vectors: the rows run as a band's do, the west value beside the scan
            assertTrue(LaneStripsTest.lanes(kernel, dataParallel(19, 80), Optional.empty(), VectorWidth.of(512)).contains(
                    "Row scan: a tile's row runs in vectors of " + k + " cells"), kernel.name());
            for (int threads = 1; threads <= 3; threads++) {
                LaneStripsTest.check(kernel, new int[] {40, 64}, dataParallel(8, 2 * k), Optional.empty(), 512, threads);
                LaneStripsTest.check(kernel, new int[] {48, 96}, dataParallel(16, 3 * k), Optional.empty(), 512, threads);
                LaneStripsTest.check(kernel, new int[] {19, 80}, dataParallel(19, 80), Optional.empty(), 512, threads);
                // a whole vector and the columns left one by one
                LaneStripsTest.check(kernel, new int[] {24, 2 * (k + 5)}, dataParallel(8, k + 5), Optional.empty(), 512, threads);
            }
        }
        Kernel kernel = nearTheMinimum(Type.INT);
        for (int gap : new int[] {5, -3, 1 << 20, 1 << 28}) {
            LaneStripsTest.check(kernel, invocation(kernel, new int[] {48, 96}, gap), new int[] {48, 96}, dataParallel(16, 48), Optional.empty(), 512, 2);
        }
        // long lanes: a west value carried from the vector before drops below the floor, and that vector runs cell by cell
        Kernel longs = nearTheMinimum(Type.LONG);
        int[] sizes = {32, 48};
        for (long gap : new long[] {5, -3, Long.MAX_VALUE / 8 + 1}) {
            SplittableRandom random = new SplittableRandom(gap);
            long[] w = random.longs(sizes[0] * sizes[1], -1000, 1000).map(x -> x % 3 == 0 ? Long.MIN_VALUE + Math.abs(x) % 40 : x).toArray();
            Invocation invocation = longs.invocation().sizes(sizes).param("gap", gap).input("w", w).build();
            LaneStripsTest.check(longs, invocation, sizes, dataParallel(16, 16), Optional.empty(), 512, 2);
        }
    }

    @Test
    void rowsWhoseTermsCouldWrapRunCellByCellInTheScalarOrder() {
        Kernel kernel = nearTheMinimum(Type.INT);
        int[] sizes = {48, 64};
        // gap 5 and 2^20: rows whose west value lies below MIN + (2k + 1) gap run cell by cell, the others scan; gap -3:
        // every row cell by cell; MAX / 17 and MAX / 9 are the largest gaps 16 and 8 lanes scan, one more runs cell by
        // cell; 2^27 is past MAX / 17 but not MAX / 9; 2^28 and 2^30 + 2^28 are past both, and 16 of them wrap to 0 and
        // to 2^30, which a missing range check would let scan
        for (int gap : new int[] {5, -3, Integer.MAX_VALUE / 17, Integer.MAX_VALUE / 17 + 1, Integer.MAX_VALUE / 9,
                Integer.MAX_VALUE / 9 + 1, Integer.MAX_VALUE / 16 + 1, 1 << 20, 1 << 28, (1 << 30) + (1 << 28)}) {
            for (int threads = 1; threads <= 2; threads++) {
                LaneStripsTest.check(kernel, invocation(kernel, sizes, gap), sizes, dataParallel(16), Optional.empty(), 512, threads);
                LaneStripsTest.check(kernel, invocation(kernel, sizes, gap), sizes, dataParallel(8, 8), Optional.empty(), 256, threads);
            }
        }
        Kernel longs = nearTheMinimum(Type.LONG);
        assertTrue(LaneStripsTest.lanes(longs, dataParallel(8), Optional.empty(), VectorWidth.of(512)).contains("Row scan"));
        for (long gap : new long[] {5, -3, Long.MAX_VALUE / 9, Long.MAX_VALUE / 9 + 1, Long.MAX_VALUE / 8 + 1, 1L << 61}) {
            SplittableRandom random = new SplittableRandom(gap);
            long[] w = random.longs(sizes[0] * sizes[1], -1000, 1000).map(x -> x % 3 == 0 ? Long.MIN_VALUE + Math.abs(x) % 40 : x).toArray();
            Invocation invocation = longs.invocation().sizes(sizes).param("gap", gap).input("w", w).build();
            for (int threads = 1; threads <= 2; threads++) {
                LaneStripsTest.check(longs, invocation, sizes, dataParallel(8), Optional.empty(), 512, threads);
            }
        }
    }

    /** Inputs of which about a third lie within 40 of the int minimum, so that rows both scan and run cell by cell. */
    static Invocation invocation(Kernel kernel, int[] sizes, int gap) {
        SplittableRandom random = new SplittableRandom(gap);
        int[] w = new int[sizes[0] * sizes[1]];
        for (int i = 0; i < w.length; i++) {
            w[i] = random.nextInt(3) == 0 ? Integer.MIN_VALUE + random.nextInt(40) : random.nextInt(-1000, 1000);
        }
        return kernel.invocation().sizes(sizes).param("gap", gap).input("w", w).build();
    }

    /**
     * A west value one below 2k gaps above the minimum (MIN + 159, gap 5, 16 lanes) beside rest terms within 40 of the
     * minimum: the vector must run cell by cell, since raising its rest terms to MIN + k gap would lift lane 15, whose
     * west term lies below that (any floor up to MIN + 159 fails here). Below row 12 the west boundary is 0, so those
     * rows scan terms that do not read the row above. Tiles of one and two vectors, on 1 and 2 workers.
     */
    @Test
    void aVectorWhoseWestValueIsWithinTwiceTheLanesOfGapsOfTheMinimumRunsCellByCell() {
        Kernel kernel = RowScanBandsTest.aboveTheMinimum("west-near-min",
                select(index("i").lessThan(12), constant(Integer.MIN_VALUE + 159), constant(0)), false);
        int[] sizes = {24, 64};
        SplittableRandom random = new SplittableRandom(83);
        int[] w = random.ints(sizes[0] * sizes[1], 5, 40).map(x -> Integer.MIN_VALUE + x).toArray();
        Invocation invocation = kernel.invocation().sizes(sizes).param("gap", 5).input("w", w).build();
        for (int threads = 1; threads <= 2; threads++) {
            LaneStripsTest.check(kernel, invocation, sizes, dataParallel(8, 16), Optional.empty(), 512, threads);
            LaneStripsTest.check(kernel, invocation, sizes, dataParallel(8, 32), Optional.empty(), 512, threads);
        }
    }

    @Test
    void theJavaSourceOfARowScanComputesWhatTheOracleDoes() throws Exception {
        for (Kernel kernel : List.of(GoldenKernels.needlemanWunsch(), nearTheMinimum(Type.INT))) {
            int[] sizes = {48, 96};
            Invocation invocation = kernel.name().equals("near-min") ? invocation(kernel, sizes, 5) : LaneStripsTest.inputs(kernel, sizes);
            KernelGraph graph = Pipeline.compile(kernel);
            // one vector wide, three, and six (as a band's rows)
            for (Schedule tiles : List.of(dataParallel(16), dataParallel(16, 48), dataParallel(16, 96))) {
                ExecutionPlan plan = SchedulePlanner.plan(graph, tiles);
                JClass generated = JvmCodegen.generate(plan, Optional.empty(), "dev.finegrain.generated.source", VectorWidth.of(512));
                assertTrue(generated.javadoc().contains("Row scan"), kernel.name());
                Class<?> compiled = SourceCompiler.compile(generated.name(), JavaSourceEmitter.emit(generated).toString());
                BackendRun fromSource = new JvmBackend().runWith(compiled, new Variant(graph, plan, Optional.empty()), invocation,
                        RunSettings.once(1, 2));
                assertEquals(Optional.empty(), SequentialOracle.run(graph, invocation).firstDifference(graph, sizes, fromSource.outputs()),
                        kernel.name() + " " + tiles.cliName());
            }
        }
    }

    @Test
    void theClassSaysWhyATileRunsWithoutARowScan() {
        // a select of three neighbours: lanes across tiles instead, and the class says why
        assertTrue(LaneStripsTest.lanes(TileGroupLanesTest.neighboursAndIndices(), dataParallel(16), Optional.empty(), VectorWidth.of(512))
                .contains(" No row scan: a row scan needs the value to be max(terms without the west neighbour, west - a constant, param or size),"
                        + " and it is no max."));
        assertEquals(Optional.of("a row scan regroups subtractions, exact for int and long values only, and 'u' is double"),
                RowScanTiles.against(Pipeline.compile(JavaSourceGoldenTest.gaussSeidel()), 8, new int[] {8, 8}));
        assertEquals(Optional.of("a row scan needs tiles at least as wide as the 16 lanes, and these are 8 wide"),
                RowScanTiles.against(Pipeline.compile(GoldenKernels.needlemanWunsch()), 16, new int[] {16, 8}));
        String shape = "a row scan needs the value to be max(terms without the west neighbour, west - a constant, param or size)";
        assertEquals(Optional.of(shape + ", and a term reads 'f' in its own row other than as west - gap"),
                RowScanTiles.against(Pipeline.compile(TileGroupLanesTest.westTwo()), 16, new int[] {16, 16}));
        assertEquals(Optional.of(shape + ", and the west term subtracts 'g', a field, which may differ per cell"),
                RowScanTiles.against(Pipeline.compile(TileGroupLanesTest.inputGap(INT)), 16, new int[] {16, 16}));
    }
}
