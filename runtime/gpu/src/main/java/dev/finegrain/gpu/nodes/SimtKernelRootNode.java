package dev.finegrain.gpu.nodes;

import com.oracle.truffle.api.TruffleLanguage;
import com.oracle.truffle.api.frame.VirtualFrame;
import com.oracle.truffle.api.nodes.LoopNode;
import com.oracle.truffle.api.nodes.RootNode;
import com.oracle.truffle.api.Truffle;
import dev.finegrain.gpu.runtime.SimtMachine;

/**
 * The Truffle root that runs a launch: called once per launch with the {@link SimtMachine}, it loops over the
 * machine's cycles ({@link SimtCycleNode}) and returns how the run ended. It holds nothing of a program: each
 * instruction is its own call target ({@link SimtInstructionTargets}), which the machine carries, so one root serves
 * every kernel and Graal compiles its loop once per JVM rather than once per program. A warp's next PC is only known
 * at run time, so one compilation unit for the whole kernel would inline every instruction into one large graph
 * (measured: 8.5 s to compile Listing 15 on a 2-core machine), while per-instruction units stay small, and kernels
 * that hold the same instruction share its unit.
 */
public final class SimtKernelRootNode extends RootNode {
    @Child private LoopNode cycles;

    public SimtKernelRootNode(TruffleLanguage<?> language) {
        super(language);
        this.cycles = Truffle.getRuntime().createLoopNode(new SimtCycleNode());
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
        return "simt kernel";
    }
}
