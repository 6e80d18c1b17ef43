package dev.finegrain.compiler.backend.jvm;

import dev.finegrain.compiler.backend.Backend;
import dev.finegrain.compiler.backend.BackendRun;
import dev.finegrain.compiler.backend.KernelExecutionException;
import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.jvm.code.AsmEmitter;
import dev.finegrain.compiler.backend.jvm.code.JClass;
import dev.finegrain.compiler.backend.jvm.generated.GeneratedKernels;
import dev.finegrain.compiler.backend.reference.PaddedFields;
import dev.finegrain.compiler.ir.IrChannel;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.plan.DataParallelPlan;
import dev.finegrain.compiler.plan.DataflowPlan;
import dev.finegrain.compiler.plan.Domain;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.ParamSpec;
import dev.finegrain.dsl.Schedule;
import dev.finegrain.runtime.jvm.ParkingFlags;
import dev.finegrain.runtime.jvm.SenseBarrier;
import dev.finegrain.runtime.jvm.SpinLockTokens;
import dev.finegrain.runtime.jvm.StallException;
import dev.finegrain.runtime.jvm.TeamTask;
import dev.finegrain.runtime.jvm.Watchdog;
import dev.finegrain.runtime.jvm.WorkerTeam;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Backend {@code jvm}: each variant becomes one class generated with ASM and defined as a hidden class; it runs
 * on a reusable {@link WorkerTeam}. With {@code measure}, it warms up, then reports the median of several timed
 * runs as {@code cells_per_s} (actor instances per second); only the team's run is timed, not the allocation of
 * fresh state and sync words before each run.
 */
public final class JvmBackend implements Backend {

    private static final List<LockMechanism> SWEEP = List.of(LockMechanism.ACQUIRE_RELEASE_FLAG, LockMechanism.TINY_LOCK,
            LockMechanism.ATOMIC_SPIN_LOCK, LockMechanism.SHARED_SPIN_LOCK, LockMechanism.BLOCKING);
    private static final int WARMUP_RUNS = 10;
    private static final long WARMUP_NANOS = 300_000_000L;
    private static final int MAX_WARMUP_RUNS = 1000;
    private static final int TIMED_RUNS = 7;

    private final Map<String, MethodHandle> constructors = new ConcurrentHashMap<>();
    private final Map<Integer, WorkerTeam> teams = new ConcurrentHashMap<>();

    @Override
    public String name() {
        return "jvm";
    }

    @Override
    public boolean modelsSyncAbstractly() {
        return false;
    }

    @Override
    public List<LockMechanism> mechanisms(KernelGraph graph, Schedule schedule) {
        if (!(schedule instanceof Schedule.LockDataflow)) {
            return List.of();
        }
        return SWEEP.stream().filter(m -> SyncLayout.unsupported(graph, m).isEmpty()).toList();
    }

    @Override
    public Optional<String> unsupported(KernelGraph graph, Schedule schedule, LockMechanism mechanism) {
        if (!(schedule instanceof Schedule.LockDataflow)) {
            return Optional.of(schedule.cliName() + " synchronises with barriers only");
        }
        return SyncLayout.unsupported(graph, mechanism);
    }

    @Override
    public BackendRun run(Variant variant, Invocation invocation, RunSettings settings) {
        ExecutionPlan plan = variant.plan();
        if (plan instanceof DataParallelPlan dataParallel) {
            dataParallel.checkSizes(invocation.sizes());
        }
        return runWith(constructor(plan, variant.mechanism()), variant, invocation, settings);
    }

    /** Runs a kernel class with the generated constructor signature; the tests use it for classes compiled from source. */
    BackendRun runWith(Class<?> kernelClass, Variant variant, Invocation invocation, RunSettings settings) {
        try {
            return runWith(MethodHandles.lookup().findConstructor(kernelClass, MethodType.methodType(void.class, Object[].class,
                    long[].class, double[].class, int[].class, Object[].class, Watchdog.class)), variant, invocation, settings);
        } catch (ReflectiveOperationException failure) {
            throw new IllegalArgumentException(kernelClass + " has no kernel constructor", failure);
        }
    }

