package dev.finegrain.compiler.backend.jvm;

import dev.finegrain.compiler.backend.Backend;
import dev.finegrain.compiler.backend.BackendRun;
import dev.finegrain.compiler.backend.MemoryBound;
import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.jvm.code.AsmEmitter;
import dev.finegrain.compiler.backend.jvm.code.JClass;
import dev.finegrain.compiler.backend.jvm.generated.GeneratedKernels;
import dev.finegrain.compiler.backend.jvm.layout.SyncLayout;
import dev.finegrain.compiler.backend.jvm.layout.VectorWidth;
import dev.finegrain.compiler.plan.DataflowPlan;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.compiler.plan.RingFolding;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;
import dev.finegrain.runtime.jvm.WorkerTeam;

import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Backend {@code jvm}: each variant becomes one class generated with ASM and defined as a hidden class; it runs
 * on a reusable {@link WorkerTeam}. With {@code measure}, it warms up, then reports the median of several timed
 * runs as {@code cells_per_s} (actor instances per second); only the team's run is timed, not the allocation of
 * fresh state and sync words before each run.
 */
public final class JvmBackend implements Backend {

    /** The mechanism a single run uses when neither the caller, the schedule nor the kernel names one. */
    public static final LockMechanism DEFAULT_MECHANISM = LockMechanism.ACQUIRE_RELEASE_FLAG;
    private static final List<LockMechanism> SWEEP = List.of(LockMechanism.ACQUIRE_RELEASE_FLAG, LockMechanism.TINY_LOCK,
            LockMechanism.ATOMIC_SPIN_LOCK, LockMechanism.SHARED_SPIN_LOCK, LockMechanism.BLOCKING, LockMechanism.LOCK_BOX,
            LockMechanism.SPSC_RING);
    /** Warm-up takes at least this many runs and this long. */
    private static final int WARMUP_RUNS = 10;
    private static final long WARMUP_NANOS = 300_000_000L;
    /**
     * Then it goes on to this many runs: a run method whose loops are short (a small domain) reaches HotSpot's C1 and C2
     * by its count of invocations (C2 needs at least 600), and until C2 compiles it the lanes' vector operations run as
     * calls on objects, milliseconds a run.
     */
    private static final int COMPILED_RUNS = 1000;
    /**
     * Or, a large domain's, to this long and this many runs: its loops compile on stack within the first runs, but C2
     * takes seconds over a large run method (about 3.6 s for the wavefront's on a 2-core machine, one core running the
     * kernel), and until then its runs are interpreted or C1's, steady but slow; so a row stops after runs of C2's code.
     */
    private static final long SETTLE_NANOS = 2_000_000_000L;
    private static final int SETTLE_RUNS = 30;
    /** And no longer than this, for runs too slow to reach {@link #SETTLE_RUNS} soon. */
    private static final long MAX_WARMUP_NANOS = 10_000_000_000L;

    /** What a plan's class is generated for besides the plan: the mechanism, and whether tiles may be cut short. */
    private record ClassKey(Optional<LockMechanism> mechanism, boolean raggedTiles) {}

    private final Map<ExecutionPlan, Map<ClassKey, Class<?>>> classes = new WeakHashMap<>();
    private final Optional<VectorWidth> width;

    /** Classes with lanes as wide as this JVM's preferred vectors ({@link VectorWidth#preferred()}). */
    public JvmBackend() {
        this.width = Optional.empty();
    }

    /** Classes with lanes of the given width (tests use narrow ones, so that small domains hold whole strips). */
    public JvmBackend(VectorWidth width) {
        this.width = Optional.of(width);
    }
    /**
     * One team per thread count, shared by every backend of the JVM: a team's daemon threads live until the JVM
     * ends, so a team per backend instance would leak threads with each new backend.
     */
    private static final Map<Integer, WorkerTeam> TEAMS = new ConcurrentHashMap<>();

    /** The JVM's shared team of {@code threads} workers, started when first asked for. */
    public static WorkerTeam team(int threads) {
        return TEAMS.computeIfAbsent(threads, WorkerTeam::new);
    }

