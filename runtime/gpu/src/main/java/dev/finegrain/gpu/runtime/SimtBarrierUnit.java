package dev.finegrain.gpu.runtime;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import dev.finegrain.gpu.SimMode;

import java.util.ArrayList;
import java.util.List;

/**
 * The named barriers of one block (16, as in PTX). BAR.SYNC and BAR.RED wait, BAR.ARRIVE only counts. A barrier
 * opens when the arrived threads reach its count; without a count it waits for every thread of the block that has
 * not exited. Under Fermi a warp arrives for all its live lanes at once; under independent thread scheduling each
 * lane counts for itself.
 */
public final class SimtBarrierUnit {
    public static final int BARRIERS = 16;

    private final SimtBlock block;
    private final int[] arrived = new int[BARRIERS];
    private final int[] expected = new int[BARRIERS];
    private final int[] reduction = new int[BARRIERS];
    private final List<List<Waiter>> waiters = new ArrayList<>();

    private record Waiter(SimtWarp warp, int lanes, int reductionRegister) {
    }

    SimtBarrierUnit(SimtBlock block) {
        this.block = block;
        for (int i = 0; i < BARRIERS; i++) {
            waiters.add(new ArrayList<>());
        }
    }

    /**
     * Records the arrival of {@code lanes} of {@code warp} at barrier {@code id} (the instruction at
     * {@code instructionIndex}). {@code count} 0 means the whole
     * block; {@code wait} parks the lanes until it opens; a reduction register receives the block-wide population
     * count of {@code reductionLanes} (-1 for none).
     */
    @TruffleBoundary
    public void arrive(SimtWarp warp, int instructionIndex, int lanes, int id, int count, boolean wait,
                       int reductionRegister, int reductionLanes) {
        SimtMachine machine = warp.machine();
        int contribution = machine.mode() == SimMode.FERMI ? Integer.bitCount(warp.divergence().alive())
                : Integer.bitCount(lanes);
        arrived[id] += contribution;
        reduction[id] += Integer.bitCount(reductionLanes);
        if (count > 0) {
            expected[id] = count;
        }
        machine.counters().barrierArrivals++;
        machine.noteProgress();
        if (wait) {
            waiters.get(id).add(new Waiter(warp, lanes, reductionRegister));
            warp.waitAtBarrier(lanes, id, instructionIndex);
            machine.counters().barrierWaits++;
        }
        openIfComplete(id);
    }

    /** Re-checks barriers that wait for the whole block, after threads exit. */
    @TruffleBoundary
    public void threadsExited() {
        for (int id = 0; id < BARRIERS; id++) {
            if (arrived[id] > 0) {
                openIfComplete(id);
            }
        }
    }

    /** Threads arrived and threads awaited at barrier {@code id}, for deadlock reports. */
    public String describe(int id) {
        return "barrier " + id + " (" + arrived[id] + " of " + threshold(id) + " threads arrived)";
    }

    private int threshold(int id) {
        return expected[id] > 0 ? expected[id] : block.liveThreads();
    }

    private void openIfComplete(int id) {
        if (arrived[id] < threshold(id)) {
            return;
        }
        int total = reduction[id];
        for (Waiter waiter : waiters.get(id)) {
            if (waiter.reductionRegister >= 0) {
                for (int lanes = waiter.lanes; lanes != 0; lanes &= lanes - 1) {
                    waiter.warp.writeRegister(Integer.numberOfTrailingZeros(lanes), waiter.reductionRegister, total);
                }
            }
            waiter.warp.leaveBarrier(waiter.lanes);
        }
        waiters.get(id).clear();
        block.barrierOpened();
        arrived[id] = 0;
        expected[id] = 0;
        reduction[id] = 0;
    }
}
