package dev.finegrain.compiler.backend.jvm.layout;

import dev.finegrain.compiler.backend.KeptBox;
import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.Reducer;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.plan.RingFolding;

import dev.finegrain.dsl.ReductionSpec;
import dev.finegrain.dsl.Type;
import dev.finegrain.runtime.jvm.RingCounters;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Storage for a class whose folded fields live in spsc-ring's rings ({@link RingFolding}): such a field's padded row p
 * along the first dimension (an instance in 1D, a row with its halo columns in 2D) in slot p mod capacity, so its
 * halo rows (the boundary before row 0) start in the ring's first slots; every other field as the reference lays it
 * out. After a run a folded field's ring holds its last rows, which hold all it keeps (its last row or final value).
 */
public final class RingStorage implements StorageLayout {

    private final KernelGraph graph;
    private final int[] sizes;
    private final RingFolding folding;

    public RingStorage(KernelGraph graph, int[] sizes, RingFolding folding) {
        if (sizes.length > 2) {
            throw new IllegalArgumentException("rings fold 1D and 2D fields only");
        }
        this.graph = graph;
        this.sizes = sizes.clone();
        this.folding = folding;
    }

    /**
     * Each folded field's ring, its halo rows copied into the first slots, from storage whose folded fields are the
     * reference's rolling windows ({@code PaddedFields.prepare} with the folded fields named: row i in slot i mod
     * (halo + 1)); other fields as they are.
     */
    @Override
    public Object[] align(Object[] padded) {
        Object[] laidOut = padded.clone();
        for (int f : folding.folded()) {
            int halo = graph.field(f).haloLow()[0];
            int row = rowLength(graph.field(f));
            Object ring = java.lang.reflect.Array.newInstance(padded[f].getClass().getComponentType(),
                    Math.multiplyExact(folding.capacity(), row));
            for (int p = 0; p < halo; p++) {
                System.arraycopy(padded[f], Math.floorMod(p - halo, halo + 1) * row, ring, p * row, row);
            }
            laidOut[f] = ring;
        }
        return laidOut;
    }

    /** The elements of one padded row: 1 in 1D, the columns and the halo columns in 2D. */
    private int rowLength(IrField field) {
        return sizes.length == 1 ? 1 : field.paddedExtent(1, sizes[1]);
    }

    /** A folded field's values are gone but for the ring's: there is no whole field to copy back ({@link #outputs}). */
    @Override
    public Object[] padded(Object[] laidOut) {
        throw new UnsupportedOperationException("a field folded into a ring keeps its last " + folding.capacity()
                + " values only; read a run's outputs()");
    }

    /**
     * As below, with the reductions of folded fields combined from what each worker streamed into its line of the
     * counters ({@code sync[0]}, {@link RingFolding#streamed}).
     */
    @Override
    public KernelOutputs outputs(KernelGraph kernelGraph, int[] domainSizes, Object[] laidOut, Object[] sync) {
        KernelOutputs outputs = outputs(kernelGraph, domainSizes, laidOut);
        List<ReductionSpec> streamed = folding.streamed(graph);
        if (streamed.isEmpty()) {
            return outputs;
        }
        long[] words = (long[]) sync[0];
        Map<String, KernelOutputs.Reduced> reductions = new LinkedHashMap<>();
        for (ReductionSpec reduction : graph.kernel().reductions()) {
            int k = streamed.indexOf(reduction);
            if (k < 0) {
                reductions.put(reduction.name(), outputs.reductions().get(reduction.name()));
                continue;
            }
            Type type = graph.field(reduction.field()).type();
            Reducer reducer = new Reducer(reduction, type);
            for (int line = 0; line + RingCounters.STRIDE <= words.length; line += RingCounters.STRIDE) {
                int at = line + RingFolding.streamedWord(k);
                if (words[at] > 0) {
                    reducer.add(words[at + 1], words[at] - 1);
                }
            }
            reductions.put(reduction.name(), reducer.result(sizes));
        }
        return new KernelOutputs(outputs.fields(), reductions);
    }

    /** The kept values: a folded field's last value from its ring, every other state field as the reference keeps it. */
    @Override
    public KernelOutputs outputs(KernelGraph kernelGraph, int[] domainSizes, Object[] laidOut) {
        Map<String, Object> whole = new LinkedHashMap<>();
        for (IrField field : graph.fields()) {
            if (field.isState() && !folding.folds(field.id())) {
                whole.put(field.name(), KernelOutputs.interior(field, sizes, laidOut[field.id()]));
            }
        }
        KernelOutputs others = KernelOutputs.ofDomain(graph, sizes, whole);
        Map<String, Object> kept = new LinkedHashMap<>();
        for (IrField field : graph.fields()) {
            if (!field.isState()) {
                continue;
            }
            if (folding.folds(field.id())) {
                // every point a folded field keeps lies in its last row
                Object ring = laidOut[field.id()];
                KeptBox box = KeptBox.of(graph.kernel().keep(field.name()), sizes);
                int points = box.points();
                Object values = java.lang.reflect.Array.newInstance(ring.getClass().getComponentType(), points);
                int rowStart = ((sizes[0] - 1 + field.haloLow()[0]) & (folding.capacity() - 1)) * rowLength(field)
                        + (sizes.length == 1 ? 0 : field.haloLow()[1]);
                int[] point = new int[sizes.length];
                for (int k = 0; k < points; k++) {
                    box.pointOf(k, point);
                    System.arraycopy(ring, rowStart + (sizes.length == 1 ? 0 : point[1]), values, k, 1);
                }
                kept.put(field.name(), values);
            } else {
                kept.put(field.name(), others.field(field.name()));
            }
        }
        return new KernelOutputs(kept, others.reductions());
    }

    @Override
    public int[] frame() {
        return sizes.clone();
    }
}
