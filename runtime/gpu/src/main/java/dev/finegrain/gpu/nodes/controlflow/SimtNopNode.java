package dev.finegrain.gpu.nodes.controlflow;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.nodes.SimtInstructionNode;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtWarp;

/** {@code NOP}: issues and moves on; with {@code .S} it is Fermi's usual way to mark a reconvergence point. */
@NodeInfo(shortName = "NOP")
public final class SimtNopNode extends SimtInstructionNode {
    private final int latency;

    public SimtNopNode(SimtInstruction instruction, SimtProfile profile) {
        super(instruction);
        this.latency = profile.aluLatency();
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        fallThrough(warp);
        return latency;
    }
}
