package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.backend.reference.PaddedFields;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.plan.Domain;
import dev.finegrain.dsl.Invocation;

/**
 * A run's fields as a GPU holds them: each the domain padded by the {@link CommonHalo}, row-major (int[], long[] or
 * double[]; bools as ints), inputs copied from the invocation, state fields with their halos filled by the reference
 * semantics of their boundaries and zero inside; words a field's own halo does not reach stay zero. A sequence input
 * stays as the invocation gives it ({@link GlobalReads}: cells read it by its own index), and the lookup tables follow
 * the fields, in table order.
 */
public final class CommonHaloArrays {

    private CommonHaloArrays() {}

    public static Object[] of(KernelGraph graph, Invocation invocation) {
        return of(graph, invocation, true);
    }

    /**
     * The same; without {@code withState} the state fields are left out (null), and none of them is made over the domain:
     * for a run whose every row folds them, which reads only their frames.
     */
    public static Object[] of(KernelGraph graph, Invocation invocation, boolean withState) {
        int[] sizes = invocation.sizes();
        CommonHalo halo = CommonHalo.of(graph);
        int[] extents = new int[sizes.length];
        for (int d = 0; d < sizes.length; d++) {
            extents[d] = halo.extent(sizes, d);
        }
        Object[] own = withState ? PaddedFields.prepare(graph, invocation) : PaddedFields.prepare(graph, invocation, f -> true);
        Object[] padded = new Object[own.length];
        int[] point = new int[sizes.length];
        System.arraycopy(own, graph.fields().size(), padded, graph.fields().size(), own.length - graph.fields().size());
        for (IrField field : graph.fields()) {
            if (field.isState() && !withState) {
                continue;
            }
            if (!GlobalReads.staged(field)) {
                padded[field.id()] = own[field.id()];
                continue;
            }
            int[] fieldExtents = new int[sizes.length];
            for (int d = 0; d < sizes.length; d++) {
                fieldExtents[d] = sizes[d] + field.haloLow()[d] + field.haloHigh()[d];
            }
            Domain layout = new Domain(fieldExtents);
            Domain common = new Domain(extents);   // only for a field over the domain, which fits an array
            Object from = own[field.id()];
            Object to = switch (from) {
                case int[] ints -> new int[common.points()];
                case long[] longs -> new long[common.points()];
                default -> new double[common.points()];
            };
            int rowLength = fieldExtents[sizes.length - 1];
            // rows along the last dimension are contiguous in both layouts
            for (int index = 0; index < layout.points(); index += rowLength) {
                layout.coordinates(index, point);
                for (int d = 0; d < point.length; d++) {
                    point[d] += halo.low()[d] - field.haloLow()[d];
                }
                System.arraycopy(from, index, to, common.linear(point), rowLength);
            }
            padded[field.id()] = to;
        }
        return padded;
    }
}
