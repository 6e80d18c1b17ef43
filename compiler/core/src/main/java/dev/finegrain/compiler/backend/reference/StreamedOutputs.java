package dev.finegrain.compiler.backend.reference;

import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.plan.Domain;
import dev.finegrain.dsl.Keep;
import dev.finegrain.dsl.ReductionSpec;
import dev.finegrain.dsl.Type;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The outputs of a run that does not keep its folded fields whole: each value is offered as it is produced, a field's
 * kept box is copied out of the stream, and each reduction is accumulated on the way, the same semantics as
 * {@link KernelOutputs#ofDomain} over whole fields (an extreme's position is the first point in row-major order that
 * holds it, so a tie goes to the smaller linear point whatever the order values arrive in).
 */
final class StreamedOutputs {

    private final KernelGraph graph;
    private final int[] sizes;
    private final Domain domain;
    /** Per field id: the kept values of a folded field, or null. */
    private final Object[] kept;
    private final Keep[] keeps;
    private final List<ReductionSpec> reductions;
    /** Per reduction: the field it reduces, its value so far, the linear point of an extreme (-1 before the first value). */
    private final int[] reducedField;
    private final long[] reducedValue;
    private final int[] reducedAt;

    StreamedOutputs(KernelGraph graph, int[] sizes, boolean[] folded) {
        this.graph = graph;
        this.sizes = sizes.clone();
        this.domain = new Domain(sizes);
        this.kept = new Object[graph.fields().size()];
        this.keeps = new Keep[graph.fields().size()];
        for (IrField field : graph.fields()) {
            keeps[field.id()] = graph.kernel().keep(field.name());
            if (folded[field.id()]) {
                int points = Math.toIntExact(keeps[field.id()].points(sizes));
                kept[field.id()] = field.type() == Type.DOUBLE ? new double[points] : field.type() == Type.LONG ? new long[points] : new int[points];
            }
        }
        this.reductions = graph.kernel().reductions();
        this.reducedField = new int[reductions.size()];
        this.reducedValue = new long[reductions.size()];
        this.reducedAt = new int[reductions.size()];
        for (int r = 0; r < reductions.size(); r++) {
            String name = reductions.get(r).field();
            reducedField[r] = graph.fields().stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow().id();
            reducedAt[r] = -1;
        }
    }

    /** Field {@code field}'s value at {@code point}: an int, long or bool as a long, a double as its value. */
    void produced(int field, int[] point, long integral, double real) {
        Object values = kept[field];
        if (values != null) {
            int k = keptIndex(keeps[field], point);
            if (k >= 0) {
                switch (values) {
                    case int[] ints -> ints[k] = (int) integral;
                    case long[] longs -> longs[k] = integral;
                    case double[] doubles -> doubles[k] = real;
                    default -> throw new IllegalStateException();
                }
            }
        }
        for (int r = 0; r < reductions.size(); r++) {
            if (reducedField[r] == field) {
                accumulate(r, integral, domain.linear(point));
            }
        }
    }

    private void accumulate(int r, long value, int at) {
        if (reducedAt[r] < 0) {
            reducedValue[r] = value;
            reducedAt[r] = at;
            return;
        }
        switch (reductions.get(r).reduction()) {
            case SUM -> reducedValue[r] = graph.field(reducedField[r]).type() == Type.INT ? (int) (reducedValue[r] + value) : reducedValue[r] + value;
            case MAX -> {
                if (value > reducedValue[r] || value == reducedValue[r] && at < reducedAt[r]) {
                    reducedValue[r] = value;
                    reducedAt[r] = at;
                }
            }
            case MIN -> {
                if (value < reducedValue[r] || value == reducedValue[r] && at < reducedAt[r]) {
                    reducedValue[r] = value;
                    reducedAt[r] = at;
                }
            }
        }
    }

    /** The index of {@code point} in the kept box, or -1 outside it. */
    private int keptIndex(Keep keep, int[] point) {
        int[] extents = keep.extents(sizes);
        int[] first = keep.first(sizes);
        int index = 0;
        for (int d = 0; d < sizes.length; d++) {
            int c = point[d] - first[d];
            if (c < 0) {
                return -1;
            }
            index = index * extents[d] + c;
        }
        return index;
    }

    /** The outputs: the folded fields' kept values, the others' from {@code whole} (by field id), and the reductions. */
    KernelOutputs outputs(Object[] whole) {
        Map<String, Object> fields = new LinkedHashMap<>();
        for (IrField field : graph.fields()) {
            if (field.isState()) {
                fields.put(field.name(), kept[field.id()] != null ? kept[field.id()] : whole[field.id()]);
            }
        }
        Map<String, KernelOutputs.Reduced> reduced = new LinkedHashMap<>();
        for (int r = 0; r < reductions.size(); r++) {
            List<Integer> position = new ArrayList<>();
            if (reductions.get(r).withPosition()) {
                int[] point = new int[sizes.length];
                domain.coordinates(reducedAt[r], point);
                for (int c : point) {
                    position.add(c);
                }
            }
            reduced.put(reductions.get(r).name(), new KernelOutputs.Reduced(reducedValue[r], position));
        }
        return new KernelOutputs(fields, reduced);
    }
}
