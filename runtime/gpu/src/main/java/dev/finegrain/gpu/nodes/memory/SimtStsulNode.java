package dev.finegrain.gpu.nodes.memory;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.isa.SimtOperand;
import dev.finegrain.gpu.nodes.expression.SimtOperandNode;
import dev.finegrain.gpu.runtime.SimtLockUnit;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtSharedPollPort;
import dev.finegrain.gpu.runtime.SimtStoreVisibility;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * {@code STSUL [addr], Rs} (seed 001 §3.2): stores the word and sets the address's lock bit back to 1 (free). The
 * hardware does not check who took the bit, and neither does the model. Its store reaches other threads as an STS
 * does ({@link SimtStoreVisibility}, {@link SimtSharedPollPort}).
 */
@NodeInfo(shortName = "STSUL")
public final class SimtStsulNode extends SimtMemoryAccessNode {
    @Child private SimtOperandNode value;
    private final boolean hasLockUnit;

    public SimtStsulNode(SimtInstruction instruction, SimtOperand.Address address, SimtOperandNode value,
                         SimtProfile profile) {
        super(instruction, address, profile);
        this.value = value;
        this.hasLockUnit = profile.lockBits() > 0;
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        SimtLockUnit locks = warp.block().sm().lockUnit();
        int[] addresses = warp.laneAddresses();
        int count = collectAddresses(warp, active, addresses);
        SimtStoreVisibility visibility = warp.block().storeVisibility();
        long cycle = warp.machine().cycle() + pollPortStoreWait(warp, count);
        int i = 0;
        for (int lanes = active; lanes != 0; lanes &= lanes - 1, i++) {
            int lane = Integer.numberOfTrailingZeros(lanes);
            int word = sharedWord(warp, lane, addresses[i]);
            if (!hasLockUnit) {
                throw missingFeature(warp, lane, "lock unit");
            }
            if (visibility != null) {
                visibility.stored(word, warp.threadIndex(lane), cycle);
            }
            if (warp.block().shared().store(word, value.read(warp, lane))) {
                warp.machine().noteProgress();
            }
            locks.release(locks.lockAddress(warp.block().sharedBase() + addresses[i]));
        }
        fallThrough(warp);
        if (count == 0) {
            return issueCycles;
        }
        warp.machine().counters().lockReleases += count;
        warp.machine().counters().sharedStores += count;
        int degree = warp.machine().costs().bankConflictDegree(addresses, count);
        warp.machine().counters().sharedBankConflictReplays += degree - 1;
        return sharedPortWait(warp, degree) + storeIssueCycles(degree);
    }
}
