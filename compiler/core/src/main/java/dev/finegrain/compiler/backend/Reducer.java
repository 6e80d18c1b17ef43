package dev.finegrain.compiler.backend;

import dev.finegrain.compiler.plan.Domain;
import dev.finegrain.dsl.ReductionSpec;
import dev.finegrain.dsl.Type;

import java.util.ArrayList;
import java.util.List;

/**
 * One declared reduction, fed a field's values one by one in any order, each with its point's row-major number: the
 * one place the semantics live. A sum wraps as Java's arithmetic of the field's type does (32 bits for an INT field);
 * an extreme's position is the first point that holds it, so a tie goes to the smaller number whatever the order.
 */
public final class Reducer {

    private final ReductionSpec spec;
    private final boolean int32;
    private long value;
    private long at = -1;

    public Reducer(ReductionSpec spec, Type fieldType) {
        this.spec = spec;
        this.int32 = fieldType == Type.INT;
    }

    public void add(long next, long point) {
        if (at < 0) {
            value = next;
            at = point;
            return;
        }
        switch (spec.reduction()) {
            case SUM -> value = int32 ? (int) (value + next) : value + next;
            case MAX -> take(next > value || next == value && point < at, next, point);
            case MIN -> take(next < value || next == value && point < at, next, point);
        }
    }

    private void take(boolean better, long next, long point) {
        if (better) {
            value = next;
            at = point;
        }
    }

    /** The reduction over the domain of {@code sizes}, with the extreme's coordinates when the spec asks for them. */
    public KernelOutputs.Reduced result(int[] sizes) {
        List<Integer> position = new ArrayList<>();
        if (spec.withPosition()) {
            int[] point = new int[sizes.length];
            Domain.coordinates(sizes, at, point);
            for (int c : point) {
                position.add(c);
            }
        }
        return new KernelOutputs.Reduced(value, position);
    }

    /** The reduction of a whole int[] or long[] field, row-major over {@code sizes}. */
    public static KernelOutputs.Reduced over(Object whole, int[] sizes, ReductionSpec spec) {
        Reducer reducer = new Reducer(spec, whole instanceof int[] ? Type.INT : Type.LONG);
        int points = new Domain(sizes).points();
        for (int p = 0; p < points; p++) {
            reducer.add(whole instanceof int[] ints ? ints[p] : ((long[]) whole)[p], p);
        }
        return reducer.result(sizes);
    }
}
