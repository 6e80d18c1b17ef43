package dev.finegrain.gpu.runtime;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * A streaming multiprocessor: resident blocks under the occupancy limits, the lock, lock-box and mbarrier units and the
 * shared-memory port they share, and a warp scheduler that issues up to {@code schedulersPerSm} warps per cycle.
 */
public final class SimtSm {
    private final int id;
    private final SimtProfile profile;
    private final SimtLockUnit lockUnit;
    private final SimtMbarrierUnit mbarrierUnit;
    /** Null when the profile has no lock box. */
    private final SimtLockBox lockBox;
    private final SimtSharedPort sharedPort;
    /** Null when the profile has no shared poll port. */
    private final SimtSharedPollPort sharedPollPort;
    private final SimtWarpScheduler scheduler;
    private final List<SimtBlock> blocks = new ArrayList<>();
    private final List<SimtWarp> warps = new ArrayList<>();
    private final BitSet usedSlots = new BitSet();
    /** Lock bits taken at least once; a flat array, since every successful LDSLK lane marks one. */
    private final boolean[] lockBitsTaken;
    private int lockBitsEverTaken;
    private int usedThreads;
    private int usedShared;
    private int usedLockBits;
    private int peakResidentBlocks;
    /** When this SM's memory port has sent every sector given to it, in the cost model's ticks. */
    private long sectorPortFreeAt;
    /** Null when the profile has no read-only cache. */
    private final SimtReadOnlyCache readOnlyCache;

    SimtSm(int id, SimtProfile profile) {
        this.id = id;
        this.profile = profile;
        this.lockUnit = new SimtLockUnit(profile.lockBits(), profile.lockAddressShift());
        this.scheduler = new SimtWarpScheduler(profile.schedulerPolicy());
        this.mbarrierUnit = new SimtMbarrierUnit(profile.mbarrierAddressCycles());
        this.lockBox = profile.hasLockBox() ? new SimtLockBox(profile.lockBoxRestartCycles()) : null;
        this.sharedPort = profile.sharedPortCycles() > 0 ? new SimtSharedPort(profile.sharedPortCycles()) : null;
        this.sharedPollPort = profile.sharedPollCycles() > 0 ? new SimtSharedPollPort(profile.sharedPollCycles()) : null;
        this.lockBitsTaken = new boolean[profile.lockBits()];
        this.readOnlyCache = profile.readOnlyCacheLines() > 0
                ? new SimtReadOnlyCache(profile.readOnlyCacheLines(), profile.globalLineBytes()) : null;
    }

    /** The read-only data cache ({@code LDG.CONSTANT}); null when the profile has none. */
    public SimtReadOnlyCache readOnlyCache() {
        return readOnlyCache;
    }

    public int id() {
        return id;
    }

    public SimtLockUnit lockUnit() {
        return lockUnit;
    }

    public SimtMbarrierUnit mbarrierUnit() {
        return mbarrierUnit;
    }

    /** The lock box (LBACQ, LBREL); null when the profile has none. */
    public SimtLockBox lockBox() {
        return lockBox;
    }

    /** The shared-memory port every access queues for; null when the profile has none. */
    public SimtSharedPort sharedPort() {
        return sharedPort;
    }

    /** The shared-memory port that polls queue for; null when the profile has none. */
    public SimtSharedPollPort sharedPollPort() {
        return sharedPollPort;
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
        if (lockBox != null) {
            lockBox.resetWindow(slot * sharedBytes, sharedBytes);
        }
        blocks.add(block);
        warps.addAll(block.warps());
        scheduler.reset(warps, List.of());
        usedThreads += threads;
        usedShared += sharedBytes;
        usedLockBits += lockBits;
        peakResidentBlocks = Math.max(peakResidentBlocks, blocks.size());
        return block;
    }

    void retire(SimtBlock block, int threads, int sharedBytes, int lockBits) {
        blocks.remove(block);
        warps.removeAll(block.warps());
        scheduler.reset(warps, block.warps());
        usedSlots.clear(block.sharedBase() / Math.max(1, sharedBytes));
        usedThreads -= threads;
        usedShared -= sharedBytes;
        usedLockBits -= lockBits;
    }

    SimtWarpScheduler scheduler() {
        return scheduler;
    }

    public void noteLockBitTaken(int bit) {
        if (!lockBitsTaken[bit]) {
            lockBitsTaken[bit] = true;
            lockBitsEverTaken++;
        }
    }

    /** Distinct lock bits taken on this SM during the run. */
    public int lockBitsEverTaken() {
        return lockBitsEverTaken;
    }

    long sectorPortFreeAt() {
        return sectorPortFreeAt;
    }

    void sectorPortBusyUntil(long ticks) {
        sectorPortFreeAt = ticks;
    }

    public int peakResidentBlocks() {
        return peakResidentBlocks;
    }
}
