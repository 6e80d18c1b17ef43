package dev.finegrain.gpu.runtime;

import java.util.List;

/**
 * The warp scheduler of one SM: picks the next warp that can issue (its latency has passed and it has runnable
 * lanes) under the profile's policy. Asking every resident warp in every cycle cost about half of a run, since most
 * cycles issue nothing on most SMs; instead the scheduler keeps two bit sets over the SM's warps, in their order:
 * {@code due} (latency passed) and {@code runnable} (lanes that could issue), with the ready cycles in a flat array
 * and the earliest one of the warps not yet due. A pick looks for a set bit, after marking the warps whose cycle has
 * come if that earliest cycle has (one pass over the array per wake-up, cheaper than a heap's sifting per issue). Warps tell the scheduler
 * when their runnable lanes change ({@link #runnableChanged}); the machine tells it when a warp issues, and asks it
 * for the first cycle in which a warp will be ready when a cycle issued nothing anywhere ({@link #earliestReady}).
 */
final class SimtWarpScheduler {
    private final SimtProfile.SchedulerPolicy policy;
    private SimtWarp[] warps = new SimtWarp[0];
    private long[] due = new long[0];
    private long[] runnable = new long[0];
    private long[] readyAt = new long[0];
    /** The earliest ready cycle of the warps not yet due ({@code Long.MAX_VALUE} if all are). */
    private long nextDue;
    /**
     * Before this cycle no warp can issue: set when a pick finds none (to {@link #nextDue}), lowered when a warp's
     * lanes become runnable or the warps change. The machine skips the SM until then without asking, which matters
     * because in most cycles most SMs have nothing to issue.
     */
    private long wakeAt = Long.MIN_VALUE;
    private int lastIssued = -1;

    SimtWarpScheduler(SimtProfile.SchedulerPolicy policy) {
        this.policy = policy;
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
        nextDue = Long.MIN_VALUE;
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
        wakeAt = Long.MIN_VALUE;
    }

    /** Picks at cycles before this one find no warp (see {@link #wakeAt}). */
    long wakeAt() {
        return wakeAt;
    }

    /** The next warp to issue at {@code cycle}, or null: greedy-then-oldest or loose round robin. */
    SimtWarp pick(long cycle) {
        if (cycle >= nextDue) {
            markDue(cycle);
        }
        int n = warps.length;
        if (n == 0) {
            wakeAt = Long.MAX_VALUE;
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
            wakeAt = nextDue;
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
        nextDue = Math.min(nextDue, cycle);
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
            wakeAt = Long.MIN_VALUE;
        } else {
            runnable[slot >>> 6] &= ~(1L << slot);
        }
    }

    /** Marks the warps whose ready cycle has come as due and finds the earliest of the others. */
    private void markDue(long cycle) {
        long next = Long.MAX_VALUE;
        for (int slot = 0; slot < readyAt.length; slot++) {
            if (readyAt[slot] <= cycle) {
                due[slot >>> 6] |= 1L << slot;
            } else {
                next = Math.min(next, readyAt[slot]);
            }
        }
        nextDue = next;
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
