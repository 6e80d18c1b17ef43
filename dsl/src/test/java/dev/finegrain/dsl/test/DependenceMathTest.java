package dev.finegrain.dsl.test;

import dev.finegrain.dsl.internal.DependenceMath;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DependenceMathTest {

    @Test
    void needlemanWunschGetsTheAntiDiagonal() {
        int[] h = DependenceMath.findHyperplane(2, List.of(new int[] {1, 0}, new int[] {0, 1}, new int[] {1, 1})).orElseThrow();
        assertArrayEquals(new int[] {1, 1}, h);
    }

    @Test
    void aOneDimensionalChainGetsUnitSteps() {
        assertArrayEquals(new int[] {1}, DependenceMath.findHyperplane(1, List.<int[]>of(new int[] {32})).orElseThrow());
    }

    @Test
    void aSkewedDependenceGetsASteeperHyperplane() {
        int[] h = DependenceMath.findHyperplane(2, List.of(new int[] {1, -1}, new int[] {0, 1})).orElseThrow();
        assertTrue(DependenceMath.dot(h, new int[] {1, -1}) >= 1 && DependenceMath.dot(h, new int[] {0, 1}) >= 1);
        assertArrayEquals(new int[] {2, 1}, h);
    }

    @Test
    void lexicographicallyPositiveVectorsBeyondTheSearchBoundStillGetOne() {
        int[] h = DependenceMath.findHyperplane(2, List.<int[]>of(new int[] {1, -40})).orElseThrow();
        assertTrue(DependenceMath.dot(h, new int[] {1, -40}) >= 1, DependenceMath.format(h));
    }

    @Test
    void opposingVectorsHaveNoHyperplane() {
        assertTrue(DependenceMath.findHyperplane(1, List.of(new int[] {1}, new int[] {-1})).isEmpty());
    }

    @Test
    void lexicographicPositivityLooksAtTheFirstNonZeroComponent() {
        assertTrue(DependenceMath.isLexicographicallyPositive(new int[] {0, 1, -5}));
        assertFalse(DependenceMath.isLexicographicallyPositive(new int[] {0, -1, 5}));
        assertFalse(DependenceMath.isLexicographicallyPositive(new int[] {0, 0}));
    }
}
