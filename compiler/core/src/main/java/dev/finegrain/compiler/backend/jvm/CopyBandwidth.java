package dev.finegrain.compiler.backend.jvm;

import dev.finegrain.runtime.jvm.WorkerTeam;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The copy bandwidth a team of workers gets on the traffic of one run, the JVM rows' memory bound
 * ({@link dev.finegrain.compiler.backend.MemoryBound}): the team copies an array of half the run's least traffic into
 * another ({@code System.arraycopy}, each worker its share), so the copy reads and writes what the run must, from the
 * same level of the memory hierarchy (a small run's data stays in cache, and so does its copy; a large one's goes to
 * memory). At least {@link #MIN_BYTES}, at most {@link #MAX_BYTES} (past any last-level cache this project meets);
 * the best of at least {@link #ROUNDS} rounds, counted as STREAM counts a copy (bytes read plus bytes written).
 * Measured once per team size and traffic in a process, and kept.
 */
final class CopyBandwidth {

    static final long MIN_BYTES = 1 << 20;
    static final long MAX_BYTES = 512L << 20;
    static final int ROUNDS = 5;
    /** Rounds go on past {@link #ROUNDS} until this much time has passed, so that a small copy's best is a good one. */
    static final long MIN_NANOS = 50_000_000L;

    private static final Map<String, Double> MEASURED = new ConcurrentHashMap<>();

    private CopyBandwidth() {}

    /** Bytes a second the team copies when it moves {@code trafficBytes} (read and written together). */
    static double of(WorkerTeam team, long trafficBytes) {
        long bytes = Math.clamp(trafficBytes / 2, MIN_BYTES, MAX_BYTES);
        return MEASURED.computeIfAbsent(team.size() + ":" + bytes, key -> measure(team, bytes));
    }

    private static double measure(WorkerTeam team, long bytes) {
        int perWorker = (int) Math.max(1, bytes / 8 / team.size());
        long[][] from = new long[team.size()][perWorker];
        long[][] to = new long[team.size()][perWorker];
        for (int worker = 0; worker < team.size(); worker++) {
            java.util.Arrays.fill(from[worker], 1L);   // touch every page before the clock starts
            java.util.Arrays.fill(to[worker], 2L);
        }
        long best = Long.MAX_VALUE;
        long spent = 0;
        for (int round = 0; round < ROUNDS || spent < MIN_NANOS; round++) {
            long start = System.nanoTime();
            team.run((worker, workers) -> System.arraycopy(from[worker], 0, to[worker], 0, perWorker));
            long took = System.nanoTime() - start;
            best = Math.min(best, took);
            spent += took;
        }
        return 2.0 * 8 * perWorker * team.size() / (best / 1e9);
    }
}
