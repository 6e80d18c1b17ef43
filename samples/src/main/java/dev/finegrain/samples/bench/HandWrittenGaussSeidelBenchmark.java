package dev.finegrain.samples.bench;

import dev.finegrain.dsl.Invocation;
import dev.finegrain.samples.Sample06GaussSeidel;
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
 * The baseline for {@link GaussSeidelBenchmark}: one in-place Gauss-Seidel sweep, written by hand over the padded
 * (n+2) x (n+2) grid, the way one would without Finegrain: the new north and west values and the old south and east
 * ones all come from one array. (The generated code reads the old values from the input grid and writes a state
 * field, so it moves one more array.) A fresh copy of the grid is made, untimed, for each invocation, and the last
 * result is checked against the oracle in tear-down (the same sums in the same order, so bit for bit).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xmx4g", "-XX:+UseParallelGC", "-XX:+UseTransparentHugePages"})
public class HandWrittenGaussSeidelBenchmark {

    @Param({"4096"})
    public int size;

    private Invocation invocation;
    private double[] grid;
    private double[] u;

    @Setup(Level.Trial)
    public void inputs() {
        invocation = Sample06GaussSeidel.inputs(Sample06GaussSeidel.definition(), new int[] {size, size}, 42);
        grid = (double[]) invocation.input("grid");
    }

    @Setup(Level.Invocation)
    public void freshGrid() {
        u = grid.clone();
    }

    @Benchmark
    public double[] sweep() {
        int width = size + 2;
        double[] g = u;
        for (int i = 1; i <= size; i++) {
            int row = i * width;
            for (int j = 1; j <= size; j++) {
                g[row + j] = (g[row - width + j] + g[row + j - 1] + g[row + width + j] + g[row + j + 1]) * 0.25;
            }
        }
        return g;
    }

    @TearDown(Level.Trial)
    public void verify() {
        BaselineCheck.verify(Sample06GaussSeidel.definition(), invocation, "u", u, size + 2, 1);
    }
}
