package dev.finegrain.gpu.nodes.expression;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.runtime.SimtWarp;

/** Reads {@code Rn} (or {@code -Rn}) of a lane; RZ reads as zero. */
@NodeInfo(shortName = "R")
public final class SimtRegisterReadNode extends SimtOperandNode {
    private final int register;
    private final boolean negated;

    public SimtRegisterReadNode(int register, boolean negated) {
        this.register = register;
        this.negated = negated;
    }

    @Override
    public int read(SimtWarp warp, int lane) {
        int value = warp.readRegister(lane, register);
        return negated ? -value : value;
    }
}
