package dev.finegrain.gpu.nodes.memory;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.isa.SimtOperand;
import dev.finegrain.gpu.nodes.expression.SimtOperandNode;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtWarp;

/** {@code STS [addr], Rs}: stores a shared word per active lane (lanes in order, so the highest lane wins a tie). */
@NodeInfo(shortName = "STS")
public final class SimtStsNode extends SimtMemoryAccessNode {
    @Child private SimtOperandNode value;

    public SimtStsNode(SimtInstruction instruction, SimtOperand.Address address, SimtOperandNode value,
                       SimtProfile profile) {
        super(instruction, address, profile);
        this.value = value;
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        int[] addresses = warp.laneAddresses();
        int count = collectAddresses(warp, active, addresses);
        int i = 0;
        for (int lanes = active; lanes != 0; lanes &= lanes - 1) {
            int lane = Integer.numberOfTrailingZeros(lanes);
            int word = sharedWord(warp, lane, addresses[i++]);
            if (warp.block().shared().store(word, value.read(warp, lane))) {
                warp.machine().noteProgress();
            }
        }
        fallThrough(warp);
        if (count == 0) {
            return issueCycles;
        }
        int degree = warp.machine().costs().bankConflictDegree(addresses, count);
        warp.machine().counters().sharedStores += count;
        warp.machine().counters().sharedBankConflictReplays += degree - 1;
        return storeIssueCycles(degree);
    }
}
