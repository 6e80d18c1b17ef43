package dev.finegrain.gpu.runtime;

/**
 * The SM's shared-memory port as spinning warps meet it ({@code shared.pollCycles}, docs/profiles.md). A phenomenological
 * mechanism, stated as such: every shared access of the SM takes the port for {@code pollCycles}, and a poll (a warp's
 * shared load that reads the same word through the same instruction as that instruction's previous load by the warp)
 * waits until the port is free; any other access goes first and does not wait. On the H100 two warps passing a
 * volatile shared word cost 118 cycles per hand-off alone, a little more for each warp spinning beside them up to about
 * 20, then about 6.5 more for each further spinner, up to 200 among 30; bystanders running FMA chains, sleeping or
 * parked at a barrier cost almost nothing, and a participant that polls less often hands off faster among the
 * spinners. A port that serves one warp-wide access every 2 cycles (measured) saturates when some 17 warps each poll
 * once per 35-cycle loop, and from there every poll queues behind the others. Working warps' shared loads go first
 * because on the H100 a dependent shared-load chain ran as fast among 31 spinners as alone.
 *
 * <p>What a warp loaded last is kept per warp in a few slots chosen by the instruction's index, so a loop that polls
 * two words (lock-dataflow's west and north flags) polls both.
 */
public final class SimtSharedPollPort {
    private final double pollCycles;
    private double freeAt;

    SimtSharedPollPort(double pollCycles) {
        this.pollCycles = pollCycles;
    }

    /**
     * Warp {@code warp} issues shared load {@code instruction} whose first active lane reads byte {@code address} at
     * {@code cycle}: the cycles the load waits for the port, 0 unless it is a poll.
     */
    public int load(SimtWarp warp, int instruction, int address, long cycle) {
        boolean poll = warp.repeatsSharedLoad(instruction, address);
        double start = Math.max(cycle, freeAt);
        freeAt = start + pollCycles;
        return poll ? (int) Math.ceil(start - cycle) : 0;
    }

    /** A shared store or atomic issued at {@code cycle}: the cycles it waits for the port before it is performed. */
    public int store(long cycle) {
        double start = Math.max(cycle, freeAt);
        freeAt = start + pollCycles;
        return (int) Math.ceil(start - cycle);
    }
}
