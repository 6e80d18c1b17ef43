package dev.finegrain.samples.bench;

import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.samples.Sample05EfficiencyLoop;
import org.openjdk.jmh.annotations.Param;

/**
 * Seed 003's efficiency loop at 2^18 links: the break-even point is the smallest {@code work} at which a
 * 2-thread lock-dataflow beats the serial loop.
 */
public class EfficiencyLoopBenchmark extends KernelBenchmark {

    @Param({"262144"})
    public int size;

    @Param({"1", "8", "32", "128"})
    public int work;

    @Param({"serial", "lock-dataflow/acquire-release", "lock-dataflow/blocking"})
    public String variant;

    @Override
    protected Kernel kernel() {
        return Sample05EfficiencyLoop.definition();
    }

    @Override
    protected Invocation inputs(Kernel kernel) {
        return Sample05EfficiencyLoop.inputs(kernel, new int[] {size}, 42, work);
    }

    @Override
    protected String variant() {
        return variant;
    }
}
