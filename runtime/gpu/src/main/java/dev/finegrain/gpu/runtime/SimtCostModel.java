package dev.finegrain.gpu.runtime;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The costs that depend on what a run does, so one per machine: the bank conflicts of a shared access and the queues
 * of global memory lines. Flat latencies (ALU, branch, vote, barrier, a shared access and its replays) are final
 * fields of the instruction nodes, read from the profile when the kernel is built. Shared memory adds one replay per
 * extra word that lands in an already used bank (and per extra lane on one lock bit). Global memory follows seed 000's three-parameter abstraction: each memory line serves one
 * access at a time, a volatile one for {@code volatileServiceCycles} and an atomic one for
 * {@code atomicServiceCycles} (their ratio is the atomic:volatile ratio), so contentious accesses queue behind each
 * other while noncontentious ones overlap (the contentious:noncontentious ratio falls out of the queueing); and when
 * the atomic unit holds the line, a volatile access to a line with atomics still queued is served as an atomic.
 * Service times may be fractions of a cycle (Hopper serves contended accesses faster than one per cycle): a line's
 * queue is kept in hundredths of a cycle and a warp waits whole cycles, rounded up. An atomic then takes
 * {@code latency.globalAtomic}, a volatile access {@code latency.global}.
 * <p>Besides the lines, each SM has one memory port through which every 32-byte sector of its warps' global loads
 * and stores passes, {@code global.smSectorCycles} each ({@code global.smPartialStoreSectorCycles} for a store that
 * writes part of a sector): a warp whose 32 lanes touch 32 lines waits for 32 sectors, where a coalesced warp waits
 * for one line's. The measured latency already contains one sector's passage, so an unloaded port adds nothing to
 * a one-sector access. A profile without the keys has no port (0).
 */
public final class SimtCostModel {
    /** Line queues count time in hundredths of a cycle. */
    private static final long TICKS_PER_CYCLE = 100;
    /** A word index never has its top bit set (byte addresses are shifted right unsigned). */
    private static final int NO_WORD = -1;

    private final SimtProfile profile;
    private final Map<Integer, long[]> lines = new HashMap<>();
    /** Per bank: the first word seen, or (when counting conflicts) the distinct words seen; reused per access. */
    private final int[] bankWord;
    private final int[] sortedWords = new int[SimtWarp.WARP_SIZE];
    /** How long a global line is busy per access, in ticks (the profile's fractional service cycles, rounded once). */
    private final long volatileServiceTicks;
    private final long atomicServiceTicks;
    /** How long the SM's memory port is busy per sector, in ticks. */
    private final long sectorTicks;
    private final long partialStoreSectorTicks;

    public SimtCostModel(SimtProfile profile) {
        this.profile = profile;
        this.volatileServiceTicks = Math.round(TICKS_PER_CYCLE * profile.volatileServiceCycles());
        this.atomicServiceTicks = Math.round(TICKS_PER_CYCLE * profile.atomicServiceCycles());
        this.sectorTicks = Math.round(TICKS_PER_CYCLE * profile.smSectorCycles());
        this.partialStoreSectorTicks = Math.round(TICKS_PER_CYCLE * profile.smPartialStoreSectorCycles());
        this.bankWord = new int[Math.max(1, Math.abs(profile.sharedBanks()))];
    }

    public SimtProfile profile() {
        return profile;
    }

    /**
     * The most distinct words that the active lanes' byte addresses put into one bank (1 without conflicts). One
     * pass notes the first word seen in each bank; only when a bank sees a second word (a real conflict, rare in
     * kernels written for the hardware) are the distinct words counted, over a sorted copy. Both are linear or
     * n log n in the 32 lanes, where comparing every pair of lanes for every lane was cubic and dominated runs.
     */
    @TruffleBoundary
    public int bankConflictDegree(int[] byteAddresses, int count) {
        int banks = profile.sharedBanks();
        Arrays.fill(bankWord, NO_WORD);
        for (int i = 0; i < count; i++) {
            int word = byteAddresses[i] >>> 2;
            int bank = word % banks;
            if (bankWord[bank] == NO_WORD) {
                bankWord[bank] = word;
            } else if (bankWord[bank] != word) {
                return distinctWordsPerBank(byteAddresses, count, banks);
            }
        }
        return 1;
    }

    /** The most distinct words in one bank, counted over the sorted words (equal words are adjacent). */
    private int distinctWordsPerBank(int[] byteAddresses, int count, int banks) {
        for (int i = 0; i < count; i++) {
            sortedWords[i] = byteAddresses[i] >>> 2;
        }
        Arrays.sort(sortedWords, 0, count);
        Arrays.fill(bankWord, 0);
        int worst = 1;
        for (int i = 0; i < count; i++) {
            if (i == 0 || sortedWords[i] != sortedWords[i - 1]) {
                int bank = sortedWords[i] % banks;
                bankWord[bank]++;
                worst = Math.max(worst, bankWord[bank]);
            }
        }
        return worst;
    }

    /** Cycles from {@code now} until a global access to the line of {@code byteAddress} completes. */
    @TruffleBoundary
    public long globalAccess(long now, int byteAddress, boolean atomic) {
        int line = Integer.divideUnsigned(byteAddress, profile.globalLineBytes());
        long[] state = lines.computeIfAbsent(line, unused -> new long[2]);
        long nowTicks = now * TICKS_PER_CYCLE;
        long freeAt = state[0];
        long atomicsQueuedUntil = state[1];
        boolean servedAsAtomic = atomic || profile.atomicHoldsLine() && atomicsQueuedUntil > nowTicks;
        long start = Math.max(nowTicks, freeAt);
        long service = servedAsAtomic ? atomicServiceTicks : volatileServiceTicks;
        state[0] = start + service;
        if (servedAsAtomic) {
            state[1] = start + service;
        }
        long served = Math.ceilDiv(start + service - nowTicks, TICKS_PER_CYCLE);
        return served + (atomic ? profile.globalAtomicLatency() : profile.globalLatency());
    }

    /** Whether the profile's SMs have a memory port at all (counting sectors is wasted work otherwise). */
    public boolean hasSectorPort() {
        return sectorTicks != 0 || partialStoreSectorTicks != 0;
    }

    /**
     * Queues a warp's {@code sectors} (of which {@code partialStoreSectors} are stores writing part of a sector) on
     * the SM's memory port; returns the cycles from {@code now} until the last has passed, beyond the one sector
     * that the unloaded latency contains.
     */
    @TruffleBoundary
    public long sectorPort(SimtSm sm, long now, int sectors, int partialStoreSectors) {
        if (!hasSectorPort() || sectors == 0) {
            return 0;
        }
        long nowTicks = now * TICKS_PER_CYCLE;
        long busy = (sectors - partialStoreSectors) * sectorTicks + partialStoreSectors * partialStoreSectorTicks;
        long end = Math.max(nowTicks, sm.sectorPortFreeAt()) + busy;
        sm.sectorPortBusyUntil(end);
        return Math.max(0, Math.ceilDiv(end - nowTicks - sectorTicks, TICKS_PER_CYCLE));
    }
}
