package dev.finegrain.gpu.runtime;

import java.util.Arrays;
import java.util.List;

/**
 * The warp scheduler of one SM: picks the next warp that can issue (its latency has passed and it has runnable
 * lanes) under the profile's policy. Asking every resident warp in every cycle cost about half of a run, since most
 * cycles issue nothing on most SMs; instead the scheduler keeps two bit sets over the SM's warps, in their order:
 * {@code due} (latency passed) and {@code runnable} (lanes that could issue), with the ready cycles in a flat array.
 * A warp that issues waits in a timing wheel: the bucket of its ready cycle, when that cycle is less than
 * {@link #WHEEL_CYCLES} ahead, else a set of far warps with their earliest cycle. A pick first empties the buckets of
 * the cycles passed since the last pick, so each warp is marked due once, when its cycle comes, instead of every
 * resident warp being looked at whenever one becomes due (with 48 warps an ALU latency apart, that was every cycle).
 * Warps tell the scheduler when their runnable lanes change ({@link #runnableChanged}); the machine tells it when a
 * warp issues, and asks it for the first cycle in which a warp will be ready when a cycle issued nothing anywhere
 * ({@link #earliestReady}).
 */
final class SimtWarpScheduler {
    private final SimtProfile.SchedulerPolicy policy;
    private SimtWarp[] warps = new SimtWarp[0];
    private long[] due = new long[0];
    private long[] runnable = new long[0];
    private long[] readyAt = new long[0];
    private int lastIssued = -1;

    /** Cycles the wheel spans: more than the longest common latency, so that few warps wait in the far set. */
    private static final int WHEEL_CYCLES = 1024;
    private static final int NO_WARP = -1;
    /** First warp (slot) of each bucket, by ready cycle modulo {@link #WHEEL_CYCLES}; {@link #NO_WARP} if empty. */
    private final int[] bucketHead = new int[WHEEL_CYCLES];
    /** The next warp in the same bucket, per slot. */
    private int[] nextInBucket = new int[0];
    /** Warps waiting {@link #WHEEL_CYCLES} or more cycles ahead, as a bit set, and the earliest of their cycles. */
    private long[] far = new long[0];
    private long farEarliest = Long.MAX_VALUE;
    /** Every warp whose ready cycle is at most this one has been marked due; the buckets after it are pending. */
    private long markedThrough;
    /** Set when the warps changed: the next pick looks at every warp, as the wheel does not know them yet. */
    private boolean rescan = true;

    SimtWarpScheduler(SimtProfile.SchedulerPolicy policy) {
        this.policy = policy;
        Arrays.fill(bucketHead, NO_WARP);
    }

    /**
     * The SM's warps changed (a block was placed or retired): numbers them in order and starts over, every warp
     * waiting for its ready cycle. A retired block's warps are numbered -1, so late news of them is ignored; after a
     * retirement the numbers shift, so the greedy policy forgets which warp it issued last.
     */
    void reset(List<SimtWarp> resident, List<SimtWarp> retired) {
        for (SimtWarp warp : retired) {
            warp.setSchedulerSlot(-1);
        }
        int n = resident.size();
        warps = resident.toArray(new SimtWarp[0]);
        due = new long[(n + 63) >>> 6];
        runnable = new long[due.length];
        readyAt = new long[n];
        nextInBucket = new int[n];
        far = new long[due.length];
        rescan = true;
        for (int i = 0; i < n; i++) {
            SimtWarp warp = warps[i];
            warp.setSchedulerSlot(i);
            readyAt[i] = warp.readyAt();
            if (warp.runnableLanes() != 0) {
                runnable[i >>> 6] |= 1L << i;
            }
        }
        if (!retired.isEmpty()) {
            lastIssued = -1;
        }
    }

    /** The next warp to issue at {@code cycle}, or null: greedy-then-oldest or loose round robin. */
    SimtWarp pick(long cycle) {
        markDue(cycle);
        int n = warps.length;
        if (n == 0) {
            return null;
        }
        int chosen;
        if (policy == SimtProfile.SchedulerPolicy.GTO) {
            if (lastIssued >= 0 && lastIssued < n && canIssue(lastIssued)) {
                return warps[lastIssued];
            }
            chosen = nextCandidate(0, n);
        } else {
            int start = (lastIssued + 1) % n;
            chosen = nextCandidate(start, n);
            if (chosen < 0) {
                chosen = nextCandidate(0, start);
            }
        }
        if (chosen < 0) {
            return null;
        }
        lastIssued = chosen;
        return warps[chosen];
    }

