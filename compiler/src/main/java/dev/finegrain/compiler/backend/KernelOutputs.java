package dev.finegrain.compiler.backend;

import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.plan.Domain;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What a run computed: each state field's values over the domain (no halo), row-major, as int[], long[] or
 * double[]. Two runs agree only bit for bit: doubles are compared by their raw bits.
 */
public record KernelOutputs(Map<String, Object> fields) {

    public KernelOutputs {
        fields = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }

    public Object field(String name) {
        return fields.get(name);
    }

    /** The first point where {@code actual} differs from these outputs, as a readable sentence. */
    public Optional<String> firstDifference(KernelGraph graph, int[] sizes, KernelOutputs actual) {
        Domain domain = new Domain(sizes);
        int[] point = new int[sizes.length];
        for (IrField field : graph.fields()) {
            if (!field.isState()) {
                continue;
            }
            Object want = fields.get(field.name());
            Object got = actual.fields.get(field.name());
            if (got == null) {
                return Optional.of("field " + field.name() + " is missing");
            }
            for (int p = 0; p < domain.points(); p++) {
                long wantBits = bits(want, p);
                long gotBits = bits(got, p);
                if (wantBits != gotBits) {
                    domain.coordinates(p, point);
                    return Optional.of(field.name() + java.util.Arrays.toString(point) + ": expected " + text(want, p)
                            + ", got " + text(got, p));
                }
            }
        }
        return Optional.empty();
    }

    private static long bits(Object array, int index) {
        return switch (array) {
            case int[] ints -> ints[index];
            case long[] longs -> longs[index];
            case double[] doubles -> Double.doubleToRawLongBits(doubles[index]);
            default -> throw new IllegalArgumentException("not a field array: " + array.getClass());
        };
    }

    private static String text(Object array, int index) {
        return switch (array) {
            case int[] ints -> Integer.toString(ints[index]);
            case long[] longs -> Long.toString(longs[index]);
            case double[] doubles -> Double.toString(doubles[index]);
            default -> throw new IllegalArgumentException("not a field array: " + array.getClass());
        };
    }
}
