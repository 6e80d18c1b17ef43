package dev.finegrain.gpu.nodes.controlflow;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.nodes.SimtInstructionNode;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtWarp;

/** {@code SSY target}: lanes that later SYNC (or execute a {@code .S} instruction) meet again at {@code target}. */
@NodeInfo(shortName = "SSY")
public final class SimtSsyNode extends SimtInstructionNode {
    private final int target;
    private final int latency;

    public SimtSsyNode(SimtInstruction instruction, int target, SimtProfile profile) {
        super(instruction);
        this.target = target;
        this.latency = profile.branchLatency();
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        warp.divergence().setSynchronizationPoint(target);
        return latency;
    }
}
