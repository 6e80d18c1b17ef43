package dev.finegrain.samples.bench;

import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.samples.Sample01Chain;
import org.openjdk.jmh.annotations.Param;

/** Seed 001's chain (distance 32) at 2^20 elements with {@code work} rounds of independent hashing per link. */
public class ChainBenchmark extends KernelBenchmark {

    @Param({"1048576"})
    public int size;

    @Param({"0", "16"})
    public int work;

    @Param({"serial", "wavefront", "lock-dataflow/acquire-release", "lock-dataflow/tiny-lock", "lock-dataflow/blocking"})
    public String variant;

    @Override
    protected Kernel kernel() {
        return Sample01Chain.definition();
    }

    @Override
    protected Invocation inputs(Kernel kernel) {
        return kernel.invocation().sizes(size).param("work", work).build();
    }

    @Override
    protected String variant() {
        return variant;
    }
}
