package dev.finegrain.compiler.primitives;

import dev.finegrain.compiler.backend.gpu.primitive.MemoryBenchmark;
import dev.finegrain.compiler.backend.gpu.primitive.SyncPrimitive;

import java.util.List;

/** Where {@code finegrain primitives} measures: the GPU model under a profile, or the JVM's threads. */
public sealed interface PrimitiveBackend permits ModelPrimitives, JvmPrimitives {

    /** The backend as rows name it. */
    String name();

    /** The block (thread) counts measured when none are asked for: powers of two up to the machine's saturation. */
    List<Integer> defaultBlocks();

    /** Operations per block of a timed run when none are asked for: enough to time, little enough to run quickly. */
    int defaultOps();

    /** Operations per block of a checking run when none are asked for. */
    int defaultCheckOps();

    /** A primitive at one scale: a checking run, then the timed run. */
    PrimitiveRow run(SyncPrimitive primitive, int blocks, int initial, int ops, int checkOps);

    /** A memory benchmark at the machine's saturation, or empty where the backend has none. */
    List<PrimitiveRow> memory(List<MemoryBenchmark> benchmarks, int accesses);

    static PrimitiveBackend parse(String name) {
        if (name.equals("jvm")) {
            return new JvmPrimitives();
        }
        if (name.startsWith("gpu-model:")) {
            return new ModelPrimitives(name.substring("gpu-model:".length()));
        }
        throw new IllegalArgumentException("unknown backend '" + name + "' for primitives; use gpu-model:PROFILE or jvm"
                + " (CUDA: --export-cuda DIR, then --results FILE)");
    }
}
