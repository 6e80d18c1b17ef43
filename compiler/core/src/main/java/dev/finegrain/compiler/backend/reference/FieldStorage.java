package dev.finegrain.compiler.backend.reference;

import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.dsl.Type;

/**
 * One field's values over the domain padded by its halo (a sequence input: over the dimensions it spans), row-major, in the array of its type (bool as int).
 * State fields of the checking reference also track which points have been produced, so a read before the producer fired is
 * caught rather than silently reading a stale zero.
 */
final class FieldStorage {

    final IrField field;
    final int[] ints;
    final long[] longs;
    final double[] doubles;
    private final boolean[] produced;
    private final int[] low;
    private final int[] extents;
    /** Rows (along the first dimension) of a folded field's rolling window; 0 for a field stored whole. */
    final int window;
    /** Elements per row: the product of the padded extents of every dimension but the first. */
    final int rowSize;

    /** Storage backed by the caller's padded input array, shared, never written. */
    static FieldStorage ofInput(IrField field, int[] sizes, Object array) {
        return new FieldStorage(field, sizes, array, false, 0);
    }

    /** Fresh storage; {@code checkReads} allocates the produced marks that catch a read before its producer fired. */
    static FieldStorage ofState(IrField field, int[] sizes, boolean checkReads) {
        return new FieldStorage(field, sizes, null, checkReads, 0);
    }

    /**
     * Fresh storage folded along the first dimension (Halide's storage folding): a rolling window of the rows a read
     * reaches back plus the current one, row i in slot i mod window. For a run that fires rows in order and needs no
     * row after the window has moved past it (the oracle, for a field it does not keep whole).
     */
    static FieldStorage ofFoldedState(IrField field, int[] sizes, boolean checkReads) {
        return new FieldStorage(field, sizes, null, checkReads, field.haloLow()[0] + 1);
    }

    private FieldStorage(IrField field, int[] sizes, Object input, boolean checkReads, int window) {
        this.field = field;
        this.low = field.haloLow().clone();
        this.extents = new int[sizes.length];
        for (int d = 0; d < sizes.length; d++) {
            extents[d] = field.paddedExtent(d, sizes[d]);
        }
        this.window = window;
        int elementsPerRow = 1;
        for (int d = 1; d < extents.length; d++) {
            elementsPerRow = Math.multiplyExact(elementsPerRow, extents[d]);
        }
        this.rowSize = elementsPerRow;
        int length = Math.multiplyExact(window > 0 ? window : extents[0], rowSize);
        Type type = field.type();
        if (input != null) {
            ints = type == Type.INT ? (int[]) input : type == Type.BOOL ? asInts((boolean[]) input) : null;
            longs = type == Type.LONG ? (long[]) input : null;
            doubles = type == Type.DOUBLE ? (double[]) input : null;
            produced = null;
        } else {
            ints = type == Type.INT || type == Type.BOOL ? new int[length] : null;
            longs = type == Type.LONG ? new long[length] : null;
            doubles = type == Type.DOUBLE ? new double[length] : null;
            produced = checkReads ? new boolean[length] : null;
        }
    }

    /** Bools are held as 0 and 1, as generated code holds them. */
    private static int[] asInts(boolean[] values) {
        int[] ints = new int[values.length];
        for (int k = 0; k < values.length; k++) {
            ints[k] = values[k] ? 1 : 0;
        }
        return ints;
    }

    /** The storage index of {@code point + offset}; the point may lie in the halo. A sequence ignores what it does not span. */
    int index(int[] point, int[] offset) {
        int index = 0;
        for (int d = window > 0 ? 1 : 0; d < extents.length; d++) {
            index = index * extents[d] + (field.spans()[d] ? point[d] + offset[d] + low[d] : 0);
        }
        return window > 0 ? rowStart(point[0] + offset[0]) + index : index;
    }

    /** Where row {@code row} (along the first dimension) starts in a folded field's window: its slot, row mod window. */
    int rowStart(int row) {
        return Math.floorMod(row, window) * rowSize;
    }

    /** Clears the produced marks of the window slot that row {@code row} takes over. */
    void forgetSlotOf(int row) {
        if (produced != null) {
            java.util.Arrays.fill(produced, rowStart(row), rowStart(row) + rowSize, false);
        }
    }

    boolean isProduced(int index) {
        return produced == null || produced[index];
    }

    void markProduced(int index) {
        if (produced != null) {
            produced[index] = true;
        }
    }

    long integral(int index) {
        return ints != null ? ints[index] : longs[index];
    }

    void setIntegral(int index, long value) {
        if (ints != null) {
            ints[index] = (int) value;
        } else {
            longs[index] = value;
        }
    }
}
