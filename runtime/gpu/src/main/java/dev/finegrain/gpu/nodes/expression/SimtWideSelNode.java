package dev.finegrain.gpu.nodes.expression;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.nodes.SimtInstructionNode;
import dev.finegrain.gpu.runtime.SimtWarp;

/** {@code SEL.64 Rd, Ra, b, Pc}: {@code Rd:Rd+1 = Pc ? Ra:Ra+1 : b} per lane. */
@NodeInfo(shortName = "SEL64")
public final class SimtWideSelNode extends SimtInstructionNode {
    private final int destination;
    private final int condition;
    private final boolean conditionNegated;
    private final int latency;
    @Child private SimtWideOperandNode whenTrue;
    @Child private SimtWideOperandNode whenFalse;

    public SimtWideSelNode(SimtInstruction instruction, int destination, SimtWideOperandNode whenTrue,
                           SimtWideOperandNode whenFalse, int condition, boolean conditionNegated, int latency) {
        super(instruction);
        this.destination = destination;
        this.whenTrue = whenTrue;
        this.whenFalse = whenFalse;
        this.condition = condition;
        this.conditionNegated = conditionNegated;
        this.latency = latency;
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        int chosen = conditionNegated ? ~warp.predicate(condition) : warp.predicate(condition);
        for (int lanes = active; lanes != 0; lanes &= lanes - 1) {
            int lane = Integer.numberOfTrailingZeros(lanes);
            long value = (chosen & 1 << lane) != 0 ? whenTrue.read(warp, lane) : whenFalse.read(warp, lane);
            warp.writePair(lane, destination, value);
        }
        fallThrough(warp);
        return completed(warp, latency);
    }
}
