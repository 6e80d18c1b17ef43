package dev.finegrain.compiler.api;

import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.reference.SequentialOracle;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.resolve.VariantResolver;
import dev.finegrain.dsl.FieldSpec;
import dev.finegrain.dsl.Reduction;
import dev.finegrain.dsl.ReductionSpec;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.Type;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What one run of a kernel computed: each state field's values over the domain (no halo), row-major, so element
 * (i, j) of a 2D field is at {@code i * cols + j}. Ask for a field by its name and type: {@link #ints},
 * {@link #longs}, {@link #doubles} or {@link #booleans}; each returns a fresh copy. A field the kernel keeps in part
 * ({@code keep(field, Keep.LAST_ROW)}) gives the kept box alone, row-major over it (the bottom row: {@code cols}
 * values; {@code FINAL}: one). The kernel's reductions come by {@link #reduction} and {@link #position}.
 */
public final class KernelResult {

    private final Kernel kernel;
    private final KernelGraph graph;
    private final int[] sizes;
    private final KernelOutputs outputs;
    private final Duration elapsed;

    KernelResult(Kernel kernel, KernelGraph graph, int[] sizes, KernelOutputs outputs, Duration elapsed) {
        this.kernel = kernel;
        this.graph = graph;
        this.sizes = sizes.clone();
        this.outputs = outputs;
        this.elapsed = elapsed;
    }

    /**
     * The sequential oracle's result for the same invocation: one actor instance at a time in lexicographic order,
     * what every backend is checked against.
     */
    public static KernelResult oracle(Invocation invocation) {
        Kernel kernel = invocation.kernel();
        KernelGraph graph = new VariantResolver().graph(kernel);
        long started = System.nanoTime();
        KernelOutputs outputs = SequentialOracle.run(graph, invocation);
        return new KernelResult(kernel, graph, invocation.sizes(), outputs, Duration.ofNanos(System.nanoTime() - started));
    }

    public Kernel kernel() {
        return kernel;
    }

    /** How long the run took on its workers (the oracle: its whole run); preparing the state is not counted. */
    public Duration elapsed() {
        return elapsed;
    }

    /** @throws IllegalArgumentException when the kernel has no int state field of that name */
    public int[] ints(String field) {
        return ((int[]) values(field, Type.INT)).clone();
    }

    /** @throws IllegalArgumentException when the kernel has no long state field of that name */
    public long[] longs(String field) {
        return ((long[]) values(field, Type.LONG)).clone();
    }

    /** @throws IllegalArgumentException when the kernel has no double state field of that name */
    public double[] doubles(String field) {
        return ((double[]) values(field, Type.DOUBLE)).clone();
    }

    /** @throws IllegalArgumentException when the kernel has no bool state field of that name */
    public boolean[] booleans(String field) {
        int[] bits = (int[]) values(field, Type.BOOL);
        boolean[] values = new boolean[bits.length];
        for (int k = 0; k < bits.length; k++) {
            values[k] = bits[k] != 0;
        }
        return values;
    }

    /**
     * The value of the kernel's reduction {@code reduction} of {@code field} (an int field's value widened).
     *
     * @throws IllegalArgumentException when the kernel declares no such reduction
     */
    public long reduction(String field, Reduction reduction) {
        return reduced(field, reduction).value();
    }

    /**
     * The coordinates of the first point, in row-major order, where the extreme {@code reduction} of {@code field} is
     * reached.
     *
     * @throws IllegalArgumentException when the kernel declares no such reduction with its position
     */
    public int[] position(String field, Reduction reduction) {
        KernelOutputs.Reduced reduced = reduced(field, reduction);
        if (reduced.position().isEmpty()) {
            throw new IllegalArgumentException("kernel '" + kernel.name() + "' reduces " + reduction.of(field) + " without its position;"
                    + " declare it with reduceWithPosition(\"" + field + "\", " + reduction.name() + ")");
        }
        return reduced.position().stream().mapToInt(Integer::intValue).toArray();
    }

    private KernelOutputs.Reduced reduced(String field, Reduction reduction) {
        return outputs.reduction(reduction.of(field)).orElseThrow(() -> new IllegalArgumentException("kernel '" + kernel.name()
                + "' declares no reduction " + reduction.of(field) + " (reductions: " + String.join(", ",
                kernel.reductions().stream().map(ReductionSpec::name).toList()) + "); declare it with reduce(\"" + field + "\", "
                + reduction.name() + ")"));
    }

    /**
     * The first point where this result differs from {@code expected} (doubles compared bit for bit, except that every
     * NaN equals every NaN, whatever its sign and payload; +0.0 and -0.0 differ), as a sentence
     * such as {@code score[3, 4]: expected 12, got 11}; empty when they agree everywhere.
     */
    public Optional<String> firstDifference(KernelResult expected) {
        Objects.requireNonNull(expected, "expected");
        if (expected.kernel != kernel && !expected.kernel.name().equals(kernel.name())) {
            throw new IllegalArgumentException("results of kernels '" + expected.kernel.name() + "' and '" + kernel.name()
                    + "' cannot be compared");
        }
        return expected.outputs.firstDifference(graph, sizes, outputs);
    }

    private Object values(String field, Type type) {
        FieldSpec spec = kernel.field(field).filter(FieldSpec::isState).orElseThrow(() -> new IllegalArgumentException(
                "kernel '" + kernel.name() + "' has no state field '" + field + "' (state fields: " + String.join(", ",
                        kernel.fields().stream().filter(FieldSpec::isState).map(FieldSpec::name).toList()) + ")"));
        if (spec.type() != type) {
            throw new IllegalArgumentException("state field '" + field + "' of kernel '" + kernel.name() + "' is " + spec.type()
                    + ", not " + type + "; ask for it with " + accessor(spec.type()) + "(\"" + field + "\")");
        }
        return outputs.field(field);
    }

    private static String accessor(Type type) {
        return switch (type) {
            case INT -> "ints";
            case LONG -> "longs";
            case DOUBLE -> "doubles";
            case BOOL -> "booleans";
        };
    }
}
