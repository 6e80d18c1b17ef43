package dev.finegrain.samples.bench;

import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.reference.SequentialOracle;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.resolve.VariantResolver;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;

import java.util.Map;

/**
 * Checks a hand-written baseline's last result against the sequential oracle, as {@link KernelBenchmark} checks the
 * generated code: a baseline that computed something else would make every "as fast as the hand-written loop"
 * verdict meaningless. Each baseline keeps its matrix in its own padded layout; this reads the interior out of it.
 */
final class BaselineCheck {

    private BaselineCheck() {}

    /**
     * @param matrix the baseline's int[] or double[] over a 2D domain, row-major, {@code width} elements per row, with
     *               the domain's point (i, j) at row {@code i + offset}, column {@code j + offset}
     * @throws IllegalStateException naming the first point where the baseline differs from the oracle
     */
    static void verify(Kernel kernel, Invocation invocation, String field, Object matrix, int width, int offset) {
        int rows = invocation.sizes()[0];
        int cols = invocation.sizes()[1];
        Object interior = switch (matrix) {
            case int[] ints -> {
                int[] out = new int[rows * cols];
                for (int i = 0; i < rows; i++) {
                    System.arraycopy(ints, (i + offset) * width + offset, out, i * cols, cols);
                }
                yield out;
            }
            case double[] doubles -> {
                double[] out = new double[rows * cols];
                for (int i = 0; i < rows; i++) {
                    System.arraycopy(doubles, (i + offset) * width + offset, out, i * cols, cols);
                }
                yield out;
            }
            default -> throw new IllegalArgumentException("not an int[] or double[] matrix: " + matrix.getClass());
        };
        KernelGraph graph = new VariantResolver().graph(kernel);
        SequentialOracle.run(graph, invocation)
                .firstDifference(graph, invocation.sizes(), new KernelOutputs(Map.of(field, interior)))
                .ifPresent(difference -> {
                    throw new IllegalStateException("the hand-written baseline differs from the oracle: " + difference);
                });
    }
}
