package dev.finegrain.gpu.nodes;

import com.oracle.truffle.api.CallTarget;
import com.oracle.truffle.api.Truffle;
import com.oracle.truffle.api.TruffleLanguage;
import com.oracle.truffle.api.frame.VirtualFrame;
import com.oracle.truffle.api.nodes.LoopNode;
import com.oracle.truffle.api.nodes.RootNode;
import dev.finegrain.gpu.isa.SimtProgram;
import dev.finegrain.gpu.runtime.SimtMachine;
import dev.finegrain.gpu.runtime.SimtProfile;

/**
 * The Truffle root of one kernel: called once per launch with the {@link SimtMachine}, it loops over the machine's
 * cycles ({@link SimtCycleNode}) and returns how the run ended. Each instruction is its own call target (one
 * {@link SimtInstructionRootNode} per instruction, plus the implicit EXIT after the last): a warp's next PC is only
 * known at run time, so one compilation unit for the whole kernel would inline every instruction into one large
 * graph (measured: 8.5 s to compile Listing 15 on a 2-core machine), while per-instruction units stay small, and
 * kernels that hold the same instruction share its unit ({@link SimtInstructionTargets}).
 */
public final class SimtKernelRootNode extends RootNode {
    @Child private LoopNode cycles;
    private final String name;

    public SimtKernelRootNode(TruffleLanguage<?> language, SimtProgram program, SimtProfile profile) {
        super(language);
        CallTarget[] instructions = SimtInstructionTargets.of(language, program, profile);
        this.cycles = Truffle.getRuntime().createLoopNode(new SimtCycleNode(instructions));
        this.name = program.file();
    }

    @Override
    public Object execute(VirtualFrame frame) {
        SimtMachine machine = (SimtMachine) frame.getArguments()[0];
        machine.start();
        cycles.execute(frame);
        return machine.ending();
    }

    @Override
    public String getName() {
        return name;
    }
}
