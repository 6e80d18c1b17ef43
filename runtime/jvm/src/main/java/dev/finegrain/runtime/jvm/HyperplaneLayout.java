package dev.finegrain.runtime.jvm;

/**
 * A 2D array stored along hyperplanes: the elements with {@code skew * r + c = u} (anti-diagonals when the skew is 1,
 * columns when it is 0) lie one after another in order of rows, hyperplane after hyperplane. Element (r, c) of an
 * array of {@code rows} x {@code columns} is at {@code origins[skew * r + c] + r}, where {@code origins} is {@link
 * #origins}: the index of the hyperplane's first element less its first row. The layout is dense (rows x columns
 * elements) and a wavefront's step reads and writes consecutive elements: the points of one hyperplane, as many at
 * once as a vector holds, with its neighbours on earlier hyperplanes at constant distances along them.
 *
 * <p>The compiler lays a class's storage out with this, and the class calls it to find each hyperplane's rows and
 * where they lie, so that both count the same way.
 */
public final class HyperplaneLayout {

    private HyperplaneLayout() {}

    /**
     * Per hyperplane u from 0 to {@code skew * (rows - 1) + columns - 1}: the index of its first element less its first
     * row, so that element (r, c) is at {@code origins[skew * r + c] + r}.
     *
     * @throws IllegalArgumentException when the sizes are not positive or the skew is negative
     */
    public static int[] origins(int rows, int columns, int skew) {
        if (rows < 1 || columns < 1 || skew < 0) {
            throw new IllegalArgumentException("a layout along hyperplanes needs at least one row and column and a skew of 0 or more, not "
                    + rows + " x " + columns + " skew " + skew);
        }
        int[] origins = new int[hyperplanes(rows, columns, skew)];
        int next = 0;
        for (int u = 0; u < origins.length; u++) {
            int first = firstRow(u, columns, skew);
            origins[u] = next - first;
            next += lastRow(u, rows, columns, skew) - first + 1;
        }
        return origins;
    }

    /** How many hyperplanes an array of {@code rows} x {@code columns} has: {@code skew * (rows - 1) + columns}. */
    public static int hyperplanes(int rows, int columns, int skew) {
        return skew * (rows - 1) + columns;
    }

    /**
     * The first row of hyperplane {@code u} of an array {@code columns} wide: the least r at or above 0 with
     * {@code u - skew * r < columns}. Past the last hyperplane it lies past the last row, so the range is empty.
     */
    public static int firstRow(int u, int columns, int skew) {
        return skew == 0 ? 0 : Math.max(0, Math.ceilDiv(u - columns + 1, skew));
    }

    /**
     * The last row of hyperplane {@code u} of an array of {@code rows} x {@code columns}: the greatest r below
     * {@code rows} with {@code skew * r <= u}; -1 when the hyperplane holds no element (unskewed, u is a column, and
     * every row or none holds it).
     */
    public static int lastRow(int u, int rows, int columns, int skew) {
        if (skew == 0) {
            return u >= 0 && u < columns ? rows - 1 : -1;
        }
        return Math.min(rows - 1, Math.floorDiv(u, skew));
    }
}
