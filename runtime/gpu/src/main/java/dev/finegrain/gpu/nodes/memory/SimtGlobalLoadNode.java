package dev.finegrain.gpu.nodes.memory;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.isa.SimtOperand;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtWarp;

/** {@code LDG Rd, [addr]} (also {@code LD}): a volatile global load per active lane, one access per distinct line. */
@NodeInfo(shortName = "LDG")
public final class SimtGlobalLoadNode extends SimtMemoryAccessNode {
    private final int destination;

    public SimtGlobalLoadNode(SimtInstruction instruction, int destination, SimtOperand.Address address,
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
            int word = globalWord(warp, lane, addresses[i++]);
            warp.writeRegister(lane, destination, warp.machine().global().load(word));
        }
        fallThrough(warp);
        warp.machine().counters().globalLoads += count;
        return issueLoad(warp, destination, count, SimtGlobalLines.volatileCycles(warp, addresses, count));
    }
}
