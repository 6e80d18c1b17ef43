package dev.finegrain.gpu.nodes.expression;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.runtime.SimtWarp;

/** A constant, the same for every lane. */
@NodeInfo(shortName = "IMM")
public final class SimtImmediateNode extends SimtOperandNode {
    private final int value;

    public SimtImmediateNode(int value) {
        this.value = value;
    }

    @Override
    public int read(SimtWarp warp, int lane) {
        return value;
    }
}
