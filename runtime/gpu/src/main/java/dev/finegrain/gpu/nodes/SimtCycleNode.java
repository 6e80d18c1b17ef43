package dev.finegrain.gpu.nodes;

import com.oracle.truffle.api.CallTarget;
import com.oracle.truffle.api.frame.VirtualFrame;
import com.oracle.truffle.api.nodes.IndirectCallNode;
import com.oracle.truffle.api.nodes.Node;
import com.oracle.truffle.api.nodes.RepeatingNode;
import dev.finegrain.gpu.runtime.SimtMachine;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * One machine cycle, the body of the kernel's loop: every warp the SMs' schedulers issue runs the call target of the
 * instruction at its group's PC, from the machine's program. The loop being a Truffle loop lets Graal compile it (on-stack replacement) with
 * direct calls into the compiled instructions, instead of entering Truffle from Java once per instruction.
 */
final class SimtCycleNode extends Node implements RepeatingNode {
    @Child private IndirectCallNode dispatch = IndirectCallNode.create();

    @Override
    public boolean executeRepeating(VirtualFrame frame) {
        SimtMachine machine = (SimtMachine) frame.getArguments()[0];
        CallTarget[] instructions = machine.instructions();
        for (SimtWarp warp = machine.nextIssue(); warp != null; warp = machine.nextIssue()) {
            int latency = (Integer) dispatch.call(instructions[warp.divergence().groupPc()], warp);
            machine.issued(warp, latency);
        }
        return machine.finishCycle();
    }
}
