package dev.finegrain.gpu.nodes.sync;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.isa.SimtOperand;
import dev.finegrain.gpu.nodes.memory.SimtMemoryAccessNode;
import dev.finegrain.gpu.runtime.SimtCounters;
import dev.finegrain.gpu.runtime.SimtLockBox;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * The lock box's instructions (Tullsen et al.; profiles with {@code feature.lockBox}), on the lock of a block-relative
 * shared byte address, lanes in lane order. {@code LBACQ [a]}: a lane that finds the lock free takes it; one that finds
 * it held is queued and suspended ({@link SimtWarp#suspendOnLockBox}) until a release grants it the lock, then issues
 * the next instruction after the restart penalty. {@code LBREL [a]}: hands the lock to the oldest waiter, or frees it.
 * Each costs one issue (an ALU instruction's latency); the lock box is beside the shared-memory banks, not through
 * them, so neither passes the SM's shared port.
 */
@NodeInfo(shortName = "LBACQ/LBREL")
public final class SimtLockBoxNode extends SimtMemoryAccessNode {
    private final boolean acquire;
    private final boolean hasLockBox;

    public SimtLockBoxNode(SimtInstruction instruction, boolean acquire, SimtOperand.Address address,
                           SimtProfile profile) {
        super(instruction, address, profile);
        this.acquire = acquire;
        this.hasLockBox = profile.hasLockBox();
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        if (active == 0) {
            fallThrough(warp);
            return issueCycles;
        }
        if (!hasLockBox) {
            throw missingFeature(warp, Integer.numberOfTrailingZeros(active), "lock box (feature.lockBox)");
        }
        SimtLockBox lockBox = warp.block().sm().lockBox();
        SimtCounters counters = warp.machine().counters();
        int[] addresses = warp.laneAddresses();
        long cycle = warp.machine().cycle();
        int suspended = 0;
        int i = 0;
        for (int lanes = active; lanes != 0; lanes &= lanes - 1, i++) {
            int lane = Integer.numberOfTrailingZeros(lanes);
            int address = byteAddress(warp, lane);
            sharedWord(warp, lane, address);
            addresses[i] = address;
            if (acquire) {
                counters.lockBoxAcquires++;
                if (!lockBox.acquire(warp, lane, address)) {
                    suspended |= 1 << lane;
                    counters.lockBoxSuspensions++;
                }
            } else {
                counters.lockBoxReleases++;
                if (lockBox.release(warp, lane, address, cycle)) {
                    counters.lockBoxGrants++;
                    // a lock handed to a waiting lane is progress, as a barrier that opens
                    warp.machine().noteProgress();
                }
            }
        }
        if (suspended != 0) {
            warp.suspendOnLockBox(suspended, active, addresses, instruction.index());
        } else {
            fallThrough(warp);
        }
        return issueCycles;
    }
}
