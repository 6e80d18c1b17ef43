package dev.finegrain.gpu.runtime;

/**
 * The SM's shared-memory port as spinning warps meet it ({@code shared.pollCycles}, docs/profiles.md), a
 * phenomenological mechanism. Every shared access of the SM takes the port for {@code pollCycles}. A poll (a warp's
 * shared load whose first active lane reads the same address through the same instruction as the last time that
 * lane ran it), a store and a shared atomic wait until the port is free, and a store becomes visible counted from then; any
 * other load goes first and does not wait, because on the H100 a dependent shared-load chain ran as fast among 31
 * spinning warps as alone.
 *
 * <p>Why: on the H100 two warps passing a volatile shared word cost 118 cycles per hand-off alone, about 1 more for
 * each warp spinning on a shared load beside them up to 20 warps, then about 6 more for each further spinner (200
 * among 30), while 30 warps running dependent FMA chains, sleeping or parked at a barrier add 0-7, and a participant that polls
 * less often hands off faster among the spinners. A queue that the polls of every spinning warp join reproduces
 * that rise; {@code pollCycles} is fitted on it (3.5), not the 2.0 cycles per access measured for throughput, and the
 * model's queue fills from about 10 spinners where the H100's cost stays nearly flat up to 20.
 *
 * <p>A load that is not a poll takes the port at once, ahead of the queue, and does not push the queue back: the port
 * is busy until at least {@code pollCycles} after it. Pushing the queue back instead would let a stream of such loads
 * (a tile reading its neighbours) build a backlog that the next store or atomic pays, which no measurement shows.
 *
 * <p>Each warp remembers, per load instruction and lane, the address read last, so a loop that polls two words
 * (lock-dataflow's west and north flags) polls both.
 */
public final class SimtSharedPollPort {
    private final double pollCycles;
    private final SimtServiceQueue queue = new SimtServiceQueue();

    SimtSharedPollPort(double pollCycles) {
        this.pollCycles = pollCycles;
    }

    /**
     * Warp {@code warp} issues shared load {@code instruction} whose {@code active} lanes read bytes {@code addresses}
     * (in lane order) at {@code cycle}: the cycles the load waits for the port, 0 unless it is a poll.
     */
    public int load(SimtWarp warp, int instruction, int active, int[] addresses, long cycle) {
        if (warp.repeatsSharedLoad(instruction, active, addresses)) {
            return queue.enter(cycle, pollCycles);
        }
        queue.passAhead(cycle, pollCycles);
        return 0;
    }

    /** A shared store or atomic issued at {@code cycle}: the cycles it waits for the port before it is performed. */
    public int store(long cycle) {
        return queue.enter(cycle, pollCycles);
    }

    /**
     * The first cycle, not before {@code cycle}, by which the port has served every access given to it so far, the
     * stores among them: a barrier opening at {@code cycle} orders those stores (a load's hold of the port may delay
     * them by up to {@code pollCycles} more), and a store issued later is performed no earlier.
     */
    public long drainedBy(long cycle) {
        return queue.drainedBy(cycle);
    }
}
