package dev.finegrain.dsl;

import dev.finegrain.dsl.internal.Diagnostics;
import dev.finegrain.dsl.internal.SequenceDiagnostics;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One run's data for a kernel: the domain sizes, every param's value and every input array (a lookup table is given as
 * an input, by its name, row-major; a sequence input holds one value per point of the dimensions it spans). Input arrays are
 * row-major over the domain padded by the input's halo on every side, so element (p0, p1) of a 2D input with
 * halo h sits at {@code (p0 + h) * (size1 + 2h) + (p1 + h)}. {@link Builder#build()} checks everything before
 * any backend runs, so a backend never starts on a missing param or a short array.
 */
public final class Invocation {

    private final Kernel kernel;
    private final int[] sizes;
    private final Map<String, Object> params;
    private final Map<String, Object> inputs;
    /** Where the invocation was built ({@code kernel.invocation()}); its messages point here. */
    private final CallSite site;

    private Invocation(Kernel kernel, int[] sizes, Map<String, Object> params, Map<String, Object> inputs, CallSite site) {
        this.kernel = kernel;
        this.sizes = sizes;
        this.site = site;
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

    /**
     * The same sizes and inputs with these params' values replaced, checked as {@link Builder#build()} checks them: a
     * sweep over a param (seed 003's amount of work per link) runs one kernel's inputs at several values.
     *
     * @throws KernelDefinitionException naming a param the kernel does not declare, or a value of the wrong type
     */
    public Invocation withParams(Map<String, Object> values) {
        Builder builder = new Builder(kernel, site).sizes(sizes);
        params.forEach(builder::param);
        values.forEach(builder::param);
        inputs.forEach(builder::input);
        return builder.build();
    }

    /**
     * An int[], long[] or double[], by the input's declared type. The array is shared, not copied: see
     * {@link #checkStorage()} for what a backend re-checks when it reads the values.
     */
    public Object input(String name) { return inputs.get(name); }

    /**
     * Checks again, now, the values of every input declared with a narrower {@link Storage} ({@link Storage#BYTE}: each
     * value in -128 to 127), refusing with the message {@link Builder#build()} gives. The arrays are shared with the
     * caller, who may have written them since {@code build()}; a backend that keeps such an input narrowed (the jvm
     * backend's {@code byte[]}) calls this where it reads the values into a run's storage, so that a value that no
     * longer fits is refused there instead of wrapping.
     *
     * @throws KernelDefinitionException naming the input, the element and the value that does not fit
     */
    public void checkStorage() {
        for (FieldSpec input : kernel.fields()) {
            if (input.isInput() && input.storage() == Storage.BYTE) {
                checkFitsByte(kernel.name(), input, (int[]) inputs.get(input.name()), spannedSizes(kernel, input, sizes), site);
            }
        }
    }

    private static void checkFitsByte(String kernel, FieldSpec input, int[] values, int[] spanned, CallSite site) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] != (byte) values[i]) {
                throw Diagnostics.inputNotByte(kernel, input, i, pointOf(i, spanned, input.halo()), values[i], site);
            }
        }
    }

    /** The point of element {@code element} of an array padded by {@code halo} on every side: halo points lie below 0 or at the size and beyond. */
    static int[] pointOf(int element, int[] sizes, int halo) {
        int[] point = new int[sizes.length];
        int rest = element;
        for (int d = sizes.length - 1; d >= 0; d--) {
            int extent = sizes[d] + 2 * halo;
            point[d] = rest % extent - halo;
            rest /= extent;
        }
        return point;
    }

    /** The sizes of the dimensions {@code field} spans, in domain order: all of {@code sizes} but for a sequence input. */
    public static int[] spannedSizes(Kernel kernel, FieldSpec field, int[] sizes) {
        List<String> spanned = field.spannedIndices(kernel.domain());
        return java.util.stream.IntStream.range(0, sizes.length)
                .filter(d -> spanned.contains(kernel.domain().get(d).index())).map(d -> sizes[d]).toArray();
    }

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
            List<String> inputNames = java.util.stream.Stream.concat(inputFields.stream().map(FieldSpec::name),
                    kernel.tables().stream().map(TableSpec::name)).toList();
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
                int[] spanned = spannedSizes(kernel, input, sizes);
                String shape = Arrays.stream(spanned).mapToLong(n -> n + 2L * input.halo()).mapToObj(String::valueOf)
                        .reduce((a, b) -> a + " x " + b).orElseThrow()
                        + (input.halo() == 0 ? "" : ", the domain padded by halo " + input.halo())
                        + (input.isSequence() ? ", along " + String.join(", ", input.along()) : "");
                long cells = Arrays.stream(spanned).mapToLong(n -> n + 2L * input.halo()).reduce(1, (a, b) ->
                        a > Integer.MAX_VALUE || b > Integer.MAX_VALUE ? Long.MAX_VALUE : Math.min(Long.MAX_VALUE / 4, a * b));
                if (cells > Integer.MAX_VALUE) {
                    throw Diagnostics.inputTooLarge(name, input, shape, site);
                }
                int expected = paddedLength(spanned, input.halo());
                int actual = java.lang.reflect.Array.getLength(array);
                if (actual != expected) {
                    throw Diagnostics.inputWrongLength(name, input, expected, actual, shape, site);
                }
                if (input.storage() == Storage.BYTE) {
                    checkFitsByte(name, input, (int[]) array, spanned, site);
                }
            }
            for (TableSpec table : kernel.tables()) {
                Object array = inputs.get(table.name());
                if (array == null) {
                    throw SequenceDiagnostics.tableMissing(name, table, site);
                }
                if (!arrayClass(table.type()).isInstance(array)) {
                    throw SequenceDiagnostics.tableWrongType(name, table, array, site);
                }
                if (java.lang.reflect.Array.getLength(array) != table.length()) {
                    throw SequenceDiagnostics.tableWrongLength(name, table, java.lang.reflect.Array.getLength(array), site);
                }
            }
            return new Invocation(kernel, sizes.clone(), params, inputs, site);
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
