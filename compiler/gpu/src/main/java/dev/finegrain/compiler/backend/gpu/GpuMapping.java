package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.KernelGraph;

import java.util.List;

/**
 * How a plan runs on a GPU, decided once for a kernel x schedule x mechanism x lock choices x sizes x machine and
 * spelled by every GPU emitter (the model ISA, CUDA C): the launches and their blocks, which point each thread owns,
 * the tokens and how threads wait for them, shared memory, and the resources the static checks weigh. Made by
 * {@link GpuMapper}; printed by {@code finegrain show KERNEL --gpu-plan}.
 */
public sealed interface GpuMapping permits WavefrontMapping, DataParallelMapping, LockDataflowMapping,
        BandMapping, DynamicDataflowMapping {

    KernelGraph graph();

    GpuTarget target();

    /** The domain's extents the mapping is made for. */
    int[] sizes();

    int threadsPerBlock();

    /** One entry per launch: how many blocks it runs. */
    List<Integer> blocksPerLaunch();

    /** Shared memory, lock bits and named barriers one block claims. */
    Resources resources();

    /** The plan in one paragraph: launches, blocks, ownership, tokens and waits. */
    String launchPlan();

    /** Every decision on its own line, for {@code show --gpu-plan}. */
    String describe();

    /**
     * The state fields this mapping folds (no array over the domain; a point moves none of them) and how: nothing for
     * every mapping but the persistent bands'.
     */
    default BandFolding folding() {
        return BandFolding.NONE;
    }

    default int launches() {
        return blocksPerLaunch().size();
    }

    /**
     * Whether each launch after the first is a programmatic dependent launch: it may start before the one before it
     * has ended, its blocks waiting for that launch before they read what it wrote. Only relaunched data-parallel tiles
     * on a target that has it ({@link DataParallelMapping#programmaticLaunches}).
     */
    default boolean programmaticLaunches() {
        return false;
    }

    /**
     * Global scratch memory the launches share, zeroed before the run: word 0 the error word, word 1 an inter-block
     * barrier's counter, then whatever else the mapping keeps there (a band mapping's edge tokens, XF's flags).
     */
    default long scratchBytes() {
        return 8;
    }

    /**
     * What a block of the variant claims, in the shape of seed 001 Table 1 (registers are the emitter's to count).
     *
     * @param syncSharedBytes  shared memory spent on sync words (mutexes, flags, tokens)
     * @param dataSharedBytes  shared memory holding the tile's data
     * @param explicitLockBits lock bits the program takes with LDSLK
     * @param implicitLockBits lock bits behind shared atomics on Fermi (seed 001 Listing 1: one per mutex word)
     * @param claimedLockBits  lock bits the block holds on this machine, for occupancy and aliasing
     * @param namedBarriers    named barriers per block
     */
    record Resources(int syncSharedBytes, int dataSharedBytes, int explicitLockBits, int implicitLockBits,
                     int claimedLockBits, int namedBarriers) {

        public static final Resources NONE = new Resources(0, 0, 0, 0, 0, 0);

        public int sharedBytes() {
            return syncSharedBytes + dataSharedBytes;
        }
    }
}
