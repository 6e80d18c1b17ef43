package dev.finegrain.compiler.plan;

import dev.finegrain.compiler.ir.KernelExecutionException;

/** Row-major numbering of the points of a rectangular domain [0, sizes[0]) x ... */
public final class Domain {

    private final int[] sizes;
    private final int points;

    public Domain(int[] sizes) {
        this.sizes = sizes.clone();
        long count = 1;
        for (int size : sizes) {
            count *= size;
        }
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
        int index = 0;
        for (int d = 0; d < sizes.length; d++) {
            index = index * sizes[d] + point[d];
        }
        return index;
    }

    /** Writes the coordinates of a linear point into {@code point}. */
    public void coordinates(int linear, int[] point) {
        for (int d = sizes.length - 1; d >= 0; d--) {
            point[d] = linear % sizes[d];
            linear /= sizes[d];
        }
    }

    public boolean contains(int[] point) {
        for (int d = 0; d < sizes.length; d++) {
            if (point[d] < 0 || point[d] >= sizes[d]) {
                return false;
            }
        }
        return true;
    }
}
