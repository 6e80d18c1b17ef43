package dev.finegrain.gpu.runtime;

/**
 * When a block's shared stores become visible to its other threads ({@code shared.storeVisibleCycles}, docs/profiles.md).
 * On the H100 a hand-off between two warps spinning on one volatile shared word costs 144 cycles, about 97 more than a
 * model that lets a store be seen at once; the same gap appears between two lane groups of one warp. So a thread's
 * shared load of a word that another thread stored less than {@code visibleCycles} ago returns when the store becomes
 * visible, plus the load's own latency. The value it returns is the newest one, as before: only the time changes, so
 * no kernel's result can change. STS and STSUL are stores, LDS and LDSLK loads; atomics and mbarriers are not
 * delayed (not measured). A barrier of the block orders every store issued before it opened: loads after it wait for
 * none of them. The thread that stored reads its own store at once.
 *
 * <p>The two tables are made on the block's first shared store, one entry per shared word: the cycle of the newest
 * store (relative to the block's start, 0 for none) and the thread that made it.
 */
public final class SimtStoreVisibility {
    private final int visibleCycles;
    private final int words;
    private final long blockStart;
    private int[] storedAt;
    private short[] storedBy;
    private long orderedBefore;

    SimtStoreVisibility(int visibleCycles, int sharedBytes, long blockStart) {
        this.visibleCycles = visibleCycles;
        this.words = sharedBytes / 4;
        this.blockStart = blockStart;
        this.orderedBefore = blockStart;
    }

    /** Thread {@code thread} stored to shared word {@code word} at {@code cycle}. */
    public void stored(int word, int thread, long cycle) {
        if (storedAt == null) {
            storedAt = new int[words];
            storedBy = new short[words];
        }
        storedAt[word] = (int) (cycle - blockStart) + 1;
        storedBy[word] = (short) thread;
    }

    /** How many cycles after {@code cycle} thread {@code thread} can see the newest store to {@code word}: 0 if now. */
    public int waitFor(int word, int thread, long cycle) {
        if (storedAt == null || storedAt[word] == 0 || storedBy[word] == thread) {
            return 0;
        }
        long stored = blockStart + storedAt[word] - 1;
        if (stored < orderedBefore) {
            return 0;
        }
        return (int) Math.max(0, stored + visibleCycles - cycle);
    }

    /** A barrier of the block opened at {@code cycle}: the stores issued before it are visible to every thread. */
    void barrierOpened(long cycle) {
        orderedBefore = cycle;
    }
}
