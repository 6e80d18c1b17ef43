package dev.finegrain.gpu.nodes.expression;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.nodes.SimtInstructionNode;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * {@code ISETP.cmp.64}, {@code DSETP.cmp} and {@code FSETP.cmp}: {@code Pd = (a cmp b) bool Pc},
 * {@code Pq = !(a cmp b) bool Pc}. Floating-point comparisons are ordered (false when an operand is NaN, as Java's
 * {@code <}, {@code ==} ...), except {@code NEU}, true when an operand is NaN (Java's {@code !=}).
 */
@NodeInfo(shortName = "SETP64")
public final class SimtWideSetpNode extends SimtInstructionNode {
    /** What the operands hold. */
    public enum Kind { S64, U64, F64, F32 }

    /** The comparisons; NEU is the unordered not-equal of the floating-point forms. */
    public enum Comparison { EQ, NE, NEU, LT, LE, GT, GE }

    private final Kind kind;
    private final Comparison comparison;
    private final SimtPredicateLogic combine;
    private final int destination;
    private final int complement;
    private final int carry;
    private final boolean carryNegated;
    private final int latency;
    @Child private SimtWideOperandNode a;
    @Child private SimtWideOperandNode b;

    public SimtWideSetpNode(SimtInstruction instruction, Kind kind, Comparison comparison, SimtPredicateLogic combine,
                            int destination, int complement, int carry, boolean carryNegated,
                            SimtWideOperandNode a, SimtWideOperandNode b, int latency) {
        super(instruction);
        this.kind = kind;
        this.comparison = comparison;
        this.combine = combine;
        this.destination = destination;
        this.complement = complement;
        this.carry = carry;
        this.carryNegated = carryNegated;
        this.a = a;
        this.b = b;
        this.latency = latency;
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

    private boolean compare(long x, long y) {
        return switch (kind) {
            case S64 -> integral(Long.compare(x, y));
            case U64 -> integral(Long.compareUnsigned(x, y));
            case F64 -> floating(Double.longBitsToDouble(x), Double.longBitsToDouble(y));
            case F32 -> floating(Float.intBitsToFloat((int) x), Float.intBitsToFloat((int) y));
        };
    }

    private boolean integral(int order) {
        return switch (comparison) {
            case EQ -> order == 0;
            case NE, NEU -> order != 0;
            case LT -> order < 0;
            case LE -> order <= 0;
            case GT -> order > 0;
            case GE -> order >= 0;
        };
    }

    private boolean floating(double x, double y) {
        return switch (comparison) {
            case EQ -> x == y;
            case NE -> x < y || x > y;
            case NEU -> x != y;
            case LT -> x < y;
            case LE -> x <= y;
            case GT -> x > y;
            case GE -> x >= y;
        };
    }
}
