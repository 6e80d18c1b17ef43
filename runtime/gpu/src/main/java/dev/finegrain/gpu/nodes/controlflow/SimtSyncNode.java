package dev.finegrain.gpu.nodes.controlflow;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.nodes.SimtInstructionNode;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * {@code SYNC}: the active lanes go to the innermost SSY target, where under Fermi they wait for the rest of the
 * SSY's lanes; without an SSY it falls through.
 */
@NodeInfo(shortName = "SYNC")
public final class SimtSyncNode extends SimtInstructionNode {
    private final int latency;

    public SimtSyncNode(SimtInstruction instruction, SimtProfile profile) {
        super(instruction);
        this.latency = profile.branchLatency();
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        warp.divergence().sync(active);
        return latency;
    }
}
