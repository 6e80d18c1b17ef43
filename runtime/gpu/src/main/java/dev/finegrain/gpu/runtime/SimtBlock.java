package dev.finegrain.gpu.runtime;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** One thread block resident on an SM: its warps, its window of the SM's shared memory, its barriers. */
public final class SimtBlock {
    private final SimtMachine machine;
    private final int id;
    private final SimtSm sm;
    private final int sharedBase;
    private final SimtMemory shared;
    private final List<SimtWarp> warps = new ArrayList<>();
    private final SimtBarrierUnit barriers;
    private final Map<Integer, int[]> mbarriers = new HashMap<>();
    /** Null when the profile makes shared stores visible at once. */
    private final SimtStoreVisibility storeVisibility;
    private final long startCycle;
    private long endCycle = -1;
    private int liveThreads;
    private int sharedBytesTouched;

    SimtBlock(SimtMachine machine, int id, SimtSm sm, int sharedBase, int sharedBytes, int threads, long startCycle) {
        this.machine = machine;
        this.id = id;
        this.sm = sm;
        this.sharedBase = sharedBase;
        this.shared = new SimtMemory(sharedBytes);
        this.barriers = new SimtBarrierUnit(this);
        int visibleCycles = machine.profile().sharedStoreVisibleCycles();
        this.storeVisibility = visibleCycles > 0 ? new SimtStoreVisibility(visibleCycles, sharedBytes, startCycle) : null;
        this.startCycle = startCycle;
        this.liveThreads = threads;
        int registers = machine.program().registerCount();
        for (int first = 0, warp = 0; first < threads; first += SimtWarp.WARP_SIZE, warp++) {
            warps.add(new SimtWarp(machine, this, warp, first, Math.min(SimtWarp.WARP_SIZE, threads - first),
                    registers));
        }
    }

    public int id() {
        return id;
    }

    public SimtSm sm() {
        return sm;
    }

    public SimtMemory shared() {
        return shared;
    }

    /** Where this block's shared window starts in the SM's shared memory: lock addresses are physical. */
    public int sharedBase() {
        return sharedBase;
    }

    public List<SimtWarp> warps() {
        return warps;
    }

    public SimtBarrierUnit barriers() {
        return barriers;
    }

    /** When shared stores become visible to the block's other threads; null when at once. */
    public SimtStoreVisibility storeVisibility() {
        return storeVisibility;
    }

    /** A barrier of the block opened: the stores before it are visible to all its threads. */
    void barrierOpened() {
        if (storeVisibility != null) {
            SimtSharedPollPort port = sm.sharedPollPort();
            storeVisibility.barrierOpened(port == null ? machine.cycle() : port.drainedBy(machine.cycle()));
        }
    }

    /** mbarrier objects by word index: expected arrivals, pending arrivals, phase. */
    public Map<Integer, int[]> mbarriers() {
        return mbarriers;
    }

    public int liveThreads() {
        return liveThreads;
    }

    public long startCycle() {
        return startCycle;
    }

    public long endCycle() {
        return endCycle;
    }

    void finish(long cycle) {
        endCycle = cycle;
    }

    public boolean isDone() {
        return liveThreads == 0;
    }

    void threadsExited(int count) {
        liveThreads -= count;
        barriers.threadsExited();
        if (liveThreads == 0) {
            machine.blockFinished();
        }
    }

    public void touchShared(int byteAddress) {
        sharedBytesTouched = Math.max(sharedBytesTouched, byteAddress + 4);
    }

    /** One past the highest shared byte the block accessed. */
    public int sharedBytesTouched() {
        return sharedBytesTouched;
    }
}
