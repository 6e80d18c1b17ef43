package dev.finegrain.gpu.nodes.sync;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.nodes.expression.SimtOperandNode;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtWarp;

/** {@code BAR.SYNC id[, count]}: arrive at named barrier {@code id} and wait until {@code count} threads have. */
@NodeInfo(shortName = "BAR.SYNC")
public final class SimtBarSyncNode extends SimtBarrierNode {
    public SimtBarSyncNode(SimtInstruction instruction, SimtOperandNode id, SimtOperandNode count,
                            SimtProfile profile) {
        super(instruction, id, count, profile);
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        return arrive(warp, active, true, -1, 0);
    }
}
