package dev.finegrain.gpu.nodes.sync;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.nodes.SimtInstructionNode;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * {@code VOTE.ANY|ALL Rd, Pd, Ps} over the active lanes: Rd receives the ballot (the mask of active lanes whose Ps is
 * true), Pd whether any (ANY) or every (ALL) active lane voted true. Seed 001's Listing 9 uses it to share one lock
 * bit per warp.
 */
@NodeInfo(shortName = "VOTE")
public final class SimtVoteNode extends SimtInstructionNode {
    private final boolean all;
    private final int destination;
    private final int result;
    private final int source;
    private final boolean sourceNegated;
    private final int latency;

    public SimtVoteNode(SimtInstruction instruction, boolean all, int destination, int result, int source,
                        boolean sourceNegated, SimtProfile profile) {
        super(instruction);
        this.latency = profile.voteLatency();
        this.all = all;
        this.destination = destination;
        this.result = result;
        this.source = source;
        this.sourceNegated = sourceNegated;
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        int votes = sourceNegated ? ~warp.predicate(source) : warp.predicate(source);
        int ballot = active & votes;
        boolean outcome = all ? ballot == active : ballot != 0;
        for (int lanes = active; lanes != 0; lanes &= lanes - 1) {
            warp.writeRegister(Integer.numberOfTrailingZeros(lanes), destination, ballot);
        }
        warp.writePredicate(result, active, outcome ? -1 : 0);
        warp.machine().counters().votes++;
        fallThrough(warp);
        return latency;
    }
}
