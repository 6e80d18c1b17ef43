package dev.finegrain.compiler.backend.gpu.primitive;

/**
 * Where the benchmark keeps its words in global memory (byte addresses), and which registers the programs share.
 * Each word the blocks contend for has a 128-byte line of its own (the largest line of the profiles), so a primitive's
 * words never share a line by accident; each block's private word (what a backoff reads) is 256 bytes from the next,
 * as the paper's noncontentious accesses are.
 *
 * <p>Registers of every program: R0 thread, R1 block, R2 blocks in the grid, R3 operations left, R4 the step (a
 * barrier's goal), R5 the constant 1, R6 the block's private word, R7 four times the block, R8 the primitive's
 * capacity (1 for a mutex, the initial value of a semaphore), R33 threads per block; P0 marks the block's master
 * thread (thread 0). A primitive uses R10 to R19 and P1 to P3; the backoff R20 to R23 and P5; the checks R24 to R29
 * and P4; the XF barrier's loops R30 to R32.
 */
public final class PrimitiveLayout {
    /** Counts violations the checking run saw (too many holders, a barrier phase passed early). */
    public static final int ERROR = 0x0;
    /** The critical section's counter: plain increments under a mutex, atomic ones under a semaphore. */
    public static final int COUNTER = 0x80;
    /** How many blocks are inside right now (checking runs). */
    public static final int HOLDERS = 0x100;
    /** Barrier arrivals, counted atomically before each barrier (checking runs). */
    public static final int ARRIVALS = 0x180;
    /** The primitive's first word: the lock, the ticket counter, the semaphore, the barrier counter. */
    public static final int WORD_A = 0x1000;
    /** The primitive's second word: the turn, the semaphore's ticket. */
    public static final int WORD_B = 0x1080;
    /** The primitive's third word: the semaphore's turn. */
    public static final int WORD_C = 0x1100;
    /**
     * The XF barrier's flags: a word per block for its arrival, then a word per block for its release, as the
     * wavefront's {@code fg::xf_grid_barrier} keeps them (so the release flags start {@code 4 x blocks} bytes later).
     */
    public static final int XF_FLAGS = 0x2000;
    /** Each block's private word, 256 bytes apart. */
    public static final int PRIVATE = 0x10000;
    /** The most blocks the layout has flags and private words for. */
    public static final int MAX_BLOCKS = (PRIVATE - XF_FLAGS) / 8;
    /** Global memory the programs need. */
    public static final int GLOBAL_BYTES = PRIVATE + 256 * MAX_BLOCKS;

    private PrimitiveLayout() {
    }
}
