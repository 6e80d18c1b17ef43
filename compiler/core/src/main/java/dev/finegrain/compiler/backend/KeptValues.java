package dev.finegrain.compiler.backend;

import dev.finegrain.compiler.plan.Domain;
import dev.finegrain.dsl.Keep;
import dev.finegrain.dsl.Reduction;
import dev.finegrain.dsl.ReductionSpec;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.List;

/**
 * The keep and reduce semantics over a whole field, in one place: the kept box of a field, and a reduction in row-major
 * order (an extreme's position is the first point that holds it; a sum wraps as Java's arithmetic does).
 */
final class KeptValues {

    private KeptValues() {}

    /** The values of {@code whole} (row-major over {@code sizes}) inside the box {@code keep} keeps; the array itself for ALL. */
    static Object cut(Object whole, int[] sizes, Keep keep) {
        if (keep == Keep.ALL) {
            return whole;
        }
        Domain kept = new Domain(keep.extents(sizes));
        int[] first = keep.first(sizes);
        Object out = Array.newInstance(whole.getClass().getComponentType(), kept.points());
        int[] point = new int[sizes.length];
        for (int p = 0; p < kept.points(); p++) {
            kept.coordinates(p, point);
            int index = 0;
            for (int d = 0; d < sizes.length; d++) {
                index = index * sizes[d] + point[d] + first[d];
            }
            System.arraycopy(whole, index, out, p, 1);
        }
        return out;
    }

    /** {@code reduction} of an int[] or long[] field over the domain of {@code sizes}. */
    static KernelOutputs.Reduced reduce(Object whole, int[] sizes, ReductionSpec reduction) {
        int points = new Domain(sizes).points();
        long best = value(whole, 0);
        int at = 0;
        for (int p = 1; p < points; p++) {
            long v = value(whole, p);
            switch (reduction.reduction()) {
                case SUM -> best += v;
                case MAX -> {
                    if (v > best) {
                        best = v;
                        at = p;
                    }
                }
                case MIN -> {
                    if (v < best) {
                        best = v;
                        at = p;
                    }
                }
            }
        }
        if (whole instanceof int[] && reduction.reduction() == Reduction.SUM) {
            best = (int) best;
        }
        List<Integer> position = new ArrayList<>();
        if (reduction.withPosition()) {
            int[] point = new int[sizes.length];
            new Domain(sizes).coordinates(at, point);
            for (int c : point) {
                position.add(c);
            }
        }
        return new KernelOutputs.Reduced(best, position);
    }

    private static long value(Object array, int index) {
        return array instanceof int[] ints ? ints[index] : ((long[]) array)[index];
    }
}
