package dev.finegrain.gpu.nodes.expression;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.nodes.SimtInstructionNode;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * {@code ISETP.cmp[.U32][.bool] Pd, Pq, Ra, b, Pc}: {@code Pd = (Ra cmp b) bool Pc} and
 * {@code Pq = !(Ra cmp b) bool Pc}, signed unless {@code .U32}; {@code bool} defaults to AND.
 */
@NodeInfo(shortName = "ISETP")
public final class SimtIsetpNode extends SimtInstructionNode {
    /** The six comparisons. */
    public enum Comparison { EQ, NE, LT, LE, GT, GE }

    private final Comparison comparison;
    private final boolean unsigned;
    private final SimtPredicateLogic combine;
    private final int destination;
    private final int complement;
    private final int carry;
    private final boolean carryNegated;
    @Child private SimtOperandNode a;
    @Child private SimtOperandNode b;
    private final int latency;

    public SimtIsetpNode(SimtInstruction instruction, Comparison comparison, boolean unsigned,
                         SimtPredicateLogic combine, int destination, int complement, int carry, boolean carryNegated,
                         SimtOperandNode a, SimtOperandNode b, SimtProfile profile) {
        super(instruction);
        this.latency = profile.aluLatency();
        this.comparison = comparison;
        this.unsigned = unsigned;
        this.combine = combine;
        this.destination = destination;
        this.complement = complement;
        this.carry = carry;
        this.carryNegated = carryNegated;
        this.a = a;
        this.b = b;
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        int holds = 0;
        for (int lanes = active; lanes != 0; lanes &= lanes - 1) {
            int lane = Integer.numberOfTrailingZeros(lanes);
            if (compare(a.read(warp, lane), b.read(warp, lane))) {
                holds |= 1 << lane;
            }
        }
        int carried = carryNegated ? ~warp.predicate(carry) : warp.predicate(carry);
        warp.writePredicate(destination, active, combine.apply(holds, carried));
        warp.writePredicate(complement, active, combine.apply(~holds, carried));
        fallThrough(warp);
        return completed(warp, latency);
    }

    private boolean compare(int x, int y) {
        int order = unsigned ? Integer.compareUnsigned(x, y) : Integer.compare(x, y);
        return switch (comparison) {
            case EQ -> order == 0;
            case NE -> order != 0;
            case LT -> order < 0;
            case LE -> order <= 0;
            case GT -> order > 0;
            case GE -> order >= 0;
        };
    }
}
