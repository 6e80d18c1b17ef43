package dev.finegrain.gpu.runtime;

import java.util.List;

/**
 * The warp scheduler of one SM: picks the next warp that can issue (its latency has passed and it has runnable
 * lanes) under the profile's policy. Asking every resident warp in every cycle cost about half of a run, since most
 * cycles issue nothing on most SMs; instead the scheduler keeps two bit sets over the SM's warps, in their order:
 * {@code due} (latency passed) and {@code runnable} (lanes that could issue). A warp that issues waits in a timing
 * wheel: one bit set per cycle of the next {@value #WHEEL} (a latency that reaches further waits in {@code far}, looked
 * at again when its earliest cycle comes within the wheel), so finding the warps whose cycle has come costs one bit
 * set per cycle that has a warp in it, not a pass over every warp. Warps tell the scheduler when their runnable lanes
 * change ({@link #runnableChanged}); the machine tells it when a warp issues, and asks it for the first cycle in which
 * a warp will be ready when a cycle issued nothing anywhere ({@link #earliestReady}).
 */
final class SimtWarpScheduler {
    /** Cycles the wheel holds ahead of the current one: one bit per bucket in {@link #occupied}. */
    private static final int WHEEL = 64;

    private final SimtProfile.SchedulerPolicy policy;
    private SimtWarp[] warps = new SimtWarp[0];
    private int words;
    private long[] due = new long[0];
    private long[] runnable = new long[0];
    private long[] readyAt = new long[0];
    /** Bucket {@code c % WHEEL} (words {@code [b * words, (b + 1) * words)}) holds the warps ready at cycle c. */
    private long[] wheel = new long[0];
    /** Which buckets hold a warp. */
    private long occupied;
    /** Warps ready {@value #WHEEL} or more cycles after they issued, and the earliest of their ready cycles. */
    private long[] far = new long[0];
    private long farMin = Long.MAX_VALUE;
    /** The cycle the wheel has been advanced to: buckets hold cycles after it. */
    private long now = Long.MIN_VALUE;
    /**
     * Before this cycle no warp can issue: set when a pick finds none (to {@link #nextReady}), lowered when a warp's
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
        words = (n + 63) >>> 6;
        due = new long[words];
        runnable = new long[words];
        readyAt = new long[n];
        wheel = new long[WHEEL * words];
        occupied = 0;
        now = Long.MIN_VALUE;
        // every warp starts in far, so the next pick sorts them into due and the wheel by the cycle it has then
        far = new long[words];
        farMin = Long.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            SimtWarp warp = warps[i];
            warp.setSchedulerSlot(i);
            readyAt[i] = warp.readyAt();
            far[i >>> 6] |= 1L << i;
            farMin = Math.min(farMin, readyAt[i]);
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
        if (cycle > now) {
            advance(cycle);
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
            wakeAt = nextReady();
            return null;
        }
        lastIssued = chosen;
        return warps[chosen];
    }

    /** The issued warp (picked in the current cycle) waits until {@code cycle}, a later one. */
    void issued(SimtWarp warp, long cycle) {
        warp.setReadyAt(cycle);
        int slot = warp.schedulerSlot();
        readyAt[slot] = cycle;
        due[slot >>> 6] &= ~(1L << slot);
        if (cycle - now < WHEEL) {
            int bucket = (int) (cycle & (WHEEL - 1));
            wheel[bucket * words + (slot >>> 6)] |= 1L << slot;
            occupied |= 1L << bucket;
        } else {
            far[slot >>> 6] |= 1L << slot;
            farMin = Math.min(farMin, cycle);
        }
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

    /** Moves the wheel on to {@code cycle}: the warps of the buckets it passes are due, and far warps come nearer. */
    private void advance(long cycle) {
        long span = cycle - now;
        if (occupied != 0) {
            long passed = span >= WHEEL ? -1L : Long.rotateLeft((1L << span) - 1, (int) ((now + 1) & (WHEEL - 1)));
            long buckets = occupied & passed;
            occupied &= ~passed;
            while (buckets != 0) {
                int bucket = Long.numberOfTrailingZeros(buckets);
                buckets &= buckets - 1;
                for (int word = 0; word < words; word++) {
                    due[word] |= wheel[bucket * words + word];
                    wheel[bucket * words + word] = 0;
                }
            }
        }
        now = cycle;
        if (farMin - cycle < WHEEL) {
            bringNear(cycle);
        }
    }

    /** Sorts the far warps now within the wheel's reach into due and the wheel; finds the earliest of the rest. */
    private void bringNear(long cycle) {
        long earliest = Long.MAX_VALUE;
        for (int word = 0; word < words; word++) {
            long bits = far[word];
            while (bits != 0) {
                int slot = (word << 6) + Long.numberOfTrailingZeros(bits);
                bits &= bits - 1;
                long ready = readyAt[slot];
                if (ready <= cycle) {
                    due[word] |= 1L << slot;
                    far[word] &= ~(1L << slot);
                } else if (ready - cycle < WHEEL) {
                    int bucket = (int) (ready & (WHEEL - 1));
                    wheel[bucket * words + word] |= 1L << slot;
                    occupied |= 1L << bucket;
                    far[word] &= ~(1L << slot);
                } else {
                    earliest = Math.min(earliest, ready);
                }
            }
        }
        farMin = earliest;
    }

    /** The earliest ready cycle of the warps not yet due, {@code Long.MAX_VALUE} if there is none. */
    private long nextReady() {
        long next = farMin;
        if (occupied != 0) {
            int offset = (int) ((now + 1) & (WHEEL - 1));
            next = Math.min(next, now + 1 + Long.numberOfTrailingZeros(Long.rotateRight(occupied, offset)));
        }
        return next;
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
