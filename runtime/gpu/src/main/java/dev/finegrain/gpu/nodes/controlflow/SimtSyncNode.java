package dev.finegrain.gpu.nodes.controlflow;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.nodes.SimtInstructionNode;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * {@code SYNC}: the active lanes go to the innermost SSY target, where under Fermi they wait for the rest of the
 * SSY's lanes; without an SSY it falls through.
 */
@NodeInfo(shortName = "SYNC")
public final class SimtSyncNode extends SimtInstructionNode {
    public SimtSyncNode(SimtInstruction instruction) {
        super(instruction);
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        warp.divergence().sync(active);
        return warp.machine().profile().branchLatency();
    }
}
