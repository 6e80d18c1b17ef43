package dev.finegrain.compiler.primitives;

import dev.finegrain.compiler.backend.gpu.primitive.MemoryBenchmark;
import dev.finegrain.compiler.backend.gpu.primitive.PrimitiveKind;
import dev.finegrain.compiler.backend.gpu.primitive.SyncPrimitive;
import dev.finegrain.runtime.jvm.StallException;
import dev.finegrain.runtime.jvm.Watchdog;
import dev.finegrain.runtime.jvm.WorkerTeam;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The primitives on the JVM: a {@link WorkerTeam} with a thread per block (the paper's master thread), each performing
 * the primitive {@code ops} times in one team run. A checking run counts holders and barrier phases as the model's does;
 * the timed runs are {@link #REPEATS}, after {@link #WARM_UPS} untimed ones, and the row keeps their median. Waits report
 * a stall through the run's watchdog (10 s without progress), naming the primitive, instead of hanging.
 */
public record JvmPrimitives() implements PrimitiveBackend {

    static final int REPEATS = 5;
    /** Untimed runs first, so that the JIT has compiled the primitive before the timed ones. */
    static final int WARM_UPS = 2;

    @Override
    public String name() {
        return "jvm";
    }

    /** 5 ms (one thread) to 0.7 s (the XF barrier on two threads) per run at the rates measured on two cores. */
    @Override
    public int defaultOps() {
        return 1_000_000;
    }

    @Override
    public int defaultCheckOps() {
        return 10_000;
    }

    /**
     * Powers of two up to the cores, and the cores: a thread stands for a block, and a GPU's blocks all run at once;
     * more threads than cores measure the scheduler (ask for them with {@code --blocks}).
     */
    @Override
    public List<Integer> defaultBlocks() {
        int cores = Runtime.getRuntime().availableProcessors();
        List<Integer> threads = new ArrayList<>();
        for (int t = 1; t < cores; t *= 2) {
            threads.add(t);
        }
        threads.add(cores);
        return threads;
    }

    @Override
    public PrimitiveRow run(SyncPrimitive primitive, int threads, int initial, int ops, int checkOps) {
        String kind = primitive.kind().id();
        int capacity = primitive.kind() == PrimitiveKind.MUTEX ? 1 : initial;
        try (WorkerTeam team = new WorkerTeam(threads)) {
            String wrong = check(team, primitive, capacity, checkOps);
            if (wrong != null) {
                return PrimitiveRow.notRun(name(), primitive.name(), kind, threads, initial, ops, wrong);
            }
            for (int warmUp = 0; warmUp < WARM_UPS; warmUp++) {
                timed(team, primitive, capacity, ops);
            }
            double[] seconds = new double[REPEATS];
            for (int r = 0; r < REPEATS; r++) {
                seconds[r] = timed(team, primitive, capacity, ops);
            }
            Arrays.sort(seconds);
            double median = seconds[REPEATS / 2];
            return new PrimitiveRow(name(), primitive.name(), kind, threads, initial, ops, median,
                    primitive.kind().operations(threads, ops) / median, PrimitiveRow.VERIFIED);
        } catch (StallException stall) {
            return PrimitiveRow.notRun(name(), primitive.name(), kind, threads, initial, ops,
                    "stalled: " + String.join("; ", stall.waits()));
        }
    }

    @Override
    public List<PrimitiveRow> memory(List<MemoryBenchmark> benchmarks, int accesses) {
        return List.of();
    }

    private static Watchdog watchdog(SyncPrimitive primitive) {
        return new Watchdog(Watchdog.DEFAULT_TIMEOUT_NANOS,
                (channel, worker, other) -> primitive.name() + ": worker " + worker + " waits"
                        + (other >= 0 ? " for worker " + other : ""), primitive.jvmWaitPolicy());
    }

    /** Null when a checking run kept the guarantee, else what it broke. */
    private static String check(WorkerTeam team, SyncPrimitive primitive, int capacity, int ops) {
        int threads = team.size();
        SyncPrimitive.JvmPrimitive form = primitive.jvm(threads, capacity, watchdog(primitive));
        AtomicInteger holders = new AtomicInteger();
        AtomicInteger violations = new AtomicInteger();
        AtomicLong counter = new AtomicLong();
        long[] plain = new long[1];
        AtomicInteger arrivals = new AtomicInteger();
        boolean barrier = primitive.kind() == PrimitiveKind.BARRIER;
        team.run((worker, size) -> {
            for (int step = 1; step <= ops; step++) {
                if (barrier) {
                    arrivals.incrementAndGet();
                    form.enter(worker);
                    int seen = arrivals.get();
                    if (seen < step * threads || seen >= (step + 1) * threads) {
                        violations.incrementAndGet();
                    }
                    continue;
                }
                form.enter(worker);
                if (holders.incrementAndGet() > capacity) {
                    violations.incrementAndGet();
                }
                if (capacity == 1) {
                    plain[0]++;
                } else {
                    counter.incrementAndGet();
                }
                holders.decrementAndGet();
                form.leave(worker);
            }
        });
        long counted = capacity == 1 ? plain[0] : counter.get();
        if (violations.get() != 0) {
            return "wrong: " + violations.get() + " violations of the primitive's guarantee in the checking run";
        }
        if (!barrier && counted != (long) threads * ops) {
            return "wrong: the critical section counted " + counted + " entries, expected " + (long) threads * ops;
        }
        return null;
    }

    /** Seconds from the team's start to its last worker's end, each worker doing {@code ops} operations. */
    private static double timed(WorkerTeam team, SyncPrimitive primitive, int capacity, int ops) {
        SyncPrimitive.JvmPrimitive form = primitive.jvm(team.size(), capacity, watchdog(primitive));
        long began = System.nanoTime();
        team.run((worker, size) -> {
            for (int op = 0; op < ops; op++) {
                form.enter(worker);
                form.leave(worker);
            }
        });
        return (System.nanoTime() - began) / 1e9;
    }
}
