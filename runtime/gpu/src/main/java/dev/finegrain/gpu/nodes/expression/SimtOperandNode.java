package dev.finegrain.gpu.nodes.expression;

import com.oracle.truffle.api.nodes.Node;
import dev.finegrain.gpu.runtime.SimtWarp;

/** A source operand read per lane: a register, possibly negated, or an immediate. */
public abstract class SimtOperandNode extends Node {
    public abstract int read(SimtWarp warp, int lane);
}
