package dev.finegrain.compiler.backend.reference;

import dev.finegrain.compiler.backend.KeptBox;
import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.Reducer;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.plan.Domain;
import dev.finegrain.dsl.ReductionSpec;
import dev.finegrain.dsl.Type;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The outputs of a run that does not keep its folded fields whole: each value is offered as it is produced, a field's
 * kept box is copied out of the stream, and each reduction is accumulated on the way, the same semantics as
 * {@link KernelOutputs#ofDomain} over whole fields ({@link KeptBox}, {@link Reducer}).
 */
final class StreamedOutputs {

    private final KernelGraph graph;
    private final int[] sizes;
    /** Per field id: the kept values of a folded field, or null, and its kept box. */
    private final Object[] kept;
    private final KeptBox[] boxes;
    /** Per reduction, in declaration order: its field's id and its running value. */
    private final int[] reducedField;
    private final Reducer[] reducers;

    StreamedOutputs(KernelGraph graph, int[] sizes, boolean[] folded) {
        this.graph = graph;
        this.sizes = sizes.clone();
        this.kept = new Object[graph.fields().size()];
        this.boxes = new KeptBox[graph.fields().size()];
        for (IrField field : graph.fields()) {
            if (folded[field.id()]) {
                boxes[field.id()] = KeptBox.of(graph.kernel().keep(field.name()), sizes);
                int points = boxes[field.id()].points();
                kept[field.id()] = field.type() == Type.DOUBLE ? new double[points] : field.type() == Type.LONG ? new long[points] : new int[points];
            }
        }
        List<ReductionSpec> reductions = graph.kernel().reductions();
        this.reducedField = new int[reductions.size()];
        this.reducers = new Reducer[reductions.size()];
        for (int r = 0; r < reductions.size(); r++) {
            String name = reductions.get(r).field();
            IrField field = graph.field(name);
            reducedField[r] = field.id();
            reducers[r] = new Reducer(reductions.get(r), field.type());
        }
    }

    /** Field {@code field}'s value at {@code point}: an int, long or bool as a long, a double as its value. */
    void produced(int field, int[] point, long integral, double real) {
        Object values = kept[field];
        if (values != null) {
            int k = boxes[field].indexOf(point);
            if (k >= 0) {
                switch (values) {
                    case int[] ints -> ints[k] = (int) integral;
                    case long[] longs -> longs[k] = integral;
                    case double[] doubles -> doubles[k] = real;
                    default -> throw new IllegalStateException();
                }
            }
        }
        for (int r = 0; r < reducers.length; r++) {
            if (reducedField[r] == field) {
                reducers[r].add(integral, Domain.linear(sizes, point));
            }
        }
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
        for (int r = 0; r < reducers.length; r++) {
            reduced.put(graph.kernel().reductions().get(r).name(), reducers[r].result(sizes));
        }
        return new KernelOutputs(fields, reduced);
    }
}
