package dev.finegrain.gpu.nodes.sync;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.nodes.expression.SimtOperandNode;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * {@code BAR.RED.POPC Rd, id[, Pc]}: a whole-block barrier ({@code __syncthreads_count}) that also counts, over the
 * block, the threads whose Pc is true (PT when omitted) and gives the count to every waiting lane in Rd. Seed 001
 * writes {@code BAR.RED.POPC RZ, RZ}: barrier 0, result dropped.
 */
@NodeInfo(shortName = "BAR.RED.POPC")
public final class SimtBarRedPopcNode extends SimtBarrierNode {
    private final int destination;
    private final int predicate;
    private final boolean predicateNegated;

    public SimtBarRedPopcNode(SimtInstruction instruction, int destination, SimtOperandNode id, int predicate,
                              boolean predicateNegated, SimtProfile profile) {
        super(instruction, id, null, profile);
        this.destination = destination;
        this.predicate = predicate;
        this.predicateNegated = predicateNegated;
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        int votes = predicateNegated ? ~warp.predicate(predicate) : warp.predicate(predicate);
        return arrive(warp, active, true, destination, active & votes);
    }
}
