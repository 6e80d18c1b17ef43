package dev.finegrain.gpu.nodes.expression;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.nodes.SimtInstructionNode;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtWarp;

/** {@code SEL Rd, Ra, b, Pc}: {@code Rd = Pc ? Ra : b} per lane. */
@NodeInfo(shortName = "SEL")
public final class SimtSelNode extends SimtInstructionNode {
    private final int destination;
    private final int condition;
    private final boolean conditionNegated;
    @Child private SimtOperandNode whenTrue;
    @Child private SimtOperandNode whenFalse;
    private final int latency;

    public SimtSelNode(SimtInstruction instruction, int destination, SimtOperandNode whenTrue,
                       SimtOperandNode whenFalse, int condition, boolean conditionNegated, SimtProfile profile) {
        super(instruction);
        this.latency = profile.aluLatency();
        this.destination = destination;
        this.whenTrue = whenTrue;
        this.whenFalse = whenFalse;
        this.condition = condition;
        this.conditionNegated = conditionNegated;
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        int chosen = conditionNegated ? ~warp.predicate(condition) : warp.predicate(condition);
        for (int lanes = active; lanes != 0; lanes &= lanes - 1) {
            int lane = Integer.numberOfTrailingZeros(lanes);
            int value = (chosen & 1 << lane) != 0 ? whenTrue.read(warp, lane) : whenFalse.read(warp, lane);
            warp.writeRegister(lane, destination, value);
        }
        fallThrough(warp);
        return completed(warp, latency);
    }
}
