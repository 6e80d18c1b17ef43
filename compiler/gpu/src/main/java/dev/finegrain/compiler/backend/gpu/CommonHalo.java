package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.ir.IrChannel;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;

/**
 * The halo every field of a GPU mapping is padded by: the widest any field needs, per side and dimension, so that one
 * index addresses a point in every field's padded copy; at least as wide below as every channel reaches back, so that
 * a channel's producer lies in a tile's copy even when no load of the actor body reads it (a read folded away).
 */
public record CommonHalo(int[] low, int[] high) {

    public static CommonHalo of(KernelGraph graph) {
        int rank = graph.rank();
        int[] low = new int[rank];
        int[] high = new int[rank];
        for (int d = 0; d < rank; d++) {
            for (IrField field : graph.fields()) {
                low[d] = Math.max(low[d], field.haloLow()[d]);
                high[d] = Math.max(high[d], field.haloHigh()[d]);
            }
            for (IrChannel channel : graph.channels()) {
                low[d] = Math.max(low[d], channel.vector()[d]);
            }
        }
        return new CommonHalo(low, high);
    }

    /** The extent of dimension d of a padded copy of a domain of these sizes. */
    public int extent(int[] sizes, int d) {
        return sizes[d] + low[d] + high[d];
    }
}
