package dev.finegrain.samples.bench;

import dev.finegrain.runtime.jvm.LockedReadyQueue;
import dev.finegrain.runtime.jvm.MichaelScottQueue;
import dev.finegrain.runtime.jvm.ReadyStructure;
import dev.finegrain.runtime.jvm.WorkStealingDeques;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * The lecture's lock against lock-free question (seed 002) on dynamic dataflow's own traffic: every thread, standing
 * for a worker, puts the instance its last firing made ready and takes the next one, on one shared ready structure:
 * {@code locked} (one queue under one lock), {@code michael-scott} (lock-free queue) or {@code work-stealing} (a
 * Chase-Lev deque per worker). Throughput in put-and-take pairs per microsecond against threads: run with {@code java -cp
 * 'samples/target/finegrain-samples.jar:samples/target/lib/*' org.openjdk.jmh.Main ReadyStructure -t 1} (then
 * {@code -t 2}, {@code -t 4}).
 *
 * <p>What would make it wrong: a structure that grows without bound (each pair takes what it put or another's, so the
 * size stays near the thread count); a take the JIT could drop (its result is returned to the blackhole); more
 * threads than cores without saying so (then a preempted lock holder stalls every other thread of the locked queue,
 * which is the lecture's point, and the numbers say so).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ReadyStructureBenchmark {

    @Param({"locked", "michael-scott", "work-stealing"})
    public String structure;

    private ReadyStructure ready;

    @Setup
    public void setUp(BenchmarkParams params) {
        ready = switch (structure) {
            case "locked" -> new LockedReadyQueue();
            case "michael-scott" -> new MichaelScottQueue();
            case "work-stealing" -> new WorkStealingDeques(params.getThreads());
            default -> throw new IllegalArgumentException("unknown structure " + structure);
        };
    }

    /** Each worker fires what its own firing made ready: the common case, where a deque is never stolen from. */
    @Benchmark
    public int putThenTake(ThreadParams thread) {
        int worker = thread.getThreadIndex();
        ready.put(worker, worker);
        return ready.take(worker);
    }
}
