package dev.finegrain.runtime.jvm;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HyperplaneLayoutTest {

    @Test
    void everyElementHasItsOwnPlaceAndEachHyperplaneIsContiguous() {
        for (int skew = 0; skew <= 3; skew++) {
            for (int rows = 1; rows <= 7; rows++) {
                for (int columns = 1; columns <= 7; columns++) {
                    int[] origins = HyperplaneLayout.origins(rows, columns, skew);
                    assertEquals(HyperplaneLayout.hyperplanes(rows, columns, skew), origins.length);
                    boolean[] taken = new boolean[rows * columns];
                    int expected = 0;
                    for (int u = 0; u < origins.length; u++) {
                        for (int r = 0; r < rows; r++) {
                            int c = u - skew * r;
                            if (c < 0 || c >= columns) {
                                continue;
                            }
                            int index = origins[u] + r;
                            assertEquals(expected++, index, "element (" + r + ", " + c + ") follows the one before, " + rows + " x " + columns + " skew " + skew);
                            assertTrue(!taken[index]);
                            taken[index] = true;
                        }
                    }
                    assertEquals(rows * columns, expected, "dense");
                }
            }
        }
    }

    @Test
    void firstAndLastRowsBoundEachHyperplane() {
        // 4 x 5, skew 2: hyperplane 7 holds (2, 3) and (3, 1); (1, 5) lies east of the last column
        assertEquals(2, HyperplaneLayout.firstRow(7, 5, 2));
        assertEquals(3, HyperplaneLayout.lastRow(7, 4, 5, 2));
        // past the last hyperplane (3 * 2 + 4 = 10): first row past the last, an empty range
        assertTrue(HyperplaneLayout.firstRow(11, 5, 2) > HyperplaneLayout.lastRow(11, 4, 5, 2));
        // unskewed, hyperplane u is column u: every row, or none past the last column
        assertEquals(0, HyperplaneLayout.firstRow(3, 5, 0));
        assertEquals(3, HyperplaneLayout.lastRow(3, 4, 5, 0));
        assertEquals(-1, HyperplaneLayout.lastRow(7, 4, 5, 0));
    }

    @Test
    void badSizesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> HyperplaneLayout.origins(0, 4, 1));
        assertThrows(IllegalArgumentException.class, () -> HyperplaneLayout.origins(4, 4, -1));
    }
}
