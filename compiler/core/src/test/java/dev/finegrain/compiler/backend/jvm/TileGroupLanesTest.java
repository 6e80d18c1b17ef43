package dev.finegrain.compiler.backend.jvm;

import dev.finegrain.compiler.backend.jvm.lanes.TileGroupLanes;
import dev.finegrain.compiler.backend.jvm.layout.VectorWidth;
import dev.finegrain.compiler.pass.GoldenKernels;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.Schedule;
import dev.finegrain.dsl.Type;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dataParallel;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.index;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.max;
import static dev.finegrain.dsl.Finegrain.select;
import static dev.finegrain.dsl.Finegrain.INT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Lanes across tiles against the oracle: every width (4 to 16 int lanes, 2 to 8 long lanes), tiles as tall as the lanes,
 * taller and shorter, block-diagonals with fewer tiles than lanes and with more (a full group and a partial one),
 * 1 to 3 workers (chunks that cut groups short), and bodies with indices and inputs read at offsets.
 */
class TileGroupLanesTest {

    private static final int[] WIDTHS = {128, 256, 512};

    /** The three neighbours lanes across tiles bring, an input read at offsets, and both indices in the body. */
    static Kernel neighboursAndIndices() {
        return kernel("neighbours").domain(dim("i", "rows"), dim("j", "cols")).input("w", INT, 1)
                .state("f", INT, boundary(index("i").minus(index("j"))))
                .actor("cell", "f", a -> select(index("i").lessThan(index("j")),
                        a.read("f", -1, -1).plus(a.read("w", 1, 1)).minus(index("j")),
                        a.read("f", -1, 0).times(3).minus(a.read("f", 0, -1)).plus(a.read("w", -1, 0)).plus(index("i"))))
                .build();
    }

    /** Needleman-Wunsch's shape with a read two columns west, which lanes across tiles do not bring. */
    static Kernel westTwo() {
        return kernel("west-two").domain(dim("i", "rows"), dim("j", "cols")).input("w", INT)
                .state("f", INT, boundary(index("i").plus(index("j"))))
                .actor("cell", "f", a -> max(a.read("f", -1, -1).plus(a.read("w", 0, 0)), a.read("f", -1, 0).minus(constant(1)),
                        a.read("f", 0, -2).minus(constant(2))))
                .build();
    }

    /** Needleman-Wunsch's shape with a gap read from an input: no row scan (its gap differs per cell), so lanes across tiles. */
    static Kernel inputGap(Type type) {
        boolean wide = type == Type.LONG;
        return kernel(wide ? "input-gap-long" : "input-gap").domain(dim("i", "rows"), dim("j", "cols")).input("w", type).input("g", type)
                .state("f", type, boundary(wide ? constant(0L) : index("i").plus(index("j"))))
                .actor("cell", "f", a -> max(a.read("f", -1, -1).plus(a.read("w", 0, 0)), a.read("f", -1, 0).minus(a.read("g", 0, 0)),
                        a.read("f", 0, -1).minus(a.read("g", 0, 0))))
                .build();
    }

    /** Kernels that take lanes across tiles; Needleman-Wunsch's own shape takes a row scan ({@link RowScanTilesTest}). */
    static List<Kernel> kernels() {
        return List.of(inputGap(INT), inputGap(Type.LONG), neighboursAndIndices());
    }

    @Test
    void lanesAcrossTilesMatchTheOracle() {
        for (Kernel kernel : kernels()) {
            checkTilesAsWideAsTheLanes(kernel, "Lanes across tiles");
        }
    }

    /**
     * The kernel in tiles k columns wide (k lanes of 128 to 512 bits), k, 2k and 3 rows tall, on 1 to 3 workers, against
     * the oracle; the class must say it runs {@code form}. Up to 3 tiles on a block-diagonal (fewer than the lanes), and
     * up to k + 3 (a full group of k and a partial one).
     */
    static void checkTilesAsWideAsTheLanes(Kernel kernel, String form) {
        for (int bits : WIDTHS) {
            int k = bits / (kernel.fields().stream().anyMatch(f -> f.type() == Type.LONG) ? 64 : 32);
            for (int rows : new int[] {k, 2 * k, 3}) {
                Schedule tile = dataParallel(rows, k);
                String summary = LaneStripsTest.lanes(kernel, tile, Optional.empty(), VectorWidth.of(bits));
                assertTrue(summary.contains(form), kernel.name() + " " + tile.cliName() + " at " + bits + " bits: " + summary);
                for (int threads = 1; threads <= 3; threads++) {
                    LaneStripsTest.check(kernel, new int[] {2 * rows, 3 * k}, tile, Optional.empty(), bits, threads);
                    LaneStripsTest.check(kernel, new int[] {(k + 3) * rows, (k + 5) * k}, tile, Optional.empty(), bits, threads);
                }
            }
        }
    }

    /**
     * Found in review: an actor that reads no neighbour leaves its field without a halo row above or column west, which
     * the groups gather whatever the actor reads; the class threw an index out of bounds. Such tiles keep their rows.
     */
    @Test
    void aFieldWithoutAHaloAboveOrWestGetsNoLanesAcrossTiles() {
        Kernel constant = kernel("no-neighbour").domain(dim("i", "rows"), dim("j", "cols")).param("p", INT)
                .state("f", INT, boundary(constant(1))).actor("cell", "f", a -> dev.finegrain.dsl.Finegrain.param("p").negate()).build();
        assertTrue(LaneStripsTest.lanes(constant, dataParallel(12, 16), Optional.empty(), VectorWidth.of(512)).contains(
                "lanes across tiles gather the row above and the column west of the tiles, and 'f' has no halo row above or column west"));
        for (int threads = 1; threads <= 2; threads++) {
            LaneStripsTest.check(constant, new int[] {24, 32}, dataParallel(12, 16), Optional.empty(), 512, threads);
        }
    }

    @Test
    void theClassSaysWhyATileRunsWithoutLanesAcrossTiles() {
        assertTrue(LaneStripsTest.lanes(westTwo(), dataParallel(16), Optional.empty(), VectorWidth.of(512)).contains(
                " No lanes across tiles: lanes across tiles bring only the west, north-west and north neighbours, and 'f' is read at (0, -2)."));
        assertEquals(Optional.of("lanes across tiles carry one state field's row from step to step, and this kernel has 2 actors"),
                TileGroupLanes.against(Pipeline.compile(LaneStripsTest.twoActorsInLanes()), 8, new int[] {8, 8}));
        assertEquals(Optional.of("lanes across tiles need tiles as wide as the 16 lanes, one row a vector, and these are 32 wide"),
                TileGroupLanes.against(Pipeline.compile(GoldenKernels.needlemanWunsch()), 16, new int[] {16, 32}));
    }
}
