package dev.finegrain.samples.bench;

import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.samples.Sample02NeedlemanWunsch;
import org.openjdk.jmh.annotations.Param;

/**
 * Needleman-Wunsch at 4096 x 4096: the generated code under each schedule and mechanism,
 * on 1 and 2 threads. The baseline is {@link HandWrittenNeedlemanWunschBenchmark}. Run with
 * {@code java -cp 'samples/target/finegrain-samples.jar:samples/target/lib/*' org.openjdk.jmh.Main NeedlemanWunsch}.
 */
public class NeedlemanWunschBenchmark extends KernelBenchmark {

    @Param({"4096"})
    public int size;

    @Param({"serial", "wavefront", "data-parallel:64", "data-parallel:256", "lock-dataflow/acquire-release",
            "lock-dataflow/acquire-release/warp-shared", "lock-dataflow/tiny-lock", "lock-dataflow/atomic-spin-lock",
            "lock-dataflow/atomic-spin-lock/warp-shared", "lock-dataflow/shared-spin-lock", "lock-dataflow/blocking",
            "lock-dataflow/blocking/warp-shared"})
    public String variant;

    @Override
    protected Kernel kernel() {
        return Sample02NeedlemanWunsch.definition();
    }

    @Override
    protected Invocation inputs(Kernel kernel) {
        return Sample02NeedlemanWunsch.inputs(kernel, new int[] {size, size}, 42);
    }

    @Override
    protected String variant() {
        return variant;
    }
}
