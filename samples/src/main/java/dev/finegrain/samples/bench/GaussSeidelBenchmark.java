package dev.finegrain.samples.bench;

import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.samples.Sample06GaussSeidel;
import org.openjdk.jmh.annotations.Param;

/**
 * gauss-seidel-2d at 4096 x 4096: the generated code under each schedule and mechanism, on 1 and 2 threads; the baseline is
 * {@link HandWrittenGaussSeidelBenchmark}. Run with
 * {@code java -cp 'samples/target/finegrain-samples.jar:samples/target/lib/*' org.openjdk.jmh.Main 'GaussSeidelBenchmark'}.
 */
public class GaussSeidelBenchmark extends KernelBenchmark {

    @Param({"4096"})
    public int size;

    @Param({"serial", "wavefront", "data-parallel:16", "lock-dataflow/acquire-release", "lock-dataflow/blocking"})
    public String variant;

    @Override
    protected Kernel kernel() {
        return Sample06GaussSeidel.definition();
    }

    @Override
    protected Invocation inputs(Kernel kernel) {
        return Sample06GaussSeidel.inputs(kernel, new int[] {size, size}, 42);
    }

    @Override
    protected String variant() {
        return variant;
    }
}
