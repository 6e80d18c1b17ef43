package dev.finegrain.samples.bench;

import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.Storage;
import dev.finegrain.samples.Sample02NeedlemanWunsch;
import org.openjdk.jmh.annotations.Param;

/**
 * Needleman-Wunsch at 4096 x 4096: the generated code under each schedule and mechanism,
 * on 1 and 2 threads, with the reference declared as ints or ({@code -p reference=byte}) as bytes. The baseline is
 * {@link HandWrittenNeedlemanWunschBenchmark}. Run with
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

    /** How the reference is declared: {@code natural} (ints, 8 bytes a cell moved) or {@code byte} (5 bytes a cell). */
    @Param({"natural"})
    public String reference;

    @Override
    protected Kernel kernel() {
        return Sample02NeedlemanWunsch.definition(Storage.valueOf(reference.toUpperCase(java.util.Locale.ROOT)));
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
