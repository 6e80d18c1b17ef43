package dev.finegrain.gpu.nodes.memory;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.isa.SimtOperand;
import dev.finegrain.gpu.nodes.expression.SimtOperandNode;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtSharedPollPort;
import dev.finegrain.gpu.runtime.SimtStoreVisibility;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * {@code STS [addr], Rs}: stores a shared word per active lane (lanes in order, so the highest lane wins a tie).
 * {@code STS.64} stores the pair {@code Rs:Rs+1} to an 8-byte aligned address, one pass more than {@code STS}.
 * Other threads see the store when {@link SimtStoreVisibility} says, counted from when the SM's shared port takes it
 * ({@link SimtSharedPollPort}).
 */
@NodeInfo(shortName = "STS")
public final class SimtStsNode extends SimtMemoryAccessNode {
    @Child private SimtOperandNode value;
    /** The pair's high word for STS.64, else null. */
    @Child private SimtOperandNode high;

    public SimtStsNode(SimtInstruction instruction, SimtOperand.Address address, SimtOperandNode value,
                       SimtOperandNode high, SimtProfile profile) {
        super(instruction, address, profile);
        this.value = value;
        this.high = high;
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        int[] addresses = warp.laneAddresses();
        int count = collectAddresses(warp, active, addresses);
        SimtStoreVisibility visibility = warp.block().storeVisibility();
        long cycle = warp.machine().cycle() + pollPortStoreWait(warp, count);
        int i = 0;
        for (int lanes = active; lanes != 0; lanes &= lanes - 1) {
            int lane = Integer.numberOfTrailingZeros(lanes);
            int word = sharedWord(warp, lane, addresses[i++]);
            if (high != null) {
                // a misaligned or out-of-range pair faults here, before its second word is recorded anywhere
                checkPairAligned(warp, lane, addresses[i - 1]);
                if (warp.block().shared().store(word + 1, high.read(warp, lane))) {
                    warp.machine().noteProgress();
                }
            }
            if (warp.block().shared().store(word, value.read(warp, lane))) {
                warp.machine().noteProgress();
            }
            if (visibility != null) {
                int thread = warp.threadIndex(lane);
                visibility.stored(word, thread, cycle);
                if (high != null) {
                    visibility.stored(word + 1, thread, cycle);
                }
            }
        }
        fallThrough(warp);
        if (count == 0) {
            return issueCycles;
        }
        int degree = warp.machine().costs().bankConflictDegree(addresses, count) + (high != null ? 1 : 0);
        warp.machine().counters().sharedStores += count;
        warp.machine().counters().sharedBankConflictReplays += degree - 1;
        return sharedPortWait(warp, degree) + storeIssueCycles(degree);
    }
}