    @Override
    public String name() {
        return "jvm";
    }

    @Override
    public boolean modelsSyncAbstractly() {
        return false;
    }

    @Override
    public List<LockMechanism> sweep() {
        return SWEEP;
    }

    @Override
    public Optional<LockMechanism> preferredMechanism() {
        return Optional.of(DEFAULT_MECHANISM);
    }

    /**
     * Lock-dataflow under spsc-ring on a 2D domain folds every state field into rings of rows where the kernel keeps none
     * whole ({@link RingFolding}): with the sequences that {@link dev.finegrain.compiler.backend.DomainLimits} asks of
     * inputs at such a size, no array over the domain, its points numbered by longs where it names them.
     */
    @Override
    public boolean foldsEveryField(Variant variant, int[] sizes) {
        return variant.plan() instanceof DataflowPlan dataflow && dataflow.graph().rank() == 2
                && variant.mechanism().equals(Optional.of(LockMechanism.SPSC_RING))
                && RingFolding.of(dataflow).rings().map(rings -> !rings.folded().isEmpty() && rings.keptWhole().isEmpty()).orElse(false);
    }

    @Override
    public boolean usesThreads() {
        return true;
    }

    @Override
    public boolean timesRealHardware() {
        return true;
    }

    /** Its wavefront's workers are one team of threads for the whole run: a cooperative launch or a relaunch is a GPU's. */
    @Override
    public Optional<String> neverRuns(Schedule schedule) {
        return schedule instanceof Schedule.Wavefront wavefront && wavefront.barrier().filter(b -> !b.onThreads()).isPresent()
                ? Optional.of("its wavefront's workers are one team of threads for the whole run; the "
                + wavefront.barrier().get() + " barrier is a GPU launch's (use atomic, xf, dissemination, or none for its"
                + " sense-reversing barrier)")
                : Optional.empty();
    }

    /**
     * Its lock-dataflow workers own bands of columns for the whole run already; persistence would repeat that row. Its
     * sense-reversing barrier backs off by spinning, then parking, whatever the policy says.
     */
    @Override
    public Optional<String> repeatsAnotherRow(Schedule schedule) {
        if (schedule instanceof Schedule.Wavefront wavefront && wavefront.barrier().isEmpty()
                && wavefront.waitPolicy().filter(p -> p == dev.finegrain.dsl.WaitPolicy.BACKOFF).isPresent()) {
            return Optional.of("its sense-reversing barrier spins, then parks, under both: wait policy backoff repeats"
                    + " adaptive (name the atomic or xf barrier to back off between polls)");
        }
        return schedule instanceof Schedule.LockDataflow dataflow && dataflow.persistentLaunch()
                ? Optional.of("its lock-dataflow is persistent already: workers own bands of columns for the whole run")
                : Optional.empty();
    }

    @Override
    public Optional<String> unsupported(ExecutionPlan plan, LockMechanism mechanism) {
        if (!(plan instanceof DataflowPlan dataflow)) {
            return Optional.of(plan.schedule().cliName() + " synchronises with barriers only");
        }
        return SyncLayout.unsupported(dataflow, mechanism);
    }

    /**
     * Sizes that tiles do not divide run with the tiles at the high edges cut short, in a class of their own whose short
     * tiles run scalar loops beside whole tiles in their form; sizes they divide keep the class for whole tiles.
     */
    @Override
    public boolean takesRaggedTiles() {
        return true;
    }

    @Override
    public BackendRun run(Variant variant, Invocation invocation, RunSettings settings) {
        boolean ragged = JvmCodegen.tilesCutShort(variant.plan(), invocation.sizes());
        return measure(new CompiledJvmKernel(variant, generatedClass(variant.plan(), variant.mechanism(), ragged)), invocation, settings);
    }

    /** Runs a kernel class with the generated constructor signature; the tests use it for classes compiled from source. */
    BackendRun runWith(Class<?> kernelClass, Variant variant, Invocation invocation, RunSettings settings) {
        return measure(new CompiledJvmKernel(variant, kernelClass), invocation, settings);
    }

