package dev.finegrain.compiler.backend.reference;

/**
 * The halo of a domain padded by {@code low} and {@code high} cells per dimension, walked in storage order without
 * visiting the interior: rows whose outer coordinates lie in the domain contribute only their two ends. Filling a
 * 4096 x 4096 field's halo then touches 8 K points rather than 16 M.
 */
public final class HaloPoints {

    /** Receives one halo point: its row-major index in padded storage and its domain coordinates (outside the domain). */
    @FunctionalInterface
    public interface Visitor {
        void visit(int index, int[] point);
    }

    private HaloPoints() {}

    public static void forEach(int[] sizes, int[] low, int[] high, Visitor visitor) {
        int last = sizes.length - 1;
        int rowLength = sizes[last] + low[last] + high[last];
        int[] outer = new int[last];
        int[] point = new int[sizes.length];
        for (int d = 0; d < last; d++) {
            outer[d] = -low[d];
        }
        for (int rowStart = 0; ; rowStart += rowLength) {
            boolean rowInside = true;
            for (int d = 0; d < last; d++) {
                point[d] = outer[d];
                rowInside &= outer[d] >= 0 && outer[d] < sizes[d];
            }
            int interiorStart = rowInside ? low[last] : rowLength;
            int interiorEnd = rowInside ? low[last] + sizes[last] : rowLength;
            visitRun(rowStart, 0, interiorStart, low[last], point, visitor);
            visitRun(rowStart, interiorEnd, rowLength, low[last], point, visitor);
            if (!nextRow(outer, sizes, low, high)) {
                return;
            }
        }
    }

    private static void visitRun(int rowStart, int from, int to, int lowLast, int[] point, Visitor visitor) {
        int last = point.length - 1;
        for (int x = from; x < to; x++) {
            point[last] = x - lowLast;
            visitor.visit(rowStart + x, point);
        }
    }

    /** Advances the outer coordinates like an odometer; false after the last row. */
    private static boolean nextRow(int[] outer, int[] sizes, int[] low, int[] high) {
        for (int d = outer.length - 1; d >= 0; d--) {
            if (++outer[d] < sizes[d] + high[d]) {
                return true;
            }
            outer[d] = -low[d];
        }
        return false;
    }
}