    private BackendRun runWith(MethodHandle constructor, Variant variant, Invocation invocation, RunSettings settings) {
        WorkerTeam team = teams.computeIfAbsent(settings.threads(), WorkerTeam::new);
        Object[][] lastArrays = new Object[1][];
        Runnable once = () -> {
            Object[] arrays = prepareArrays(variant, invocation);
            TeamTask task = instantiate(constructor, variant, invocation, arrays, team.size(), settings);
            lastArrays[0] = arrays;
            runOnTeam(team, task, variant);
        };
        List<Long> timings = new ArrayList<>();
        if (settings.measure()) {
            long warmupStart = System.nanoTime();
            for (int warm = 0; warm < MAX_WARMUP_RUNS && (warm < WARMUP_RUNS || System.nanoTime() - warmupStart < WARMUP_NANOS); warm++) {
                once.run();
            }
        }
        for (int timed = 0; timed < (settings.measure() ? TIMED_RUNS : 1); timed++) {
            long start = System.nanoTime();
            once.run();
            timings.add(System.nanoTime() - start);
        }
        Object[] arrays = lastArrays[0];
        long[] sorted = timings.stream().mapToLong(Long::longValue).sorted().toArray();
        double medianSeconds = sorted[sorted.length / 2] / 1e9;
        KernelOutputs outputs = KernelOutputs.fromPadded(variant.graph(), invocation.sizes(), arrays);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("threads", team.size());
        details.put("median_ms", Math.round(medianSeconds * 1e6) / 1e3);
        details.put("timed_runs", timings.size());
        return new BackendRun(outputs, "cells_per_s", invocation.points() / medianSeconds, "cells/s", details, Optional.empty());
    }

    private void runOnTeam(WorkerTeam team, TeamTask task, Variant variant) {
        try {
            team.run(task);
        } catch (StallException stall) {
            throw stall;
        } catch (ArithmeticException division) {
            throw new KernelExecutionException("kernel '" + variant.graph().name() + "': integer division by zero in an actor "
                    + "body on the jvm backend; guard the divisor with select(...)");
        }
    }

    private MethodHandle constructor(ExecutionPlan plan, Optional<LockMechanism> mechanism) {
        JClass generated = JvmCodegen.generate(plan, mechanism, GeneratedKernels.PACKAGE);
        String key = generated.name() + "@" + System.identityHashCode(plan);
        return constructors.computeIfAbsent(key, k -> {
            try {
                Class<?> type = GeneratedKernels.define(AsmEmitter.emit(generated));
                return MethodHandles.lookup().findConstructor(type, MethodType.methodType(void.class, Object[].class, long[].class,
                        double[].class, int[].class, Object[].class, Watchdog.class));
            } catch (ReflectiveOperationException failure) {
                throw new IllegalStateException("cannot define generated class " + generated.name(), failure);
            }
        });
    }

    private static Object[] prepareArrays(Variant variant, Invocation invocation) {
        Object[] arrays = PaddedFields.prepare(variant.graph(), invocation);
        if (variant.mechanism().orElse(null) == LockMechanism.TINY_LOCK) {
            for (IrField field : variant.graph().fields()) {
                if (field.isState()) {
                    arrays[field.id()] = packWithHaloReady(field, invocation.sizes(), (int[]) arrays[field.id()]);
                }
            }
        }
        return arrays;
    }

