package dev.finegrain.gpu.runtime;

/**
 * The shared-memory lock unit of one SM (seed 001 §3): a lock bit per lock address, 1 (free) by default. LDSLK
 * clears the bit and reports whether it was free; STSUL sets it. The lock address is taken from the physical byte
 * address (bits {@code shift} and up, as many as there are bits), so words a lock-bit count apart alias to one bit.
 *
 * <p>The hardware does not track owners; the model remembers who took each bit, and through which address, only to
 * explain deadlocks.
 */
public final class SimtLockUnit {
    private final boolean[] taken;
    private final SimtThread[] holder;
    private final int[] holderAddress;
    private final int shift;

    public SimtLockUnit(int bits, int shift) {
        this.taken = new boolean[bits];
        this.holder = new SimtThread[bits];
        this.holderAddress = new int[bits];
        this.shift = shift;
    }

    public int lockAddress(int physicalByteAddress) {
        return (physicalByteAddress >>> shift) & (taken.length - 1);
    }

    /** Whether LDSLK would find the bit cleared (someone took it). */
    public boolean isTaken(int bit) {
        return taken[bit];
    }

    /**
     * LDSLK on a free bit: {@code thread} takes it. Apart from {@link #isTaken}, so that a failed attempt (most of
     * them, in a spin loop) does not name its thread.
     */
    public void take(int bit, SimtThread thread, int blockByteAddress) {
        taken[bit] = true;
        holder[bit] = thread;
        holderAddress[bit] = blockByteAddress;
    }

    /** STSUL: frees the bit, whoever took it (the hardware cannot tell). */
    public void release(int bit) {
        taken[bit] = false;
        holder[bit] = null;
    }

    public SimtThread holder(int bit) {
        return holder[bit];
    }

    /** The block-relative byte address through which the holder took the bit. */
    public int holderAddress(int bit) {
        return holderAddress[bit];
    }
}