    private BackendRun measure(CompiledJvmKernel compiled, Invocation invocation, RunSettings settings) {
        WorkerTeam team = team(settings.threads());
        CompiledJvmKernel.Runs kernel = compiled.runsOf(invocation);
        if (settings.measure()) {
            long warmupStart = System.nanoTime();
            for (int warm = 0; ; warm++) {
                long elapsed = System.nanoTime() - warmupStart;
                if (warmedUp(warm, elapsed)) {
                    break;
                }
                kernel.prepare(team.size(), settings.stallTimeoutNanos()).runOn(team);
            }
        }
        long[] timings = new long[settings.runsToTime()];
        CompiledJvmKernel.Prepared last = null;
        for (int timed = 0; timed < timings.length; timed++) {
            last = kernel.prepare(team.size(), settings.stallTimeoutNanos());
            long start = System.nanoTime();
            last.runOn(team);
            timings[timed] = System.nanoTime() - start;
        }
        Arrays.sort(timings);
        double medianSeconds = timings[timings.length / 2] / 1e9;
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("threads", team.size());
        details.put("median_ms", Math.round(medianSeconds * 1e6) / 1e3);
        // the spread of the timed runs: the report calls a difference inside it a tie
        details.put("min_ms", Math.round(timings[0] / 1e3) / 1e3);
        details.put("max_ms", Math.round(timings[timings.length - 1] / 1e3) / 1e3);
        if (timings.length >= 4) {
            // the spread of the timed runs, for a search that must tell a win from noise (finegrain crossover)
            details.put("q1_ms", Math.round(timings[timings.length / 4] / 1e3) / 1e3);
            details.put("q3_ms", Math.round(timings[timings.length * 3 / 4] / 1e3) / 1e3);
        }
        details.put("timed_runs", timings.length);
        double cellsPerSecond = invocation.points() / medianSeconds;
        long bytesPerPoint = compiled.bytesPerPoint();
        if (settings.measure() && bytesPerPoint > 0) {
            // the roofline's memory bound: this run's least traffic against the team's copy bandwidth (none where every
            // field is a sequence or folded into a ring, whose rows stay in cache)
            details.putAll(new MemoryBound(bytesPerPoint, CopyBandwidth.of(team, bytesPerPoint * invocation.points()))
                    .details(cellsPerSecond));
        }
        return new BackendRun(last.outputs(), "cells_per_s", cellsPerSecond, "cells/s", details, Optional.empty());
    }

    /** Whether a warm-up of {@code runs} runs over {@code elapsedNanos} is done (see {@link #COMPILED_RUNS} and {@link #SETTLE_NANOS}). */
    static boolean warmedUp(int runs, long elapsedNanos) {
        if (runs < WARMUP_RUNS || elapsedNanos < WARMUP_NANOS) {
            return false;
        }
        return runs >= COMPILED_RUNS || (elapsedNanos >= SETTLE_NANOS && runs >= SETTLE_RUNS) || elapsedNanos >= MAX_WARMUP_NANOS;
    }

    /** Classes are cached per plan object (weakly, so a plan's classes go when it does), mechanism and tile edges. */
    private Class<?> generatedClass(ExecutionPlan plan, Optional<LockMechanism> mechanism, boolean raggedTiles) {
        synchronized (classes) {
            return classes.computeIfAbsent(plan, p -> new HashMap<>()).computeIfAbsent(new ClassKey(mechanism, raggedTiles), key -> {
                JClass generated = JvmCodegen.generate(plan, key.mechanism(), GeneratedKernels.PACKAGE,
                        width.orElseGet(JvmCodegen::preferredWidth), key.raggedTiles());
                try {
                    return GeneratedKernels.define(AsmEmitter.emit(generated));
                } catch (IllegalAccessException failure) {
                    throw new IllegalStateException("cannot define generated class " + generated.name(), failure);
                }
            });
        }
    }
}
