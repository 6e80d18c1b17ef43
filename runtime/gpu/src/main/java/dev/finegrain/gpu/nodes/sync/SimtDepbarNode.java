package dev.finegrain.gpu.nodes.sync;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.nodes.SimtInstructionNode;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * {@code DEPBAR}: the warp waits until every asynchronous copy it issued (LDGSTS) has landed, as
 * {@code cp.async.wait_all} does; then it costs an issue slot. The wait is a stall, not an issue.
 */
@NodeInfo(shortName = "DEPBAR")
public final class SimtDepbarNode extends SimtInstructionNode {
    private final int issueCycles;

    public SimtDepbarNode(SimtInstruction instruction, SimtProfile profile) {
        super(instruction);
        this.issueCycles = profile.issueSlotCycles();
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        long wait = active == 0 ? 0 : warp.asyncCopiesLandAt() - warp.machine().cycle();
        if (wait > 0) {
            warp.machine().notIssued(warp);
            return (int) Math.min(Integer.MAX_VALUE, wait);
        }
        fallThrough(warp);
        return issueCycles;
    }
}
