package dev.finegrain.gpu.nodes.memory;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.isa.SimtOperand;
import dev.finegrain.gpu.nodes.expression.SimtOperandNode;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * {@code STG [addr], Rs} (also {@code ST}): a volatile global store per active lane, one access per distinct line.
 * The lines are busy for the store's service time, but the warp goes on after the issue (see
 * {@link SimtMemoryAccessNode#storeIssueCycles}). {@code STG.64} stores the pair {@code Rs:Rs+1} to an 8-byte aligned
 * address.
 */
@NodeInfo(shortName = "STG")
public final class SimtGlobalStoreNode extends SimtMemoryAccessNode {
    @Child private SimtOperandNode value;
    /** The pair's high word for STG.64, else null. */
    @Child private SimtOperandNode high;

    public SimtGlobalStoreNode(SimtInstruction instruction, SimtOperand.Address address, SimtOperandNode value,
                               SimtOperandNode high, SimtProfile profile) {
        super(instruction, address, profile);
        this.value = value;
        this.high = high;
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        int[] addresses = warp.laneAddresses();
        int count = collectAddresses(warp, active, addresses);
        int i = 0;
        for (int lanes = active; lanes != 0; lanes &= lanes - 1) {
            int lane = Integer.numberOfTrailingZeros(lanes);
            int word = globalWord(warp, lane, addresses[i++]);
            if (high != null) {
                checkPairAligned(warp, lane, addresses[i - 1]);
                if (warp.machine().global().store(word + 1, high.read(warp, lane))) {
                    warp.machine().noteProgress();
                }
            }
            if (warp.machine().global().store(word, value.read(warp, lane))) {
                warp.machine().noteProgress();
            }
        }
        fallThrough(warp);
        warp.machine().counters().globalStores += count;
        SimtGlobalLines.store(warp, addresses, count, high != null);
        return storeIssueCycles(1);
    }
}
