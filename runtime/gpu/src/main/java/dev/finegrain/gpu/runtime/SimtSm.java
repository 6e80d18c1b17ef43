package dev.finegrain.gpu.runtime;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * A streaming multiprocessor: resident blocks under the occupancy limits, the lock unit they share, and a warp
 * scheduler that issues up to {@code schedulersPerSm} warps per cycle.
 */
public final class SimtSm {
    private final int id;
    private final SimtProfile profile;
    private final SimtLockUnit lockUnit;
    private final List<SimtBlock> blocks = new ArrayList<>();
    private final List<SimtWarp> warps = new ArrayList<>();
    private final BitSet usedSlots = new BitSet();
    private final BitSet lockBitsTaken = new BitSet();
    private int usedThreads;
    private int usedShared;
    private int usedLockBits;
    private int lastIssued = -1;
    private int peakResidentBlocks;

    SimtSm(int id, SimtProfile profile) {
        this.id = id;
        this.profile = profile;
        this.lockUnit = new SimtLockUnit(profile.lockBits(), profile.lockAddressShift());
    }

    public int id() {
        return id;
    }

    public SimtLockUnit lockUnit() {
        return lockUnit;
    }

    public List<SimtBlock> blocks() {
        return blocks;
    }

    boolean fits(int threads, int sharedBytes, int lockBits) {
        return blocks.size() < profile.maxBlocksPerSm() && usedThreads + threads <= profile.maxThreadsPerSm()
                && usedShared + sharedBytes <= profile.sharedBytesPerSm()
                && usedLockBits + lockBits <= profile.lockBits();
    }

    /** Places a block; its shared window is the first free slot, so blocks of one SM alias in the lock unit. */
    SimtBlock place(SimtMachine machine, int blockId, int threads, int sharedBytes, int lockBits, long cycle) {
        int slot = usedSlots.nextClearBit(0);
        usedSlots.set(slot);
        SimtBlock block = new SimtBlock(machine, blockId, this, slot * sharedBytes, sharedBytes, threads, cycle);
        blocks.add(block);
        warps.addAll(block.warps());
        usedThreads += threads;
        usedShared += sharedBytes;
        usedLockBits += lockBits;
        peakResidentBlocks = Math.max(peakResidentBlocks, blocks.size());
        return block;
    }

    void retire(SimtBlock block, int threads, int sharedBytes, int lockBits) {
        blocks.remove(block);
        warps.removeAll(block.warps());
        usedSlots.clear(block.sharedBase() / Math.max(1, sharedBytes));
        usedThreads -= threads;
        usedShared -= sharedBytes;
        usedLockBits -= lockBits;
        lastIssued = -1;
    }

    public List<SimtWarp> warps() {
        return warps;
    }

    /** The next warp to issue at {@code cycle} under the profile's policy, or null. */
    SimtWarp pick(long cycle) {
        int n = warps.size();
        if (n == 0) {
            return null;
        }
        if (profile.schedulerPolicy() == SimtProfile.SchedulerPolicy.GTO) {
            if (lastIssued >= 0 && lastIssued < n && canIssue(warps.get(lastIssued), cycle)) {
                return warps.get(lastIssued);
            }
            for (int i = 0; i < n; i++) {
                if (canIssue(warps.get(i), cycle)) {
                    lastIssued = i;
                    return warps.get(i);
                }
            }
            return null;
        }
        for (int k = 1; k <= n; k++) {
            int i = (lastIssued + k) % n;
            if (canIssue(warps.get(i), cycle)) {
                lastIssued = i;
                return warps.get(i);
            }
        }
        return null;
    }

    private static boolean canIssue(SimtWarp warp, long cycle) {
        return warp.readyAt() <= cycle && warp.runnableLanes() != 0;
    }

    public void noteLockBitTaken(int bit) {
        lockBitsTaken.set(bit);
    }

    /** Distinct lock bits taken on this SM during the run. */
    public int lockBitsEverTaken() {
        return lockBitsTaken.cardinality();
    }

    public int peakResidentBlocks() {
        return peakResidentBlocks;
    }
}
