package dev.finegrain.gpu.runtime;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;

import java.util.HashMap;
import java.util.Map;

/**
 * Cycles an instruction keeps its warp from issuing again. ALU, branch, vote and barrier costs are flat latencies
 * from the profile. Shared memory adds one replay per extra word that lands in an already used bank (and per extra
 * lane on one lock bit). Global memory follows seed 000's three-parameter abstraction: each memory line serves one
 * access at a time, a volatile one for {@code volatileServiceCycles} and an atomic one for
 * {@code atomicServiceCycles} (their ratio is the atomic:volatile ratio), so contentious accesses queue behind each
 * other while noncontentious ones overlap (the contentious:noncontentious ratio falls out of the queueing); and when
 * the atomic unit holds the line, a volatile access to a line with atomics still queued is served as an atomic.
 */
public final class SimtCostModel {
    private final SimtProfile profile;
    private final Map<Integer, long[]> lines = new HashMap<>();

    public SimtCostModel(SimtProfile profile) {
        this.profile = profile;
    }

    public SimtProfile profile() {
        return profile;
    }

    /** The most distinct words that the active lanes' byte addresses put into one bank (1 without conflicts). */
    @TruffleBoundary
    public int bankConflictDegree(int[] byteAddresses, int count) {
        int banks = profile.sharedBanks();
        int worst = 1;
        for (int i = 0; i < count; i++) {
            int bank = (byteAddresses[i] >>> 2) % banks;
            int distinct = 0;
            for (int j = 0; j < count; j++) {
                int word = byteAddresses[j] >>> 2;
                if (word % banks == bank && isFirstOccurrence(byteAddresses, j, word)) {
                    distinct++;
                }
            }
            worst = Math.max(worst, distinct);
        }
        return worst;
    }

    /**
     * What a store costs its warp: GPUs do not wait for a store to reach memory, so the warp pays the issue (taken
     * as an ALU instruction's latency, the model's unit of issue) and the replays of bank conflicts, not the
     * memory latency. The store's effect is visible at issue, as every access is in this sequentially consistent
     * model.
     */
    public int storeIssueCycles(int conflictDegree) {
        return profile.aluLatency() + (conflictDegree - 1) * profile.sharedReplayCycles();
    }

    /** Shared-memory latency plus one replay per conflict beyond the first access. */
    public int sharedAccessCycles(int conflictDegree) {
        return profile.sharedLatency() + (conflictDegree - 1) * profile.sharedReplayCycles();
    }

    private static boolean isFirstOccurrence(int[] byteAddresses, int index, int word) {
        for (int k = 0; k < index; k++) {
            if (byteAddresses[k] >>> 2 == word) {
                return false;
            }
        }
        return true;
    }

    /** Cycles from {@code now} until a global access to the line of {@code byteAddress} completes. */
    @TruffleBoundary
    public long globalAccess(long now, int byteAddress, boolean atomic) {
        int line = Integer.divideUnsigned(byteAddress, profile.globalLineBytes());
        long[] state = lines.computeIfAbsent(line, unused -> new long[2]);
        long freeAt = state[0];
        long atomicsQueuedUntil = state[1];
        boolean servedAsAtomic = atomic || profile.atomicHoldsLine() && atomicsQueuedUntil > now;
        long start = Math.max(now, freeAt);
        long service = servedAsAtomic ? profile.atomicServiceCycles() : profile.volatileServiceCycles();
        state[0] = start + service;
        if (servedAsAtomic) {
            state[1] = start + service;
        }
        return start - now + service + profile.globalLatency();
    }
}
