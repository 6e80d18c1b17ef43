package dev.finegrain.gpu.nodes;

import com.oracle.truffle.api.TruffleLanguage;
import com.oracle.truffle.api.frame.VirtualFrame;
import com.oracle.truffle.api.nodes.RootNode;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * One instruction as its own call target, so that Graal compiles (and deoptimizes) each instruction on its own: a
 * small unit per instruction compiles in a fraction of the time one unit for the whole kernel takes.
 */
final class SimtInstructionRootNode extends RootNode {
    @Child private SimtInstructionNode instruction;

    SimtInstructionRootNode(TruffleLanguage<?> language, SimtInstructionNode instruction) {
        super(language);
        this.instruction = instruction;
    }

    @Override
    public Object execute(VirtualFrame frame) {
        return instruction.executeGroup((SimtWarp) frame.getArguments()[0]);
    }

    @Override
    public String getName() {
        return instruction.toString();
    }
}
