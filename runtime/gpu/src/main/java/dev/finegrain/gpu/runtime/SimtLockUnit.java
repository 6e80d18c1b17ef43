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

    public boolean present() {
        return taken.length > 0;
    }

    public int lockAddress(int physicalByteAddress) {
        return (physicalByteAddress >>> shift) & (taken.length - 1);
    }

    /** LDSLK: takes the bit if it is free; returns whether it was. */
    public boolean tryTake(int bit, SimtThread thread, int blockByteAddress) {
        if (taken[bit]) {
            return false;
        }
        taken[bit] = true;
        holder[bit] = thread;
        holderAddress[bit] = blockByteAddress;
        return true;
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
