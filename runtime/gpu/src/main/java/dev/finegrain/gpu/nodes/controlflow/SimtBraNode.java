package dev.finegrain.gpu.nodes.controlflow;

import com.oracle.truffle.api.dsl.Specialization;
import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.nodes.SimtInstructionNode;
import dev.finegrain.gpu.runtime.SimtPollLoop;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * {@code [@P] BRA target}. Specialized on how the guard splits the issuing group, which only the run reveals: all
 * lanes take it, none does, or the warp diverges (then the divergence model parks the paths and they meet again at
 * the branch's immediate post-dominator, or at an SSY target). A backward branch that ends an iteration of a poll loop
 * costs what the profile charges for one ({@link SimtPollLoop}).
 */
@NodeInfo(shortName = "BRA")
public abstract class SimtBraNode extends SimtInstructionNode {
    private final int target;
    private final int reconvergence;
    private final int latency;
    /** The profile's poll-loop costs where this branch goes backward, else null (a constant Graal folds). */
    private final SimtPollLoop pollLoop;

    protected SimtBraNode(SimtInstruction instruction, int target, int reconvergence, SimtProfile profile) {
        super(instruction);
        this.target = target;
        this.reconvergence = reconvergence;
        this.latency = profile.branchLatency();
        this.pollLoop = target <= instruction.index() ? SimtPollLoop.of(profile) : null;
    }

    @Override
    protected final int execute(SimtWarp warp, int active) {
        int group = warp.divergence().groupMask();
        int pollLoopCycles = pollLoop == null ? 0 : pollLoop.backwardBranch(warp, group, active);
        executeBranch(warp, group, active);
        return latency + pollLoopCycles;
    }

    protected abstract void executeBranch(SimtWarp warp, int group, int taken);

    @Specialization(guards = "taken == group")
    protected void allTake(SimtWarp warp, int group, int taken) {
        warp.divergence().jump(target);
    }

    @Specialization(guards = "taken == 0")
    protected static void noneTakes(SimtWarp warp, int group, int taken) {
        warp.divergence().advance();
    }

    @Specialization(guards = {"taken != group", "taken != 0"})
    protected void diverge(SimtWarp warp, int group, int taken) {
        warp.machine().counters().divergentBranches++;
        warp.divergence().branch(taken, target, reconvergence);
    }
}
