package dev.finegrain.gpu.runtime;

import java.util.List;

/**
 * The warp scheduler of one SM: picks the next warp that can issue (its latency has passed and it has runnable
 * lanes) under the profile's policy. Asking every resident warp in every cycle cost about half of a run, since most
 * cycles issue nothing on most SMs; instead the scheduler keeps two bit sets over the SM's warps, in their order:
 * {@code due} (latency passed) and {@code runnable} (lanes that could issue), and a min-heap by ready cycle of the
 * warps not yet due. A pick then drains the heap up to the cycle and looks for a set bit. Warps tell the scheduler
 * when their runnable lanes change ({@link #runnableChanged}); the machine tells it when a warp issues.
 */
final class SimtWarpScheduler {
    private final SimtProfile.SchedulerPolicy policy;
    private SimtWarp[] warps = new SimtWarp[0];
    private long[] due = new long[0];
    private long[] runnable = new long[0];
    private SimtWarp[] waiting = new SimtWarp[0];
    private int waitingCount;
    private int lastIssued = -1;

    SimtWarpScheduler(SimtProfile.SchedulerPolicy policy) {
        this.policy = policy;
    }

    /**
     * The SM's warps changed (a block was placed or retired): numbers them in order and starts over, every warp
     * waiting for its ready cycle. A retired block's warps are numbered -1, so late news of them is ignored.
     */
    void reset(List<SimtWarp> resident, List<SimtWarp> retired, boolean forgetLastIssued) {
        for (SimtWarp warp : retired) {
            warp.setSchedulerSlot(-1);
        }
        int n = resident.size();
        warps = resident.toArray(new SimtWarp[0]);
        due = new long[(n + 63) >>> 6];
        runnable = new long[due.length];
        waiting = new SimtWarp[n];
        waitingCount = 0;
        for (int i = 0; i < n; i++) {
            SimtWarp warp = warps[i];
            warp.setSchedulerSlot(i);
            push(warp);
            if (warp.runnableLanes() != 0) {
                runnable[i >>> 6] |= 1L << i;
            }
        }
        if (forgetLastIssued) {
            lastIssued = -1;
        }
    }

    /** The next warp to issue at {@code cycle}, or null: greedy-then-oldest or loose round robin. */
    SimtWarp pick(long cycle) {
        while (waitingCount > 0 && waiting[0].readyAt() <= cycle) {
            int slot = pop().schedulerSlot();
            due[slot >>> 6] |= 1L << slot;
        }
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

    /** The issued warp waits until {@code readyAt} (a later cycle). */
    void issued(SimtWarp warp, long readyAt) {
        warp.setReadyAt(readyAt);
        int slot = warp.schedulerSlot();
        due[slot >>> 6] &= ~(1L << slot);
        push(warp);
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

    private void push(SimtWarp warp) {
        int i = waitingCount++;
        long key = warp.readyAt();
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (waiting[parent].readyAt() <= key) {
                break;
            }
            waiting[i] = waiting[parent];
            i = parent;
        }
        waiting[i] = warp;
    }

    private SimtWarp pop() {
        SimtWarp top = waiting[0];
        SimtWarp last = waiting[--waitingCount];
        waiting[waitingCount] = null;
        if (waitingCount > 0) {
            long key = last.readyAt();
            int i = 0;
            while (true) {
                int child = 2 * i + 1;
                if (child >= waitingCount) {
                    break;
                }
                if (child + 1 < waitingCount && waiting[child + 1].readyAt() < waiting[child].readyAt()) {
                    child++;
                }
                if (waiting[child].readyAt() >= key) {
                    break;
                }
                waiting[i] = waiting[child];
                i = child;
            }
            waiting[i] = last;
        }
        return top;
    }
}
