package dev.finegrain.compiler.backend;

import dev.finegrain.compiler.pass.GoldenKernels;
import dev.finegrain.compiler.plan.Domain;
import dev.finegrain.dsl.Keep;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.Reduction;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.along;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.max;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which sizes a kernel may run at: what it holds over the domain must fit an int-indexed array. */
class DomainLimitsTest {

    private static Kernel alignment(Keep keep) {
        return kernel("alignment").domain(dim("i", "n"), dim("j", "m"))
                .input("a", INT, along("i")).input("b", INT, along("j"))
                .state("s", INT, boundary(constant(0)))
                .actor("s", "s", c -> max(c.read("s", -1, -1).plus(c.read("a", 0).minus(c.read("b", 0))), c.read("s", -1, 0),
                        c.read("s", 0, -1)))
                .keep("s", keep).reduceWithPosition("s", Reduction.MAX)
                .build();
    }

    @Test
    void aKernelThatHoldsNothingOverTheDomainMayGoBeyondArrays() {
        assertEquals(Optional.empty(), DomainLimits.tooLarge(alignment(Keep.FINAL), new int[] {65536, 65536}));
        assertEquals(Optional.empty(), DomainLimits.tooLarge(alignment(Keep.LAST_ROW), new int[] {100000, 100000}));
        assertTrue(DomainLimits.beyondArrays(new int[] {32768, 32769}));
        assertFalse(DomainLimits.beyondArrays(new int[] {32768, 32768}));
    }

    @Test
    void aFieldKeptWholeOrAnInputOverTheDomainMustFitAnArray() {
        assertEquals(Optional.of("size 65536x65536 has 4294967296 points and kernel 'alignment' keeps state field 's' whole,"
                        + " more than an array holds (1073741824); choose smaller extents, or keep the field in part"
                        + " (keep(LAST_ROW), keep(FINAL), ...)"),
                DomainLimits.tooLarge(alignment(Keep.ALL), new int[] {65536, 65536}));
        assertEquals(Optional.of("input 'reference' of kernel 'nw' spans 1073774592 points at size 32768x32769, more than an"
                        + " array holds (1073741824); choose smaller extents, or read the input along fewer dimensions (along(...))"),
                DomainLimits.tooLarge(GoldenKernels.needlemanWunsch(), new int[] {32768, 32769}));
        assertEquals(Optional.empty(), DomainLimits.tooLarge(GoldenKernels.needlemanWunsch(), new int[] {32768, 32768}));
        assertEquals(Optional.of("size 2x2147483647 has an extent of 2147483647, more than a row of an array holds with its halo"
                + " (1073741824); choose smaller extents"), DomainLimits.tooLarge(alignment(Keep.FINAL), new int[] {2, Integer.MAX_VALUE}));
    }

    @Test
    void pointsBeyondAnIntAreNumberedByALong() {
        int[] sizes = {65536, 65536};
        int[] point = {65535, 7};
        long linear = Domain.linear(sizes, point);
        assertEquals(65535L * 65536 + 7, linear);
        int[] back = new int[2];
        Domain.coordinates(sizes, linear, back);
        assertArrayEquals(point, back);
        assertEquals(1L << 32, Domain.pointCount(sizes));
        int[] walk = {0, 65535};
        assertTrue(Domain.next(sizes, walk));
        assertArrayEquals(new int[] {1, 0}, walk);
        int[] last = {65535, 65535};
        assertFalse(Domain.next(sizes, last), "after the last point");
        assertArrayEquals(new int[] {0, 0}, last);
    }
}
