package dev.finegrain.gpu.nodes.sync;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.nodes.SimtInstructionNode;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * {@code MEMBAR[.CTA|.GL|.SYS]}: the model's memory is sequentially consistent, so a fence only costs its latency.
 */
@NodeInfo(shortName = "MEMBAR")
public final class SimtMembarNode extends SimtInstructionNode {
    public SimtMembarNode(SimtInstruction instruction) {
        super(instruction);
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        fallThrough(warp);
        return warp.machine().profile().membarLatency();
    }
}
