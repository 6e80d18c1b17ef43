package dev.finegrain.compiler.backend.reference;

import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.plan.Domain;
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

    /** Storage backed by the caller's padded input array, shared, never written. */
    static FieldStorage ofInput(IrField field, int[] sizes, Object array) {
        return new FieldStorage(field, sizes, array, false);
    }

    /** Fresh storage; {@code checkReads} allocates the produced marks that catch a read before its producer fired. */
    static FieldStorage ofState(IrField field, int[] sizes, boolean checkReads) {
        return new FieldStorage(field, sizes, null, checkReads);
    }

    private FieldStorage(IrField field, int[] sizes, Object input, boolean checkReads) {
        this.field = field;
        this.low = field.haloLow().clone();
        this.extents = new int[sizes.length];
        for (int d = 0; d < sizes.length; d++) {
            extents[d] = field.paddedExtent(d, sizes[d]);
        }
        int length = new Domain(extents).points();
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
        for (int d = 0; d < extents.length; d++) {
            index = index * extents[d] + (field.spans()[d] ? point[d] + offset[d] + low[d] : 0);
        }
        return index;
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
