package dev.finegrain.gpu.nodes.sync;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.nodes.SimtInstructionNode;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * {@code MEMBAR[.CTA|.GL|.SYS]}: the model's memory is sequentially consistent, so a fence only costs its latency,
 * which depends on its scope: {@code latency.membar} for the block (and a plain MEMBAR), {@code latency.membarGpu}
 * for {@code .GL}, {@code latency.membarSys} for {@code .SYS} (both default to {@code latency.membar}).
 */
@NodeInfo(shortName = "MEMBAR")
public final class SimtMembarNode extends SimtInstructionNode {
    private final int latency;

    public SimtMembarNode(SimtInstruction instruction, SimtProfile profile) {
        super(instruction);
        this.latency = instruction.has("SYS") ? profile.membarSystemLatency()
                : instruction.has("GL") ? profile.membarGpuLatency() : profile.membarLatency();
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        fallThrough(warp);
        return latency;
    }
}