    /** Long words holding each int value; halo words are ready from the start, interior words not yet. */
    private static long[] packWithHaloReady(IrField field, int[] sizes, int[] values) {
        int[] extents = new int[sizes.length];
        for (int d = 0; d < sizes.length; d++) {
            extents[d] = sizes[d] + field.haloLow()[d] + field.haloHigh()[d];
        }
        Domain padded = new Domain(extents);
        long[] words = new long[values.length];
        int[] point = new int[sizes.length];
        for (int index = 0; index < values.length; index++) {
            padded.coordinates(index, point);
            boolean halo = false;
            for (int d = 0; d < sizes.length; d++) {
                int x = point[d] - field.haloLow()[d];
                halo |= x < 0 || x >= sizes[d];
            }
            if (halo) {
                dev.finegrain.runtime.jvm.PackedReadyWords.publish(words, index, values[index]);
            }
        }
        return words;
    }

    private static TeamTask instantiate(MethodHandle constructor, Variant variant, Invocation invocation, Object[] arrays,
                                        int workers, RunSettings settings) {
        KernelGraph graph = variant.graph();
        List<ParamSpec> params = graph.kernel().params();
        long[] integral = new long[params.size()];
        double[] real = new double[params.size()];
        for (int p = 0; p < params.size(); p++) {
            Object value = invocation.param(params.get(p).name());
            switch (value) {
                case Double d -> real[p] = d;
                case Boolean b -> integral[p] = b ? 1 : 0;
                case Number n -> integral[p] = n.longValue();
                default -> throw new IllegalStateException("validated param is " + value);
            }
        }
        Object[] sync = syncObjects(variant, invocation.sizes(), workers);
        Watchdog watchdog = new Watchdog(settings.stallTimeoutNanos(), describer(variant, invocation.sizes()));
        try {
            return (TeamTask) constructor.invoke(arrays, integral, real, invocation.sizes(), sync, watchdog);
        } catch (Throwable failure) {
            throw new IllegalStateException("cannot instantiate the generated kernel of " + graph.name(), failure);
        }
    }

    private static Object[] syncObjects(Variant variant, int[] sizes, int workers) {
        if (!(variant.plan() instanceof DataflowPlan dataflow)) {
            return new Object[] {new SenseBarrier(workers)};
        }
        SyncLayout layout = SyncLayout.of(variant.graph(), dataflow.waits(), variant.mechanism().orElseThrow());
        int last = sizes.length - 1;
        int rows = 1;
        for (int d = 0; d < last; d++) {
            rows *= sizes[d];
        }
        int words = layout.group() == 1 ? new Domain(sizes).points() : rows * Math.ceilDiv(sizes[last], layout.group());
        Object[] sync = new Object[layout.arrays()];
        for (int a = 0; a < sync.length; a++) {
            sync[a] = switch (layout.mechanism()) {
                case ACQUIRE_RELEASE_FLAG -> dev.finegrain.runtime.jvm.ReadyFlags.create(words);
                case ATOMIC_SPIN_LOCK, SHARED_SPIN_LOCK -> SpinLockTokens.createHeld(words);
                case BLOCKING -> new ParkingFlags(words);
                default -> throw new IllegalStateException("no word arrays for " + layout.mechanism());
            };
        }
        return sync;
    }

    /** Names a stalled wait: the waiting actor instance, the channel, and the instance that should have produced it. */
    private static dev.finegrain.runtime.jvm.WaitDescriber describer(Variant variant, int[] sizes) {
        KernelGraph graph = variant.graph();
        List<IrChannel> waits = variant.plan() instanceof DataflowPlan dataflow ? dataflow.waits() : List.of();
        Domain domain = new Domain(sizes);
        return (channel, consumerPoint, producerPoint) -> {
            if (channel < 0 || channel >= waits.size()) {
                return "a worker waits at the barrier between steps";
            }
            IrChannel wait = waits.get(channel);
            int[] consumer = new int[sizes.length];
            int[] producer = new int[sizes.length];
            domain.coordinates(consumerPoint, consumer);
            domain.coordinates(producerPoint, producer);
            return graph.actor(wait.consumer()).name() + Arrays.toString(consumer) + " waits on channel " + wait.via()
                    + " for " + graph.actor(wait.producer()).name() + Arrays.toString(producer);
        };
    }
}
