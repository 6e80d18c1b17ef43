package dev.finegrain.compiler.backend.gpu.machine;

import dev.finegrain.dsl.GridBarrier;
import dev.finegrain.gpu.SimMode;
import dev.finegrain.gpu.runtime.SimtProfile;

/**
 * What a GPU mapping needs to know of a machine, whichever emitter spells the mapping: the model's profiles and real
 * GPUs alike.
 *
 * @param name                        the machine's name, e.g. {@code fermi-gtx570} or {@code sm_90}
 * @param called                      how a sentence names it, e.g. {@code profile fermi-gtx570}
 * @param maxThreadsPerBlock          threads one block may have
 * @param sharedBytesPerBlock         shared memory one block may claim
 * @param lockBits                    Fermi's shared-memory lock bits per SM (0: the machine has none)
 * @param reconvergesWarps            whether a warp's lanes reconverge after divergence (Fermi's stack), which a
 *                                    warp's representative relies on to publish for the whole warp; false under
 *                                    independent thread scheduling (Volta and later)
 * @param hasMbarrier                 Hopper's shared-memory transaction barriers
 * @param sharedAtomicsAsLockLoops    shared atomics compile to loops on the word's lock bit (Fermi), so a mutex
 *                                    word claims a lock bit too
 * @param smCount                     streaming multiprocessors, for persistent grids
 * @param maxThreadsPerSm             resident threads per SM
 * @param maxBlocksPerSm              resident blocks per SM
 * @param lockBitsAsWords             the emitter keeps a lock-bit token as a word of its own on machines without lock
 *                                    bits: a ready bit beside a 32-bit value in one 64-bit word (tiny-lock), a flag word
 *                                    per warp (warp vote)
 * @param mbarrierBytes               how many bytes one mbarrier takes in shared memory
 * @param warpShuffle                 whether a lane can read another lane's register (shfl.sync), which carries values
 *                                    along a band of lock-dataflow:persistent
 * @param sharedBytesPerSm            shared memory of one SM, which its resident blocks divide
 * @param sharedBytesPerBlockOptIn    the most one block may claim when it asks for more than the default
 *                                    ({@code cudaFuncAttributeMaxDynamicSharedMemorySize})
 * @param asyncCopy                   copies from global to shared memory that run while the warp computes (cp.async)
 * @param lockBox                     a lock-box unit per SM (Tullsen et al.): an acquire that finds its lock held
 *                                    suspends the lane until a release grants it (a model profile's experiment; no
 *                                    real GPU has one)
 * @param cooperativeLaunch           a launch whose blocks are guaranteed co-resident and may meet at the grid-wide
 *                                    barrier of the hardware and driver ({@code cudaLaunchCooperativeKernel},
 *                                    {@code grid.sync()})
 * @param defaultGridBarrier          the inter-block barrier a wavefront takes when its schedule names none: the best
 *                                    measured on the machine
 * @param defaultGridBarrierSource    where that choice comes from, for {@code show --gpu-plan}
 * @param nanosleep                   a warp can sleep a given number of nanoseconds ({@code __nanosleep}, NANOSLEEP)
 * @param defaultMutex                how the spin-locks take their lock when the schedule names no mutex: the best
 *                                    measured on the machine
 * @param defaultMutexSource          where that choice comes from, for {@code show --gpu-plan}
 * @param dpx                         Hopper's DPX instructions: an int max of a sum in one instruction
 *                                    ({@link dev.finegrain.compiler.backend.gpu.DpxForms})
 * @param byteLoads                   loads of one byte, sign-extended: an input declared {@link dev.finegrain.dsl.Storage#BYTE}
 *                                    lies in device memory a byte an element ({@link dev.finegrain.compiler.backend.gpu.DeviceStorage});
 *                                    every real GPU has them, the model's ISA loads whole words only
 * @param bandHelpers                 a persistent band that moves rows through shared memory may take two helper warps
 *                                    ({@link dev.finegrain.compiler.backend.gpu.BandMapping#helpers}): the CUDA backend's
 *                                    bands; the model's band runs as one warp
 * @param reservedSharedBytesPerBlock shared memory the hardware keeps in every resident block beside what the block
 *                                    claims (1 KB from compute capability 8.0 on; none in the model's profiles)
 * @param programmaticLaunch          a launch may start before the kernel before it on the stream has ended, its blocks
 *                                    waiting for that kernel's end where they read what it wrote (programmatic
 *                                    dependent launch, sm_90 on: {@code griddepcontrol}; a model profile's
 *                                    {@code feature.programmaticLaunch})
 */
