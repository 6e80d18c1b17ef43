package dev.finegrain.gpu.runtime;

/**
 * The SM's mbarrier unit ({@code mbarrier.addressCycles}, docs/profiles.md): it serves the barriers a warp's MBARRIER
 * instruction names one after another, {@code addressCycles} each, for all warps of the SM in turn. On the H100, W warps
 * each passing a token along their 32 lanes (31 lanes polling 31 different mbarriers with try_wait or test_wait) cost
 * about 4 cycles per hand-off for each polling lane of each warp, so the many distinct barriers of lock-dataflow
 * queue here, where one warp polling one barrier barely waits.
 */
public final class SimtMbarrierUnit {
    private final int addressCycles;
    private final SimtServiceQueue queue = new SimtServiceQueue();

    SimtMbarrierUnit(int addressCycles) {
        this.addressCycles = addressCycles;
    }

    /**
     * An instruction naming {@code barriers} distinct mbarriers reaches the unit at {@code cycle}: the cycles it waits
     * for the unit plus those the unit spends on its barriers after the first (the first is in latency.mbarrier).
     */
    public int serve(long cycle, int barriers) {
        if (addressCycles == 0 || barriers == 0) {
            return 0;
        }
        return queue.enter(cycle, (double) addressCycles * barriers) + addressCycles * (barriers - 1);
    }
}
