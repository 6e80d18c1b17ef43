package dev.finegrain.samples.bench;

import dev.finegrain.dsl.Invocation;
import dev.finegrain.samples.Sample03SmithWaterman;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * The baseline for {@link SmithWatermanBenchmark}: the textbook Smith-Waterman loop, written by hand over the same
 * (n+1) x (n+1) matrix the generated code uses (first row and column hold the boundary 0), so both touch the same
 * memory. What would make it wrong: a loop the JIT removes (the matrix is returned), a matrix reused across invocations
 * (a fresh one is made, untimed, for each), or a loop that computes something else (the last result is checked
 * against the oracle in tear-down).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xmx4g", "-XX:+UseParallelGC", "-XX:+UseTransparentHugePages"})
public class HandWrittenSmithWatermanBenchmark {

    @Param({"4096"})
    public int size;

    private Invocation invocation;
    private int[] similarity;
    private int[] matrix;

    @Setup(Level.Trial)
    public void inputs() {
        invocation = Sample03SmithWaterman.inputs(Sample03SmithWaterman.definition(), new int[] {size, size}, 42);
        similarity = (int[]) invocation.input("similarity");
    }

    @Setup(Level.Invocation)
    public void freshMatrix() {
        matrix = new int[(size + 1) * (size + 1)];
    }

    @Benchmark
    public int[] smithWaterman() {
        int width = size + 1;
        int gap = Sample03SmithWaterman.GAP;
        int[] h = matrix;
        for (int i = 1; i <= size; i++) {
            int row = i * width;
            int above = row - width;
            int similarityRow = (i - 1) * size - 1;
            for (int j = 1; j <= size; j++) {
                h[row + j] = Math.max(Math.max(0, h[above + j - 1] + similarity[similarityRow + j]),
                        Math.max(h[above + j] - gap, h[row + j - 1] - gap));
            }
        }
        return h;
    }

    @TearDown(Level.Trial)
    public void verify() {
        BaselineCheck.verify(Sample03SmithWaterman.definition(), invocation, "h", matrix, size + 1, 1);
    }
}
