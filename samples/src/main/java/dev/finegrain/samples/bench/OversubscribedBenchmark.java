package dev.finegrain.samples.bench;

import static dev.finegrain.dsl.Finegrain.LONG;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.kernel;

import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.compiler.backend.jvm.CompiledJvmKernel;
import dev.finegrain.compiler.backend.jvm.JvmBackend;
import dev.finegrain.compiler.backend.reference.SequentialOracle;
import dev.finegrain.compiler.resolve.VariantRequest;
import dev.finegrain.compiler.resolve.VariantResolver;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.runtime.jvm.WorkerTeam;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
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

/**
 * The token waits on an oversubscribed machine: the 1D chain {@code prefix-hash} ({@code h[i] = 31 * h[i-1] + x[i]}
 * in longs, the kernel of examples/my-kernels' {@code LongScan}, defined here again because the samples do not
 * depend on that project) under lock-dataflow with the JVM's default mechanism (acquire-release), in two settings:
 * <ul>
 *   <li>{@code two-threads-beside-a-busy-thread}: a team of 2 workers while one more platform thread, started in
 *       set-up and stopped in tear-down, spins on a volatile flag, so the runnable threads outnumber 2 cores; this is
 *       what the waits' spin, yield, then park policy (the runtime's {@code WaitPolicy}) is for;</li>
 *   <li>{@code one-thread-alone}: a team of 1 worker and no competitor, <b>the baseline</b>: the chain is serial, so
 *       one thread that never waits is the speed any schedule of it can hope for.</li>
 * </ul>
 * The first should stay within a small factor of the second. Run with {@code java -cp
 * 'samples/target/finegrain-samples.jar:samples/target/lib/*' org.openjdk.jmh.Main Oversubscribed}; cells per second
 * = {@code size} / (ms per op / 1000).
 *
 * <p>What would make it wrong: a machine with more than 2 cores (the busy thread then takes a core the workers never
 * needed, and nothing is oversubscribed: pin the fork to 2 cores with {@code taskset -c 0,1}, or add competitors);
 * another load on the machine (it adds to the competitor, and hits both settings unequally); a competitor the JIT
 * could remove (it spins on a volatile read and counts, and the count is read in tear-down); an output nobody checks
 * (the last run's result is verified against the sequential oracle in tear-down); a JIT that never warmed up (5
 * warm-up iterations of 2 s, which on the oversubscribed setting are only a few dozen runs). The 2-thread chain
 * hands a token to the other worker every 32 cells (blocks of 32 dealt in turn), so it is bound by that handoff's
 * latency even on an idle machine; the baseline says how far the whole cost of threads, not only of waiting, is.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = {"-Xmx4g", "-XX:+UseG1GC", "--add-modules", "jdk.incubator.vector"})
public class OversubscribedBenchmark {

    /** The two settings; see the class comment. */
    @Param({"two-threads-beside-a-busy-thread", "one-thread-alone"})
    public String setting;

    /** Cells in the chain. */
    @Param({"65536"})
    public int size;

    private CompiledJvmKernel compiled;
    private Invocation invocation;
    private WorkerTeam team;
    private CompiledJvmKernel.Runs runs;
    private CompiledJvmKernel.Prepared prepared;
    private Thread competitor;
    private volatile boolean competing;
    private long competitorSpins;

    /** The chain of examples/my-kernels' LongScan: each element waits for the one before it. */
    static Kernel prefixHash() {
        return kernel("prefix-hash")
                .domain(dim("i", "n"))
                .input("x", LONG)
                .state("h", LONG, boundary(constant(7)))
                .actor("step", "h", a -> a.read("h", -1).times(31).plus(a.read("x", 0)))
                .build();
    }

    @Setup(Level.Trial)
    public void compileAndCompete() {
        Kernel kernel = prefixHash();
        invocation = kernel.invocation().sizes(size)
                .input("x", new Random(42).longs(size, 0, 1L << 40).toArray()).build();
        VariantRequest request = new VariantRequest(kernel, KernelBenchmark.schedule("lock-dataflow", invocation.sizes()),
                new JvmBackend(), Optional.empty());
        compiled = CompiledJvmKernel.compile(new VariantResolver().resolve(request)
                .orElseThrow(skip -> new IllegalStateException(skip.message())));
        runs = compiled.runsOf(invocation);
        boolean oversubscribed = switch (setting) {
            case "two-threads-beside-a-busy-thread" -> true;
            case "one-thread-alone" -> false;
            default -> throw new IllegalArgumentException("unknown setting " + setting);
        };
        team = new WorkerTeam(oversubscribed ? 2 : 1);
        if (oversubscribed) {
            competing = true;
            competitor = new Thread(this::compete, "busy-competitor");
            competitor.setDaemon(true);
            competitor.start();
        }
    }

    /** The busy thread: spins on a volatile flag, counting, until tear-down clears it. */
    private void compete() {
        long spins = 0;
        while (competing) {
            spins++;
        }
        competitorSpins = spins;
    }

    @Setup(Level.Invocation)
    public void freshState() {
        prepared = runs.prepare(team.size(), RunSettings.DEFAULT_STALL_TIMEOUT_NANOS);
    }

    @Benchmark
    public void run() {
        prepared.runOn(team);
    }

    @TearDown(Level.Trial)
    public void stopVerifyAndClose() throws InterruptedException {
        if (competitor != null) {
            competing = false;
            competitor.join();
            if (competitorSpins == 0) {
                throw new IllegalStateException("the busy competitor never ran");
            }
        }
        KernelOutputs oracle = SequentialOracle.run(compiled.variant().graph(), invocation);
        oracle.firstDifference(compiled.variant().graph(), invocation.sizes(), prepared.outputs()).ifPresent(difference -> {
            throw new IllegalStateException("benchmark result is not verified: " + difference);
        });
        team.close();
    }
}
