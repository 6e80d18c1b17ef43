package dev.finegrain.samples.bench;

import dev.finegrain.gpu.SimRequest;
import dev.finegrain.gpu.SimResult;
import dev.finegrain.gpu.SimStatus;
import dev.finegrain.gpu.SimtSimulator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The GPU model's speed: seed 001's validation kernel (Listing 13, 16 warps) and a 32x32 Needleman-Wunsch tile
 * (Listing 15, 1024 threads) on {@code blocks} blocks of the Fermi GTX 570 profile. Simulated thread-instructions
 * per second = the thread-instructions of one run (printed in set-up) / (ms per op / 1000). Run from the repository
 * root, once as is (interpreter) and once with the launcher's Graal flags in {@code -jvmArgsAppend} (JIT); the
 * commands are in docs/performance.md. The warm-up is long (10 x 2 s) because with the JIT it is Graal compiling
 * every instruction's call target: on two cores that takes most of 6 s, and a shorter warm-up measures the
 * compiler, not the simulator.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 10, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SimtBenchmark {

    @Param({"listing13-validation:512", "listing15-needleman-wunsch:1024"})
    public String program;

    @Param({"30"})
    public int blocks;

    private SimRequest request;

    @Setup
    public void parse() {
        String name = program.substring(0, program.indexOf(':'));
        int threads = Integer.parseInt(program.substring(program.indexOf(':') + 1));
        request = SimRequest.builder(Path.of("runtime/gpu/src/test/resources/dev/finegrain/gpu/corpus", name + ".sass"))
                .profile("fermi-gtx570").blocks(blocks).threads(threads).build();
        SimResult result = SimtSimulator.run(request);
        if (result.status() != SimStatus.COMPLETED) {
            throw new IllegalStateException(program + " did not complete: " + result.status());
        }
        System.out.println("thread-instructions per op: " + result.counters().get("threadInstructions")
                + " (jit " + SimtSimulator.isJitAvailable() + ")");
    }

    @Benchmark
    public SimResult simulate() {
        return SimtSimulator.run(request);
    }
}
