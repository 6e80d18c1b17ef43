package dev.finegrain.gpu.runtime;

/**
 * What a warp pays for an iteration of a poll loop ({@code pollLoop.yieldCycles}, {@code pollLoop.departureCycles},
 * docs/profiles.md). A poll loop is found with what the shared poll port already sees ({@link SimtSharedPollPort}): a
 * backward branch whose warp issued a poll (a shared load or atomic re-reading the address its instruction read last time)
 * since the warp's previous backward branch ends an iteration of a poll loop, and the warp pays {@code yieldCycles}
 * for it whether the loop goes round again or not (nvcc's {@code YIELD} comes before the branch); when the branch
 * diverges (some lanes leave while others keep polling) it pays {@code departureCycles} more. A forward branch, a
 * divergent branch outside a poll loop and a loop without a poll cost nothing extra.
 *
 * <p>Why: on the H100 every poll loop nvcc emits holds a {@code YIELD}, and a failing iteration of the plain poll
 * loop takes 76.6 cycles where counted loops without one take 29; an iteration in which one lane leaves the loop
 * takes 177.3, about 100 more. A hand-off between lanes of one warp is one such iteration. A divergent if-block
 * outside a loop costs 57 more than a uniform one on the H100 too, but the model ISA's branches are not nvcc's one
 * for one, and charging every divergent branch of the model ISA raised kernels without poll loops (data-parallel)
 * as much as those with them, so only the poll loop's are charged.
 */
public final class SimtPollLoop {
    private final int yieldCycles;
    private final int departureCycles;

    private SimtPollLoop(int yieldCycles, int departureCycles) {
        this.yieldCycles = yieldCycles;
        this.departureCycles = departureCycles;
    }

    /** The profile's poll-loop costs, or null when it charges none. */
    public static SimtPollLoop of(SimtProfile profile) {
        return profile.pollLoopYieldCycles() > 0 || profile.pollLoopDepartureCycles() > 0
                ? new SimtPollLoop(profile.pollLoopYieldCycles(), profile.pollLoopDepartureCycles()) : null;
    }

    /**
     * The extra cycles of a backward branch that the {@code taken} lanes of the issuing {@code group} of {@code warp}
     * take; it also ends the iteration, so the next one starts without a poll.
     */
    public int backwardBranch(SimtWarp warp, int group, int taken) {
        if (!warp.takePolledSinceBackBranch()) {
            return 0;
        }
        return taken == 0 || taken == group ? yieldCycles : yieldCycles + departureCycles;
    }
}
