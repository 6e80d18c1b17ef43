package dev.finegrain.dsl;

import dev.finegrain.dsl.internal.Diagnostics;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One run's data for a kernel: the domain sizes, every param's value and every input array. Input arrays are
 * row-major over the domain padded by the input's halo on every side, so element (p0, p1) of a 2D input with
 * halo h sits at {@code (p0 + h) * (size1 + 2h) + (p1 + h)}. {@link Builder#build()} checks everything before
 * any backend runs, so a backend never starts on a missing param or a short array.
 */
public final class Invocation {

    private final Kernel kernel;
    private final int[] sizes;
    private final Map<String, Object> params;
    private final Map<String, Object> inputs;

    private Invocation(Kernel kernel, int[] sizes, Map<String, Object> params, Map<String, Object> inputs) {
        this.kernel = kernel;
        this.sizes = sizes;
        this.params = Map.copyOf(params);
        this.inputs = Map.copyOf(inputs);
    }

    public Kernel kernel() { return kernel; }

    /** The extent of each domain dimension, in declaration order. */
    public int[] sizes() { return sizes.clone(); }

    public int size(int dimension) { return sizes[dimension]; }

    /** The number of domain points. */
    public long points() {
        return Arrays.stream(sizes).asLongStream().reduce(1, (a, b) -> a * b);
    }

    /** An Integer, Long, Double or Boolean, by the param's declared type. */
    public Object param(String name) { return params.get(name); }

    /** An int[], long[] or double[], by the input's declared type. The array is shared, not copied. */
    public Object input(String name) { return inputs.get(name); }

    /** The extents of an array padded by {@code halo} cells on every side. */
    public static int[] paddedExtents(int[] sizes, int halo) {
        return Arrays.stream(sizes).map(n -> n + 2 * halo).toArray();
    }

    public static int paddedLength(int[] sizes, int halo) {
        return Math.toIntExact(Arrays.stream(paddedExtents(sizes, halo)).asLongStream().reduce(1, Math::multiplyExact));
    }

    /** Collects sizes, params and inputs; checks them all in {@link #build()}. */
    public static final class Builder {
        private final Kernel kernel;
        private final CallSite site;
        private int[] sizes = new int[0];
        private final Map<String, Object> params = new LinkedHashMap<>();
        private final Map<String, Object> inputs = new LinkedHashMap<>();

        Builder(Kernel kernel, CallSite site) {
            this.kernel = kernel;
            this.site = site;
        }

        public Builder sizes(int... extents) {
            sizes = extents.clone();
            return this;
        }

        public Builder param(String name, Object value) {
            params.put(name, value);
            return this;
        }

        public Builder input(String name, Object array) {
            inputs.put(name, array);
            return this;
        }

        public Invocation build() {
            String name = kernel.name();
            List<Dimension> domain = kernel.domain();
            if (sizes.length != domain.size()) {
                throw Diagnostics.sizeCount(name, sizes.length, domain, site);
            }
            for (int d = 0; d < sizes.length; d++) {
                if (sizes[d] < 1) {
                    throw Diagnostics.sizeNotPositive(name, domain.get(d).size(), sizes[d], site);
                }
            }
            List<String> paramNames = kernel.params().stream().map(ParamSpec::name).toList();
            List<FieldSpec> inputFields = kernel.fields().stream().filter(FieldSpec::isInput).toList();
            List<String> inputNames = inputFields.stream().map(FieldSpec::name).toList();
            for (String given : params.keySet()) {
                if (!paramNames.contains(given)) {
                    throw Diagnostics.notAnInput(name, "param", given, paramNames, site);
                }
            }
            for (String given : inputs.keySet()) {
                if (!inputNames.contains(given)) {
                    throw Diagnostics.notAnInput(name, "input", given, inputNames, site);
                }
            }
            for (ParamSpec param : kernel.params()) {
                Object value = params.get(param.name());
                if (value == null) {
                    throw Diagnostics.paramMissing(name, param, site);
                }
                if (!boxedClass(param.type()).isInstance(value)) {
                    throw Diagnostics.paramWrongType(name, param, value, site);
                }
            }
            for (FieldSpec input : inputFields) {
                Object array = inputs.get(input.name());
                if (array == null) {
                    throw Diagnostics.inputMissing(name, input, site);
                }
                if (!arrayClass(input.type()).isInstance(array)) {
                    throw Diagnostics.inputWrongType(name, input, array, site);
                }
                int expected = paddedLength(sizes, input.halo());
                int actual = java.lang.reflect.Array.getLength(array);
                if (actual != expected) {
                    String shape = Arrays.stream(paddedExtents(sizes, input.halo())).mapToObj(String::valueOf)
                            .reduce((a, b) -> a + " x " + b).orElseThrow()
                            + (input.halo() == 0 ? "" : ", the domain padded by halo " + input.halo());
                    throw Diagnostics.inputWrongLength(name, input, expected, actual, shape, site);
                }
                if (input.storage() == Storage.BYTE) {
                    int[] values = (int[]) array;
                    for (int i = 0; i < values.length; i++) {
                        if (values[i] != (byte) values[i]) {
                            throw Diagnostics.inputNotByte(name, input, i, values[i], site);
                        }
                    }
                }
            }
            return new Invocation(kernel, sizes.clone(), params, inputs);
        }

        private static Class<?> boxedClass(Type type) {
            return switch (type) {
                case INT -> Integer.class;
                case LONG -> Long.class;
                case DOUBLE -> Double.class;
                case BOOL -> Boolean.class;
            };
        }

        private static Class<?> arrayClass(Type type) {
            return switch (type) {
                case INT -> int[].class;
                case LONG -> long[].class;
                case DOUBLE -> double[].class;
                case BOOL -> boolean[].class;
            };
        }
    }
}
