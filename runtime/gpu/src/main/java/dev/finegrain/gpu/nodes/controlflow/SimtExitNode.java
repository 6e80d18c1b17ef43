package dev.finegrain.gpu.nodes.controlflow;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.nodes.SimtInstructionNode;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtWarp;

/** {@code EXIT}: the active lanes finish; also what lanes reach after the last instruction. */
@NodeInfo(shortName = "EXIT")
public final class SimtExitNode extends SimtInstructionNode {
    private final int latency;

    public SimtExitNode(SimtInstruction instruction, SimtProfile profile) {
        super(instruction);
        this.latency = profile.branchLatency();
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        warp.exit(active);
        return latency;
    }
}
