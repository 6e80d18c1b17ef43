package dev.finegrain.gpu.nodes;

import com.oracle.truffle.api.frame.VirtualFrame;
import com.oracle.truffle.api.nodes.RootNode;
import dev.finegrain.gpu.isa.SimtProgram;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * The Truffle root of one kernel: an array of instruction nodes (plus the implicit EXIT after the last one). Each
 * call issues one instruction for one warp: the machine passes the warp, the root dispatches on the group's PC and
 * returns the instruction's latency.
 */
public final class SimtKernelRootNode extends RootNode {
    @Children private final SimtInstructionNode[] instructions;
    private final String name;

    public SimtKernelRootNode(SimtProgram program, SimtProfile profile) {
        super(null);
        this.instructions = SimtNodeFactory.create(program, profile);
        this.name = program.file();
    }

    @Override
    public Object execute(VirtualFrame frame) {
        SimtWarp warp = (SimtWarp) frame.getArguments()[0];
        return instructions[warp.divergence().groupPc()].executeGroup(warp);
    }

    /** The node at an instruction index (the implicit EXIT is at the program's size), for reports. */
    public SimtInstructionNode instructionAt(int index) {
        return instructions[index];
    }

    @Override
    public String getName() {
        return name;
    }
}
