package dev.finegrain.compiler.backend.jvm.layout;

import dev.finegrain.compiler.backend.jvm.lanes.HyperplaneLanes;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.runtime.jvm.HyperplaneLayout;

/**
 * Storage for a class that steps a 2D kernel's wavefront in vectors ({@link HyperplaneLanes}): every field, halo
 * included, laid along the hyperplanes (skew, 1) as {@link HyperplaneLayout} lays it, copied from the reference's
 * halo-padded rows and back. The class finds each hyperplane from the same {@link HyperplaneLayout#origins}, and its
 * frame is the domain's sizes alone.
 *
 * <p>Why. A wavefront step computes one hyperplane, whose points lie one per row; in rows they are a row's length
 * apart, so a vector of them is a gather, or a strip's transposes. Along hyperplanes they are consecutive, and so are
 * the neighbours a step reads from the hyperplanes before it: every load and store of a step is one contiguous vector,
 * and a sweep streams through storage once (docs/jvm-backend.md, "Storage along hyperplanes").
 */
public final class HyperplaneStorage implements StorageLayout {

    private final KernelGraph graph;
    private final int[] sizes;
    private final int skew;

    private HyperplaneStorage(KernelGraph graph, int[] sizes, int skew) {
        this.graph = graph;
        this.sizes = sizes.clone();
        this.skew = skew;
    }

    /** The layout of every field of the 2D kernel {@code graph} at {@code sizes} along the hyperplanes (skew, 1). */
    public static HyperplaneStorage of(KernelGraph graph, int[] sizes, int skew) {
        if (sizes.length != 2) {
            throw new IllegalArgumentException("storage along hyperplanes is for 2D domains, not " + sizes.length + "D");
        }
        return new HyperplaneStorage(graph, sizes, skew);
    }

    @Override
    public int[] frame() {
        return sizes.clone();
    }

    @Override
    public Object[] align(Object[] padded) {
        Object[] laidOut = padded.clone();
        for (IrField field : graph.fields()) {
            if (!field.isSequence()) {
                laidOut[field.id()] = move(field, padded[field.id()], true);
            }
        }
        return laidOut;
    }

    @Override
    public Object[] padded(Object[] laidOut) {
        Object[] padded = laidOut.clone();
        for (IrField field : graph.fields()) {
            if (field.isState()) {
                padded[field.id()] = move(field, laidOut[field.id()], false);
            }
        }
        return padded;
    }

    /** Field {@code field}'s elements from rows into hyperplanes ({@code intoHyperplanes}) or back, into a new array. */
    private Object move(IrField field, Object from, boolean intoHyperplanes) {
        int rows = sizes[0] + field.haloLow()[0] + field.haloHigh()[0];
        int columns = sizes[1] + field.haloLow()[1] + field.haloHigh()[1];
        int[] origins = HyperplaneLayout.origins(rows, columns, skew);
        Move element = switch (from) {
            case int[] in -> {
                int[] out = new int[in.length];
                yield new Move(out, intoHyperplanes ? (x, h) -> out[h] = in[x] : (x, h) -> out[x] = in[h]);
            }
            case long[] in -> {
                long[] out = new long[in.length];
                yield new Move(out, intoHyperplanes ? (x, h) -> out[h] = in[x] : (x, h) -> out[x] = in[h]);
            }
            case double[] in -> {
                double[] out = new double[in.length];
                yield new Move(out, intoHyperplanes ? (x, h) -> out[h] = in[x] : (x, h) -> out[x] = in[h]);
            }
            default -> throw new IllegalStateException("field storage is int[], long[] or double[]");
        };
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < columns; c++) {
                element.pair().copy(r * columns + c, origins[skew * r + c] + r);
            }
        }
        return element.target();
    }

    /** Copies one element between its place in rows ({@code rowMajor}) and along hyperplanes. */
    private interface ElementCopy {
        void copy(int rowMajor, int alongHyperplanes);
    }

    private record Move(Object target, ElementCopy pair) {}
}
