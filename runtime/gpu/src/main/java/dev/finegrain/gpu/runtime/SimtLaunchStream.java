package dev.finegrain.gpu.runtime;

/**
 * The time of a run of launches on one stream, as a host times it (an event before the first launch, one after the
 * last). On a profile without {@code launch.pipelined} every launch adds {@code launch.overheadCycles} before its
 * kernel, one after the other. On a pipelined profile the host submits the next launch while the previous kernel
 * runs: launch i starts at the later of one submission interval after launch i-1 started
 * ({@code launch.intervalCycles}, the rate of back-to-back launches of empty kernels) and the dependent-launch gap
 * after launch i-1 ended ({@code launch.gapCycles}); the run then costs the latency of a lone launch
 * ({@code launch.overheadCycles}) once, plus the time from the first kernel's start to the last one's end. So a
 * stream of kernels shorter than the interval costs the interval each, a stream of longer ones costs each kernel
 * plus the gap, and a single launch costs the lone latency. A programmatic dependent launch (profiles with
 * {@code feature.programmaticLaunch}) that the launch before it lets in once its blocks have done their work starts
 * {@code launch.programmaticGapCycles} after that launch ended instead of the gap: on an H200, with the next launch let
 * in at the end of the one before, work a kernel did before its wait added its whole time, so the gain is the shorter
 * gap, not an overlap.
 */
public final class SimtLaunchStream {
    private final SimtProfile profile;
    private long lastStart;
    private long lastEnd;
    private long serialTotal;
    private int launches;

    public SimtLaunchStream(SimtProfile profile) {
        this.profile = profile;
    }

    /**
     * The next launch on the stream, whose kernel ran {@code kernelCycles}; {@code programmatic}: a programmatic
     * dependent launch, let in by the launch before it (the first launch on a stream waits as any launch does).
     */
    public void add(long kernelCycles, boolean programmatic) {
        if (programmatic && !profile.hasProgrammaticLaunch()) {
            throw new IllegalArgumentException("profile " + profile.name() + " has no programmatic dependent launch"
                    + " (feature.programmaticLaunch)");
        }
        serialTotal += profile.launchOverheadCycles() + kernelCycles;
        long gap = programmatic ? profile.launchProgrammaticGapCycles() : profile.launchGapCycles();
        long start = launches == 0 ? 0 : Math.max(lastStart + profile.launchIntervalCycles(), lastEnd + gap);
        lastStart = start;
        lastEnd = start + kernelCycles;
        launches++;
    }

    /** Cycles from before the first launch to after the last kernel ended; 0 for no launch. */
    public long totalCycles() {
        if (launches == 0) {
            return 0;
        }
        return profile.launchPipelined() ? profile.launchOverheadCycles() + lastEnd : serialTotal;
    }
}
