package dev.finegrain.samples.bench;

import dev.finegrain.dsl.Invocation;
import dev.finegrain.samples.Sample02NeedlemanWunsch;
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
 * The baseline for {@link NeedlemanWunschBenchmark}: Rodinia's serial loop, written by hand over the same
 * (n+1) x (n+1) matrix the generated code uses (first row and column hold the boundary), so both touch the same
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
public class HandWrittenNeedlemanWunschBenchmark {

    @Param({"4096"})
    public int size;

    private Invocation invocation;
    private int[] reference;
    private int[] matrix;

    @Setup(Level.Trial)
    public void inputs() {
        invocation = Sample02NeedlemanWunsch.inputs(Sample02NeedlemanWunsch.definition(), new int[] {size, size}, 42);
        reference = (int[]) invocation.input("reference");
    }

    @Setup(Level.Invocation)
    public void freshMatrix() {
        int width = size + 1;
        matrix = new int[width * width];
        for (int k = 1; k <= size; k++) {
            matrix[k * width] = -k * Sample02NeedlemanWunsch.PENALTY;
            matrix[k] = -k * Sample02NeedlemanWunsch.PENALTY;
        }
    }

    @Benchmark
    public int[] needle() {
        return needle(matrix, reference, size);
    }

    /** Rodinia's loop over an (n+1) x (n+1) matrix whose first row and column hold the boundary. */
    private static int[] needle(int[] m, int[] ref, int n) {
        int width = n + 1;
        int penalty = Sample02NeedlemanWunsch.PENALTY;
        for (int i = 1; i <= n; i++) {
            int row = i * width;
            int above = row - width;
            int refRow = (i - 1) * n - 1;
            for (int j = 1; j <= n; j++) {
                m[row + j] = Math.max(Math.max(m[above + j - 1] + ref[refRow + j], m[above + j] - penalty), m[row + j - 1] - penalty);
            }
        }
        return m;
    }

    @TearDown(Level.Trial)
    public void verify() {
        BaselineCheck.verify(Sample02NeedlemanWunsch.definition(), invocation, "score", matrix, size + 1, 1);
    }
}
