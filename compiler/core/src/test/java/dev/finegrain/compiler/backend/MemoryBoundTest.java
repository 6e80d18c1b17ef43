package dev.finegrain.compiler.backend;

import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.dsl.Kernel;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static dev.finegrain.dsl.Finegrain.DOUBLE;
import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.max;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The roofline's memory bound: the least bytes a point moves, against a measured copy bandwidth. */
class MemoryBoundTest {

    private static final Kernel NW = kernel("nw").domain(dim("i", "n"), dim("j", "m")).input("reference", INT)
            .state("score", INT, boundary(constant(0)))
            .actor("cell", "score", a -> max(a.read("score", -1, -1).plus(a.read("reference", 0, 0)),
                    a.read("score", -1, 0), a.read("score", 0, -1)))
            .build();

    @Test
    void aFullMatrixNeedlemanWunschMovesEightBytesACell() {
        assertEquals(8, MemoryBound.bytesPerPoint(Pipeline.compile(NW), field -> 4), "an int read, an int written");
        assertEquals(5, MemoryBound.bytesPerPoint(Pipeline.compile(NW), field -> field.isInput() ? 1 : 4),
                "a reference kept in bytes");
        Kernel wide = kernel("wide").domain(dim("i", "n")).input("b", DOUBLE).state("a", DOUBLE, boundary(constant(0.0)))
                .actor("link", "a", a -> a.read("a", -1).plus(a.read("b", 0))).build();
        assertEquals(16, MemoryBound.bytesPerPoint(Pipeline.compile(wide), field -> 8));
        assertEquals(4, MemoryBound.bytesPerPoint(Pipeline.compile(NW), field -> field.isInput() ? 4 : 0),
                "the score folded into a ring (spsc-ring) moves no bytes a cell");
        assertEquals(0, MemoryBound.bytesPerPoint(Pipeline.compile(wide), field -> 0),
                "nothing moves a byte a point: no memory bound, not a made-up one of one byte");
    }

    @Test
    void theBoundIsTheBandwidthOverTheBytesAndTheFractionTheRateOverTheBound() {
        // the H200's copy bandwidth about 4.15 TB/s at 8 bytes a cell: about 519 G cells/s
        MemoryBound h200 = new MemoryBound(8, 4.15e12);
        assertEquals(5.1875e11, h200.boundPointsPerSecond(), 1);
        assertEquals(0.1, h200.fraction(5.1875e10), 1e-12);
        Map<String, Object> details = h200.details(5.1875e10);
        assertEquals(Map.of("bytes_per_cell", 8L, "copy_gbps", 4150.0, "bound_cells_per_s", 5.1875e11, "bound_fraction", 0.1),
                details);
        assertThrows(IllegalArgumentException.class, () -> new MemoryBound(8, 0));
    }
}
