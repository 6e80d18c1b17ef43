package dev.finegrain.gpu.nodes.memory;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.isa.SimtOperand;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtWarp;

/** {@code LDS Rd, [addr]}: loads a shared word per active lane; bank conflicts replay. */
@NodeInfo(shortName = "LDS")
public final class SimtLdsNode extends SimtMemoryAccessNode {
    private final int destination;

    public SimtLdsNode(SimtInstruction instruction, int destination, SimtOperand.Address address,
                       SimtProfile profile) {
        super(instruction, address, profile);
        this.destination = destination;
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        int[] addresses = warp.laneAddresses();
        int count = collectAddresses(warp, active, addresses);
        int i = 0;
        for (int lanes = active; lanes != 0; lanes &= lanes - 1) {
            int lane = Integer.numberOfTrailingZeros(lanes);
            int word = sharedWord(warp, lane, addresses[i++]);
            warp.writeRegister(lane, destination, warp.block().shared().load(word));
        }
        fallThrough(warp);
        if (count == 0) {
            return issueCycles;
        }
        int degree = warp.machine().costs().bankConflictDegree(addresses, count);
        warp.machine().counters().sharedLoads += count;
        warp.machine().counters().sharedBankConflictReplays += degree - 1;
        return issueLoad(warp, destination, count, sharedAccessCycles(degree));
    }
}
