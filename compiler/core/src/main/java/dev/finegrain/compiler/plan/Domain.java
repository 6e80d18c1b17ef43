package dev.finegrain.compiler.plan;

import dev.finegrain.compiler.ir.KernelExecutionException;

/** Row-major numbering of the points of a rectangular domain [0, sizes[0]) x ... */
public final class Domain {

    private final int[] sizes;
    private final int points;

    public Domain(int[] sizes) {
        this.sizes = sizes.clone();
        long count = pointCount(sizes);
        if (count > Integer.MAX_VALUE) {
            throw new KernelExecutionException("a domain of " + java.util.Arrays.toString(sizes)
                    + " (halos included) has " + count + " points, more than an int-indexed array holds; choose smaller sizes");
        }
        this.points = (int) count;
    }

    public int rank() {
        return sizes.length;
    }

    public int size(int dimension) {
        return sizes[dimension];
    }

    public int[] sizes() {
        return sizes.clone();
    }

    public int points() {
        return points;
    }

    public int linear(int[] point) {
        return (int) linear(sizes, point);   // below points(), which the constructor keeps within an int
    }

    /** Writes the coordinates of a linear point into {@code point}. */
    public void coordinates(int linear, int[] point) {
        coordinates(sizes, linear, point);
    }

    public boolean contains(int[] point) {
        for (int d = 0; d < sizes.length; d++) {
            if (point[d] < 0 || point[d] >= sizes[d]) {
                return false;
            }
        }
        return true;
    }

    /**
     * The row-major number of {@code point} in a domain of {@code sizes}, as a long: for a run of more points than an
     * int-indexed array holds, which keeps no array over the domain (a folded run) and numbers its points all the same.
     */
    public static long linear(int[] sizes, int[] point) {
        long index = 0;
        for (int d = 0; d < sizes.length; d++) {
            index = index * sizes[d] + point[d];
        }
        return index;
    }

    /** The coordinates of point number {@code linear} of a domain of {@code sizes}, into {@code point}. */
    public static void coordinates(int[] sizes, long linear, int[] point) {
        for (int d = sizes.length - 1; d >= 0; d--) {
            point[d] = (int) (linear % sizes[d]);
            linear /= sizes[d];
        }
    }

    /** A size as the command line and reports write it, e.g. {@code 64x32}. */
    public static String sizeText(int[] sizes) {
        return java.util.Arrays.stream(sizes).mapToObj(String::valueOf).collect(java.util.stream.Collectors.joining("x"));
    }

    /** The number of points of a domain of {@code sizes}, as a long. */
    public static long pointCount(int[] sizes) {
        long count = 1;
        for (int size : sizes) {
            count *= size;
        }
        return count;
    }

    /**
     * Steps {@code point} to the next point in row-major order; returns false (and leaves it at the origin) after the
     * last. Visits every point of a domain of any size without numbering them.
     */
    public static boolean next(int[] sizes, int[] point) {
        for (int d = sizes.length - 1; d >= 0; d--) {
            if (++point[d] < sizes[d]) {
                return true;
            }
            point[d] = 0;
        }
        return false;
    }
}
