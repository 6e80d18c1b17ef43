package dev.finegrain.gpu.nodes.sync;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.nodes.expression.SimtOperandNode;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtWarp;

/** {@code BAR.ARRIVE id, count}: count toward named barrier {@code id} without waiting (a producer's signal). */
@NodeInfo(shortName = "BAR.ARRIVE")
public final class SimtBarArriveNode extends SimtBarrierNode {
    public SimtBarArriveNode(SimtInstruction instruction, SimtOperandNode id, SimtOperandNode count,
                            SimtProfile profile) {
        super(instruction, id, count, profile);
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        return arrive(warp, active, false, -1, 0);
    }
}
