package dev.finegrain.gpu.nodes.expression;

import com.oracle.truffle.api.dsl.Specialization;
import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.nodes.SimtInstructionNode;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * MOV, MOV32I, IADD, IMUL, IMAD, SHL, SHR, LOP: {@code Rd = op(a, b, c)} per active lane. Specialized on the shape
 * of the active mask, which varies at run time: no lane (a guard false everywhere), a whole converged warp (a plain
 * counted loop), or any other mask (a loop over set bits).
 */
@NodeInfo(shortName = "ALU")
public abstract class SimtIntegerOpNode extends SimtInstructionNode {
    static final int WHOLE_WARP = -1;

    private final SimtIntegerOp op;
    private final int destination;
    private final int latency;
    @Child private SimtOperandNode a;
    @Child private SimtOperandNode b;
    @Child private SimtOperandNode c;

    protected SimtIntegerOpNode(SimtInstruction instruction, SimtIntegerOp op, int destination, int latency,
                                SimtOperandNode a, SimtOperandNode b, SimtOperandNode c) {
        super(instruction);
        this.op = op;
        this.destination = destination;
        this.latency = latency;
        this.a = a;
        this.b = b;
        this.c = c;
    }

    @Override
    protected final int execute(SimtWarp warp, int active) {
        executeLanes(warp, active);
        fallThrough(warp);
        return completed(warp, latency);
    }

    protected abstract void executeLanes(SimtWarp warp, int active);

    @Specialization(guards = "active == 0")
    protected static void noLane(SimtWarp warp, int active) {
        // A guard false in every lane: the instruction issues but writes nothing.
    }

    @Specialization(guards = "active == WHOLE_WARP")
    protected void wholeWarp(SimtWarp warp, int active) {
        for (int lane = 0; lane < SimtWarp.WARP_SIZE; lane++) {
            compute(warp, lane);
        }
    }

    @Specialization(replaces = "wholeWarp")
    protected void someLanes(SimtWarp warp, int active) {
        for (int lanes = active; lanes != 0; lanes &= lanes - 1) {
            compute(warp, Integer.numberOfTrailingZeros(lanes));
        }
    }

    private void compute(SimtWarp warp, int lane) {
        int x = a.read(warp, lane);
        int y = b == null ? 0 : b.read(warp, lane);
        int z = c == null ? 0 : c.read(warp, lane);
        warp.writeRegister(lane, destination, op.apply(x, y, z));
    }
}
