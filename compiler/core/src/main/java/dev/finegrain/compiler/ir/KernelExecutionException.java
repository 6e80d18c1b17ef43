package dev.finegrain.compiler.ir;

/** A kernel that fails on its inputs at run time (e.g. an integer division by zero), named with actor and point. */
public final class KernelExecutionException extends RuntimeException {

    public KernelExecutionException(String message) {
        super(message);
    }

    /** A lookup whose index lies outside its table's axis, in the same words on every backend. */
    public static KernelExecutionException lookupOutOfRange(KernelGraph graph, int table, int axis, long value) {
        var spec = graph.kernel().tables().get(table);
        int extent = spec.extents().get(axis);
        return new KernelExecutionException("kernel '" + graph.name() + "': a lookup of table '" + spec.name() + "' got index "
                + value + " on axis " + axis + ", outside 0.." + (extent - 1) + "; keep the indices an actor computes inside the "
                + "table (check the input values they come from)");
    }
}
