package dev.finegrain.samples.bench;

import dev.finegrain.compiler.backend.jvm.JvmBackend;
import dev.finegrain.compiler.resolve.VariantResolver;
import dev.finegrain.compiler.resolve.VariantRequest;
import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.compiler.backend.jvm.CompiledJvmKernel;
import dev.finegrain.compiler.backend.reference.SequentialOracle;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;
import dev.finegrain.runtime.jvm.WorkerTeam;
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

import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * What every kernel benchmark shares: one generated variant, compiled once per trial, run on a reusable team.
 * Fresh state is prepared before each invocation (not timed), so each timed operation is one whole kernel run;
 * cells per second = domain points / (ms per op / 1000).
 *
 * <p>{@code variant} is {@code serial} (one tile covering the domain: the plain loop nest), a schedule
 * ({@code wavefront}, {@code data-parallel:B}), or {@code lock-dataflow/<mechanism>[/warp-shared]} (warp-shared:
 * one sync word per group of 32 instances instead of one per instance). What would make the numbers
 * wrong: an output nobody checks (the trial's last result is verified against the oracle in tear-down), or a JIT
 * that never warmed up (10 warm-up iterations of at least 1 s: the first runs of a class with lanes are interpreted and
 * take seconds each, and a path first taken later, such as a worker that waits, recompiles once more). The forks run
 * G1, as the launcher does: it starts the large arrays on heap regions, so the lock-dataflow strips' rows lie on cache
 * lines (docs/jvm-backend.md, "Aligned rows"). They ask for transparent huge pages, as the launcher does where Linux
 * lends them (docs/jvm-backend.md, "Huge pages"); the hand-written baselines run on them too. Where the OS has none,
 * the JVM warns (two lines) and runs on small pages.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 10, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xmx4g", "-XX:+UseG1GC", "-XX:+UseTransparentHugePages", "--add-modules", "jdk.incubator.vector"})
public abstract class KernelBenchmark {

    @Param({"1", "2"})
    public int threads;

    private CompiledJvmKernel compiled;
    private Invocation invocation;
    private WorkerTeam team;
    private CompiledJvmKernel.Runs runs;
    private CompiledJvmKernel.Prepared prepared;

    protected abstract Kernel kernel();

    protected abstract Invocation inputs(Kernel kernel);

    protected abstract String variant();

    @Setup(Level.Trial)
    public void compile() {
        Kernel kernel = variant().endsWith("/warp-shared") ? kernel().toBuilder().warpShared(32).build() : kernel();
        invocation = inputs(kernel);
        VariantRequest request = new VariantRequest(kernel, schedule(variant(), invocation.sizes()), new JvmBackend(),
                mechanism(variant()));
        compiled = CompiledJvmKernel.compile(new VariantResolver().resolve(request)
                .orElseThrow(skip -> new IllegalStateException(skip.message())));
        runs = compiled.runsOf(invocation);
        team = new WorkerTeam(variant().equals("serial") ? 1 : threads);
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
    public void verifyAndClose() {
        KernelOutputs oracle = SequentialOracle.run(compiled.variant().graph(), invocation);
        oracle.firstDifference(compiled.variant().graph(), invocation.sizes(), prepared.outputs()).ifPresent(difference -> {
            throw new IllegalStateException("benchmark result is not verified: " + difference);
        });
        team.close();
    }

    static Schedule schedule(String variant, int[] sizes) {
        if (variant.equals("serial")) {
            return new Schedule.DataParallel(java.util.Arrays.stream(sizes).boxed().toList());
        }
        String name = variant.contains("/") ? variant.substring(0, variant.indexOf('/')) : variant;
        return Schedule.parse(name).orElseThrow(() -> new IllegalArgumentException("unknown schedule in variant " + variant));
    }

    static Optional<LockMechanism> mechanism(String variant) {
        if (!variant.contains("/")) {
            return Optional.empty();
        }
        String name = variant.substring(variant.indexOf('/') + 1).replace("/warp-shared", "");
        return Optional.of(LockMechanism.fromCliName(name).orElseThrow(() -> new IllegalArgumentException("unknown mechanism " + name)));
    }
}
