package dev.finegrain.compiler.backend.gpu.model;

import java.util.List;

/**
 * A variant lowered to the GPU model: the program, and the launch plan that runs it. Every launch runs the same
 * program on {@code threadsPerBlock} threads per block; launch k gets k in global word 0 (its block-diagonal, or
 * tile) and {@code blocksPerLaunch.get(k)} blocks.
 *
 * @param program        model-ISA text (docs/simt-isa.md)
 * @param launchPlan     the plan in words, for {@code show --simt}
 * @param sharedBytes    shared memory each block claims
 * @param lockBits       lock bits each block claims (for occupancy)
 * @param phaseClockByte where each thread stores the clock when its sync phase starts and ends (two words per
 *                       thread of the launch's grid), or -1 when the schedule has no sync phase to time
 * @param resources      seed 001 Table 1's columns for this variant
 */
public record SimtKernel(String program, String launchPlan, int threadsPerBlock, List<Integer> blocksPerLaunch,
                         int sharedBytes, int lockBits, int phaseClockByte, Resources resources) {

    public SimtKernel {
        blocksPerLaunch = List.copyOf(blocksPerLaunch);
    }

    /**
     * What a variant costs, in the shape of seed 001 Table 1.
     *
     * @param syncSharedBytes  shared memory spent on sync words (mutexes, flags, tokens), per block
     * @param dataSharedBytes  shared memory holding the tile's data, per block
     * @param explicitLockBits lock bits the program takes with LDSLK
     * @param implicitLockBits lock bits behind shared atomics on Fermi (seed 001 Listing 1: one per mutex word)
     * @param namedBarriers    named barriers per block
     * @param registers        registers per thread
     */
    public record Resources(int syncSharedBytes, int dataSharedBytes, int explicitLockBits, int implicitLockBits,
                            int namedBarriers, int registers) {

        public String describe() {
            return "shared memory for sync " + syncSharedBytes + " bytes, for data " + dataSharedBytes
                    + " bytes; lock bits " + explicitLockBits + " explicit, " + implicitLockBits + " implicit; named"
                    + " barriers " + namedBarriers + "; registers " + registers + " per thread";
        }
    }

    public int launches() {
        return blocksPerLaunch.size();
    }
}
