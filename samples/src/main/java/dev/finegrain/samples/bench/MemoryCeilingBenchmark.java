package dev.finegrain.samples.bench;

import dev.finegrain.runtime.jvm.WorkerTeam;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorSpecies;
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
 * The memory ceiling of the kernel benchmarks, in their own harness: a copy of {@code size}² ints into a fresh array,
 * split into one contiguous half per worker of a {@link WorkerTeam}, in whole vectors. Needleman-Wunsch and
 * Smith-Waterman read one int input and write one int of state per cell, so no variant of theirs can run faster than
 * this copy: its cells per second ({@code size² / (ms per op / 1000)}) are their bound at the moment it runs. Run it in
 * the same JMH command as the kernels (the machine's bandwidth drifts from one minute to the next). The forks run as
 * {@link KernelBenchmark}'s do (G1, huge pages), and each invocation gets a fresh destination, as each kernel run gets
 * fresh state. What would make it wrong: a copy the JIT removes (the destination is returned and checked in tear-down).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 6, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xmx4g", "-XX:+UseG1GC", "-XX:+UseTransparentHugePages", "--add-modules", "jdk.incubator.vector"})
public class MemoryCeilingBenchmark {

    private static final VectorSpecies<Integer> SPECIES = IntVector.SPECIES_PREFERRED;

    @Param({"4096"})
    public int size;

    @Param({"1", "2"})
    public int threads;

    private int[] source;
    private int[] destination;
    private WorkerTeam team;

    @Setup(Level.Trial)
    public void source() {
        source = new int[size * size];
        for (int i = 0; i < source.length; i++) {
            source[i] = i * 31 + 7;
        }
        team = new WorkerTeam(threads);
    }

    @Setup(Level.Invocation)
    public void freshDestination() {
        destination = new int[source.length];
    }

    @Benchmark
    public int[] copy() {
        int[] from = source;
        int[] to = destination;
        team.run((worker, workers) -> {
            int vectors = from.length / SPECIES.length();
            int first = (int) ((long) vectors * worker / workers) * SPECIES.length();
            int end = worker == workers - 1 ? from.length : (int) ((long) vectors * (worker + 1) / workers) * SPECIES.length();
            int i = first;
            for (; i <= end - SPECIES.length(); i += SPECIES.length()) {
                IntVector.fromArray(SPECIES, from, i).intoArray(to, i);
            }
            for (; i < end; i++) {
                to[i] = from[i];
            }
        });
        return to;
    }

    @TearDown(Level.Trial)
    public void verifyAndClose() {
        for (int i = 0; i < source.length; i++) {
            if (destination[i] != source[i]) {
                throw new IllegalStateException("copy is wrong at " + i + ": " + destination[i] + " against " + source[i]);
            }
        }
        team.close();
    }
}
