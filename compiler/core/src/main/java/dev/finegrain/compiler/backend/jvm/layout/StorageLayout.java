package dev.finegrain.compiler.backend.jvm.layout;

/**
 * Where a generated class expects its fields' elements, when not where the reference puts them (halo-padded rows,
 * dense): rows aligned or in blocks ({@link AlignedStorage}), or along hyperplanes ({@link HyperplaneStorage}). A run's
 * storage is copied into the layout before the run and back after it, outside what is timed.
 */
public sealed interface StorageLayout permits AlignedStorage, HyperplaneStorage, RingStorage {

    /** The fields of {@code padded} (the reference's layout) copied into this layout; fields it keeps as they are, the same arrays. */
    Object[] align(Object[] padded);

    /** The state fields of storage in this layout copied back to the reference's layout (the inputs as they are). */
    Object[] padded(Object[] laidOut);

    /** What a run over storage in this layout computed: the kept values and reductions. */
    default dev.finegrain.compiler.backend.KernelOutputs outputs(dev.finegrain.compiler.ir.KernelGraph graph, int[] sizes, Object[] laidOut) {
        return dev.finegrain.compiler.backend.KernelOutputs.fromPadded(graph, sizes, padded(laidOut));
    }

    /**
     * As {@link #outputs(dev.finegrain.compiler.ir.KernelGraph, int[], Object[])}, where the run's sync objects may
     * hold what it computed beside the fields (the reductions spsc-ring's workers streamed).
     */
    default dev.finegrain.compiler.backend.KernelOutputs outputs(dev.finegrain.compiler.ir.KernelGraph graph, int[] sizes, Object[] laidOut,
                                                                 Object[] sync) {
        return outputs(graph, sizes, laidOut);
    }

    /** The sizes the class is constructed with: the domain's, then what the layout tells the class. */
    int[] frame();
}
