package dev.finegrain.compiler.backend.reference;

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
}
