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
}
