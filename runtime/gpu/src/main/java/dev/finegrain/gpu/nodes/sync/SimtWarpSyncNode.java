package dev.finegrain.gpu.nodes.sync;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.nodes.SimtInstructionNode;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * {@code WARPSYNC}: CUDA's {@code __syncwarp()} with the full mask: every live lane of the warp meets here before any
 * goes on ({@link SimtWarpConvergence}); the model's memory is sequentially consistent, so the meeting is all it does.
 * It costs {@code latency.warpSync}.
 */
@NodeInfo(shortName = "WARPSYNC")
public final class SimtWarpSyncNode extends SimtInstructionNode {
    private final int latency;

    public SimtWarpSyncNode(SimtInstruction instruction, SimtProfile profile) {
        super(instruction);
        this.latency = profile.warpSyncLatency();
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        int wait = SimtWarpConvergence.waitCycles(warp, "WARPSYNC");
        if (wait > 0) {
            return wait;
        }
        fallThrough(warp);
        return latency;
    }
}
