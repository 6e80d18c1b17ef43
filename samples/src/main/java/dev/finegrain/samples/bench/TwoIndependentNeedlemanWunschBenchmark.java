package dev.finegrain.samples.bench;

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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * This machine's ceiling for a two-thread schedule of Needleman-Wunsch whose cells cost what Rodinia's loop body
 * costs: two threads each run the hand-written serial loop
 * ({@link HandWrittenNeedlemanWunschBenchmark#needle(int[], int[], int)}) on a matrix of their own, so there is no
 * synchronisation and no shared data to wait for, only two cores sharing one memory system.
 *
 * <p>Read it as: ms/op is one thread's time for a whole 4096 x 4096 matrix while the other thread does the same;
 * cells per second for the pair = 2 x 4096² / (ms/op / 1000). A schedule that splits one matrix over two threads
 * with the same loop body cannot be expected to beat it: it moves the same bytes per cell and adds hand-offs.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g", "-XX:+UseParallelGC"})
@Threads(2)
public class TwoIndependentNeedlemanWunschBenchmark {

    @Param({"4096"})
    public int size;

    private int[] reference;
    private int[] matrix;

    @Setup(Level.Trial)
    public void inputs() {
        reference = (int[]) Sample02NeedlemanWunsch.inputs(Sample02NeedlemanWunsch.definition(), new int[] {size, size}, 42)
                .input("reference");
    }

    @Setup(Level.Invocation)
    public void freshMatrix() {
        matrix = HandWrittenNeedlemanWunschBenchmark.freshMatrix(size);
    }

    @Benchmark
    public int[] needleOnEachThread() {
        return HandWrittenNeedlemanWunschBenchmark.needle(matrix, reference, size);
    }
}
