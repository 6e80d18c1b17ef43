package dev.finegrain.samples.bench;

import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.Storage;
import dev.finegrain.samples.Sample03SmithWaterman;
import org.openjdk.jmh.annotations.Param;

/**
 * smith-waterman at 4096 x 4096: the generated code under each schedule and mechanism, on 1 and 2 threads; the baseline is
 * {@link HandWrittenSmithWatermanBenchmark}. Run with
 * {@code java -cp 'samples/target/finegrain-samples.jar:samples/target/lib/*' org.openjdk.jmh.Main 'SmithWatermanBenchmark'}.
 */
public class SmithWatermanBenchmark extends KernelBenchmark {

    @Param({"4096"})
    public int size;

    @Param({"serial", "wavefront", "data-parallel:16", "lock-dataflow/acquire-release", "lock-dataflow/blocking"})
    public String variant;

    /** How the similarity is declared: {@code natural} (ints, 8 bytes a cell moved) or {@code byte} (5 bytes a cell). */
    @Param({"natural"})
    public String similarity;

    @Override
    protected Kernel kernel() {
        return Sample03SmithWaterman.definition(Storage.valueOf(similarity.toUpperCase(java.util.Locale.ROOT)));
    }

    @Override
    protected Invocation inputs(Kernel kernel) {
        return Sample03SmithWaterman.inputs(kernel, new int[] {size, size}, 42);
    }

    @Override
    protected String variant() {
        return variant;
    }
}