public record GpuTarget(String name, String called, int maxThreadsPerBlock, int sharedBytesPerBlock, int lockBits,
                        boolean reconvergesWarps, boolean hasMbarrier, boolean sharedAtomicsAsLockLoops, int smCount,
                        int maxThreadsPerSm, int maxBlocksPerSm, boolean lockBitsAsWords, int mbarrierBytes,
                        boolean warpShuffle, int sharedBytesPerSm, int sharedBytesPerBlockOptIn, boolean asyncCopy,
                        boolean lockBox, boolean cooperativeLaunch, GridBarrier defaultGridBarrier,
                        String defaultGridBarrierSource, boolean nanosleep, dev.finegrain.dsl.Mutex defaultMutex,
                        String defaultMutexSource, boolean dpx, boolean byteLoads, boolean bandHelpers,
                        int reservedSharedBytesPerBlock, boolean programmaticLaunch) {

    /** Threads per warp, on every NVIDIA GPU the project models. */
    public static final int WARP = 32;
    /** Named barriers per block (bar.sync/bar.arrive ids 0..15). */
    public static final int NAMED_BARRIERS = 16;

    /** Bytes a value of this type takes in memory: bools are stored as ints. */
    public static int elementBytes(dev.finegrain.dsl.Type type) {
        return type == dev.finegrain.dsl.Type.LONG || type == dev.finegrain.dsl.Type.DOUBLE ? 8 : 4;
    }

    /** The machine a GPU-model profile describes, in the mode its programs run in by default. */
    public static GpuTarget of(SimtProfile profile) {
        return new GpuTarget(profile.name(), "profile " + profile.name(), profile.maxThreadsPerBlock(),
                profile.sharedBytesPerSm(), profile.lockBits(), profile.defaultMode() != SimMode.ITS, profile.hasMbarrier(),
                profile.sharedAtomicsAsLockLoops(), profile.smCount(), profile.maxThreadsPerSm(), profile.maxBlocksPerSm(),
                profile.lockBits() == 0, 4, profile.hasWarpShuffle(), profile.sharedBytesPerSm(), profile.sharedBytesPerSm(), profile.hasAsyncCopy(), profile.hasLockBox(), false,
                GridBarrier.fromCliName(profile.defaultGridBarrier()).orElseThrow(),
                "profile " + profile.name() + "'s default.gridBarrier, the best measured on its machine",
                profile.hasNanosleep(), dev.finegrain.dsl.Mutex.fromCliName(profile.defaultMutex()).orElseThrow(),
                "profile " + profile.name() + "'s default.mutex", profile.hasDpx(), false, false, 0, profile.hasProgrammaticLaunch());
    }

    /**
     * Blocks of {@code threads} threads, each claiming {@code sharedBytes} of shared memory, that one SM holds at once:
     * the least of the block limit, the thread limit and the shared memory (with what the hardware keeps per block).
     */
    public int residentBlocksPerSm(int threads, int sharedBytes) {
        // the hardware keeps its reserve in every resident block, one that claims nothing included
        int perBlock = sharedBytes + reservedSharedBytesPerBlock;
        int byShared = perBlock == 0 ? Integer.MAX_VALUE : sharedBytesPerSm / perBlock;
        return Math.min(maxBlocksPerSm, Math.min(maxThreadsPerSm / threads, byShared));
    }
}
