package dev.finegrain.compiler.backend.reference;

import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.Invocation;

/**
 * Storage for one run of a compiled backend, laid out as the reference lays it out: each field's domain padded
 * by its halo, row-major. Inputs are the invocation's own arrays (shared, read only); state fields are fresh,
 * with their halos already filled by the reference semantics of their boundaries.
 */
public final class PaddedFields {

    private PaddedFields() {}

    public static Object[] prepare(KernelGraph graph, Invocation invocation) {
        return new Interpreter(graph, invocation, false).paddedArrays();
    }

    /**
     * The same, but each state field {@code folded} names is a rolling window of its first dimension's halo plus one
     * (row i in slot i mod window, its halo rows filled), not the whole field: storage for a backend that folds it
     * too, which then needs only the halo from here.
     */
    public static Object[] prepare(KernelGraph graph, Invocation invocation, java.util.function.IntPredicate folded) {
        return new Interpreter(graph, invocation, false, folded).paddedArrays();
    }

    /**
     * A 2D state field's boundary where a GPU that folds the field reads it, its halo frame: the halo rows above the
     * domain (padded rows), then, for each row of the domain, the halo cells left of it. Made row by row in a rolling
     * window, so no array over the domain is made: an int[] (bools as ints), long[] or double[] of
     * {@code haloLow[0] x padded columns + rows x haloLow[1]} elements.
     */
    public static Object frame(KernelGraph graph, Invocation invocation, IrField field) {
        int[] sizes = invocation.sizes();
        int top = field.haloLow()[0];
        int left = field.haloLow()[1];
        Interpreter interpreter = new Interpreter(graph, invocation, false, f -> true);   // no state field over the domain
        FieldStorage window = interpreter.storage(field.id());
        Object rows = interpreter.paddedArrays()[field.id()];
        int width = window.rowSize;
        Object frame = java.lang.reflect.Array.newInstance(rows.getClass().getComponentType(),
                Math.toIntExact((long) top * width + (long) sizes[0] * left));
        for (int row = -top; row < 0; row++) {
            System.arraycopy(rows, window.rowStart(row), frame, (row + top) * width, width);
        }
        for (int row = 0; row < sizes[0]; row++) {
            interpreter.startRow(row);
            System.arraycopy(rows, window.rowStart(row), frame, top * width + row * left, left);
        }
        return frame;
    }
}
