package dev.finegrain.gpu.runtime;

/**
 * Where the lanes of one warp are and which of them issue next: {@link SimtReconvergenceStack} for Fermi,
 * {@link SimtIndependentThreads} for independent thread scheduling. Instruction nodes move lanes only through
 * these operations; {@code group} is always the lanes the last {@link #selectGroup} chose.
 */
public sealed interface SimtDivergence permits SimtReconvergenceStack, SimtIndependentThreads {

    /** Chooses the lanes to issue next among {@code runnable}; false when none of them can issue. */
    boolean selectGroup(int runnable);

    /** Instruction index the chosen group is at. */
    int groupPc();

    /** Lanes of the chosen group. */
    int groupMask();

    /** The whole group moves to the next instruction. */
    void advance();

    /** The whole group branches to {@code target}. */
    void jump(int target);

    /** The group splits: {@code taken} lanes go to {@code target}, the others fall through. */
    void branch(int taken, int target, int reconvergence);

    /** SSY: lanes that SYNC from here on meet again at {@code target}. */
    void setSynchronizationPoint(int target);

    /** SYNC (or {@code .S}): {@code lanes} of the group go to the innermost SSY target; the rest advance. */
    void sync(int lanes);

    /** {@code lanes} of the group exit; the rest advance. */
    void exit(int lanes);

    /**
     * {@code lanes} of the group are suspended by the lock box at the next instruction; the rest of the group moves to
     * the next instruction. Under Fermi the suspended lanes leave the stack's top entry and are parked until
     * {@link #resume}; under independent thread scheduling they only wait (the warp does not offer them).
     */
    void suspend(int lanes);

    /**
     * Suspended {@code lanes} issue again from where they were suspended. Under Fermi they re-enter the stack as a path
     * of their own on top, which meets the others where the entry they left would have (its reconvergence point).
     */
    void resume(int lanes);

    /**
     * Whether {@link #selectGroup} would find a group among {@code runnable}, without choosing it: under Fermi, the
     * top entry's lanes must all be runnable (an entry that waits for a suspended lane cannot issue).
     */
    boolean canIssue(int runnable);

    /**
     * The group stays where it is, waiting for the warp's other lanes to come to it; returns whether they can. Under
     * independent thread scheduling they can, and the next issue goes to a group after this one, as after a backward
     * branch, so that lanes still in a loop come round; under Fermi's stack the lanes of other paths cannot come before
     * this path reconverges.
     */
    default boolean waitForOthers() {
        return false;
    }

    /** Lanes that have not exited. */
    int alive();

    /** Instruction index where {@code lane} is, for reports. */
    int pcOf(int lane);

    /**
     * Whether {@code lane} is parked waiting for other lanes of its warp to reconverge (Fermi); never under
     * independent thread scheduling, where every lane keeps its own program counter.
     */
    boolean isMaskedOff(int lane);
}