    /** The issued warp waits until {@code cycle} (a later one). */
    void issued(SimtWarp warp, long cycle) {
        warp.setReadyAt(cycle);
        int slot = warp.schedulerSlot();
        readyAt[slot] = cycle;
        due[slot >>> 6] &= ~(1L << slot);
        enqueue(slot, cycle);
    }

    /** The first cycle in which one of the warps with runnable lanes is ready, or {@code Long.MAX_VALUE}. */
    long earliestReady() {
        long earliest = Long.MAX_VALUE;
        for (int slot = 0; slot < readyAt.length; slot++) {
            if ((runnable[slot >>> 6] >>> slot & 1) != 0) {
                earliest = Math.min(earliest, readyAt[slot]);
            }
        }
        return earliest;
    }

    /** The warp's runnable lanes may have changed (barrier wait or release, exit). */
    void runnableChanged(SimtWarp warp) {
        int slot = warp.schedulerSlot();
        if (slot < 0) {
            return;
        }
        if (warp.runnableLanes() != 0) {
            runnable[slot >>> 6] |= 1L << slot;
        } else {
            runnable[slot >>> 6] &= ~(1L << slot);
        }
    }

    /** Marks the warps whose ready cycle has come, up to {@code cycle}, as due. */
    private void markDue(long cycle) {
        if (cycle <= markedThrough && !rescan) {
            return;
        }
        if (rescan || cycle - markedThrough >= WHEEL_CYCLES) {
            markDueByScan(cycle);
            return;
        }
        for (long passed = markedThrough + 1; passed <= cycle; passed++) {
            int bucket = (int) (passed & (WHEEL_CYCLES - 1));
            for (int slot = bucketHead[bucket]; slot != NO_WARP; slot = nextInBucket[slot]) {
                due[slot >>> 6] |= 1L << slot;
            }
            bucketHead[bucket] = NO_WARP;
        }
        markedThrough = cycle;
        if (cycle >= farEarliest) {
            markFarDue(cycle);
        }
    }

    /** Looks at every warp (after the warps changed, or a jump longer than the wheel) and refills the wheel. */
    private void markDueByScan(long cycle) {
        Arrays.fill(bucketHead, NO_WARP);
        Arrays.fill(far, 0L);
        farEarliest = Long.MAX_VALUE;
        markedThrough = cycle;
        rescan = false;
        for (int slot = 0; slot < readyAt.length; slot++) {
            if (readyAt[slot] <= cycle) {
                due[slot >>> 6] |= 1L << slot;
            } else {
                enqueue(slot, readyAt[slot]);
            }
        }
    }

    /** Marks the far warps whose cycle has come as due, and finds the earliest of the others. */
    private void markFarDue(long cycle) {
        long next = Long.MAX_VALUE;
        for (int word = 0; word < far.length; word++) {
            for (long bits = far[word]; bits != 0; bits &= bits - 1) {
                int slot = (word << 6) + Long.numberOfTrailingZeros(bits);
                if (readyAt[slot] <= cycle) {
                    due[word] |= 1L << slot;
                    far[word] &= ~(1L << slot);
                } else {
                    next = Math.min(next, readyAt[slot]);
                }
            }
        }
        farEarliest = next;
    }

    /** Puts a warp that is not due in the bucket of its ready cycle, or among the far warps. */
    private void enqueue(int slot, long ready) {
        if (ready - markedThrough < WHEEL_CYCLES) {
            int bucket = (int) (ready & (WHEEL_CYCLES - 1));
            nextInBucket[slot] = bucketHead[bucket];
            bucketHead[bucket] = slot;
        } else {
            far[slot >>> 6] |= 1L << slot;
            farEarliest = Math.min(farEarliest, ready);
        }
    }

    private boolean canIssue(int slot) {
        return ((due[slot >>> 6] & runnable[slot >>> 6]) >>> slot & 1) != 0;
    }

    /** The first slot in {@code [from, to)} that can issue, or -1. */
    private int nextCandidate(int from, int to) {
        for (int word = from >>> 6; word << 6 < to; word++) {
            long bits = due[word] & runnable[word];
            if (word == from >>> 6) {
                bits &= -1L << from;
            }
            if (bits != 0) {
                int slot = (word << 6) + Long.numberOfTrailingZeros(bits);
                return slot < to ? slot : -1;
            }
        }
        return -1;
    }
}
