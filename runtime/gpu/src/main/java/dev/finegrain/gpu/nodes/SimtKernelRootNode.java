package dev.finegrain.gpu.nodes;

import com.oracle.truffle.api.CallTarget;
import com.oracle.truffle.api.CompilerDirectives.CompilationFinal;
import com.oracle.truffle.api.TruffleLanguage;
import com.oracle.truffle.api.frame.VirtualFrame;
import com.oracle.truffle.api.nodes.IndirectCallNode;
import com.oracle.truffle.api.nodes.RootNode;
import dev.finegrain.gpu.isa.SimtProgram;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * The Truffle root of one kernel. Each call issues one instruction for one warp: the machine passes the warp, the
 * root looks up the call target of the instruction at the group's PC (one {@link SimtInstructionRootNode} per
 * instruction, plus the implicit EXIT after the last) and returns that instruction's latency. Keeping instructions
 * in separate call targets keeps Graal's compilation units small; a warp's next PC is only known at run time, so
 * one unit for the whole kernel would inline every instruction into one large graph.
 */
public final class SimtKernelRootNode extends RootNode {
    @CompilationFinal(dimensions = 1) private final CallTarget[] instructions;
    @Child private IndirectCallNode dispatch = IndirectCallNode.create();
    private final String name;

    public SimtKernelRootNode(TruffleLanguage<?> language, SimtProgram program, SimtProfile profile) {
        super(language);
        SimtInstructionNode[] nodes = SimtNodeFactory.create(program, profile);
        this.instructions = new CallTarget[nodes.length];
        for (int i = 0; i < nodes.length; i++) {
            instructions[i] = new SimtInstructionRootNode(language, nodes[i]).getCallTarget();
        }
        this.name = program.file();
    }

    @Override
    public Object execute(VirtualFrame frame) {
        SimtWarp warp = (SimtWarp) frame.getArguments()[0];
        return dispatch.call(instructions[warp.divergence().groupPc()], warp);
    }

    @Override
    public String getName() {
        return name;
    }
}
