package dev.finegrain.gpu.nodes.expression;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.nodes.SimtInstructionNode;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * The 64-bit instructions: MOV.64, IADD.64, IMUL.64, SHL.64, SHR.64, LOP.*.64, IDIV.64, IREM.64 and DADD, DMUL, DFMA,
 * DDIV, DMNMX: {@code Rd:Rd+1 = op(a, b, c)} per active lane, on register pairs.
 */
@NodeInfo(shortName = "ALU64")
public final class SimtWideOpNode extends SimtInstructionNode {
    private final SimtWideOp op;
    private final int destination;
    private final int latency;
    @Child private SimtWideOperandNode a;
    @Child private SimtWideOperandNode b;
    @Child private SimtWideOperandNode c;

    public SimtWideOpNode(SimtInstruction instruction, SimtWideOp op, int destination, int latency,
                          SimtWideOperandNode a, SimtWideOperandNode b, SimtWideOperandNode c) {
        super(instruction);
        this.op = op;
        this.destination = destination;
        this.latency = latency;
        this.a = a;
        this.b = b;
        this.c = c;
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        for (int lanes = active; lanes != 0; lanes &= lanes - 1) {
            int lane = Integer.numberOfTrailingZeros(lanes);
            long x = a.read(warp, lane);
            long y = b == null ? 0 : b.read(warp, lane);
            long z = c == null ? 0 : c.read(warp, lane);
            warp.writePair(lane, destination, op.apply(x, y, z));
        }
        fallThrough(warp);
        return completed(warp, latency);
    }
}
