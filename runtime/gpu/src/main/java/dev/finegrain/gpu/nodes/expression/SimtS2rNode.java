package dev.finegrain.gpu.nodes.expression;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.isa.SimtOperand.SpecialRegister;
import dev.finegrain.gpu.nodes.SimtInstructionNode;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * {@code S2R Rd, SR_...}: thread index in the block, lane, warp index in the block, block index, the SM clock (low
 * 32 bits of the machine's cycle count), block size and grid size.
 */
@NodeInfo(shortName = "S2R")
public final class SimtS2rNode extends SimtInstructionNode {
    private final int destination;
    private final SpecialRegister register;
    private final int latency;

    public SimtS2rNode(SimtInstruction instruction, int destination, SpecialRegister register, SimtProfile profile) {
        super(instruction);
        this.latency = profile.specialRegisterLatency();
        this.destination = destination;
        this.register = register;
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        for (int lanes = active; lanes != 0; lanes &= lanes - 1) {
            int lane = Integer.numberOfTrailingZeros(lanes);
            warp.writeRegister(lane, destination, value(warp, lane));
        }
        fallThrough(warp);
        return completed(warp, latency);
    }

    private int value(SimtWarp warp, int lane) {
        return switch (register) {
            case TID_X -> warp.threadIndex(lane);
            case LANEID -> lane;
            case WARPID -> warp.index();
            case CTAID_X -> warp.block().id();
            case CLOCKLO -> (int) warp.machine().cycle();
            case NTID_X -> warp.machine().launch().threadsPerBlock();
            case NCTAID_X -> warp.machine().launch().blocks();
        };
    }
}
