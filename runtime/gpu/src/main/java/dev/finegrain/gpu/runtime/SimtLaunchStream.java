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
 * plus the gap, and a single launch costs the lone latency.
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

    /** The next launch on the stream, whose kernel ran {@code kernelCycles}. */
    public void add(long kernelCycles) {
        serialTotal += profile.launchOverheadCycles() + kernelCycles;
        long start = launches == 0 ? 0 : Math.max(lastStart + profile.launchIntervalCycles(),
                lastEnd + profile.launchGapCycles());
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
