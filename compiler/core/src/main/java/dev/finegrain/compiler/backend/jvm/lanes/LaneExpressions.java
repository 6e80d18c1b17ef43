package dev.finegrain.compiler.backend.jvm.lanes;

import dev.finegrain.compiler.backend.jvm.code.JExpr.Binary.Op;
import dev.finegrain.compiler.backend.jvm.code.JExpr.LaneOp;
import dev.finegrain.compiler.backend.jvm.code.JExpr;
import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.dsl.Type;

import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * Lowers an actor body that {@link StripMapping} accepts to one vector expression: each node becomes the Vector API
 * operation that applies it to every lane at once, with the same Java semantics per lane (int and long wrap, double
 * follows IEEE 754 as the scalar code does, select picks per lane).
 */
final class LaneExpressions {

    private LaneExpressions() {}

    /**
     * @param loads   the vector of a read's values, one per lane
     * @param indices the vector of an index variable's values, one per lane
     * @param uniform the vector of a constant, param or size (the same in every lane), which callers broadcast once,
     *                outside their steps ({@link LaneVectors#uniform})
     */
    static JExpr lower(IrExpr expr, Function<IrExpr.Load, JExpr> loads, IntFunction<JExpr> indices,
                       Function<IrExpr, JExpr> uniform) {
        return lower(expr, loads, indices, uniform, lookup -> {
            throw new IllegalStateException("a table lookup in lanes across rows (StripMapping keeps them scalar)");
        });
    }

    /**
     * As above, where the lanes lie along a row; {@code lookups} gives the vector of a table lookup's values, which
     * {@link LaneLookups} gathers before the expression.
     */
    static JExpr lower(IrExpr expr, Function<IrExpr.Load, JExpr> loads, IntFunction<JExpr> indices,
                       Function<IrExpr, JExpr> uniform, Function<IrExpr.Lookup, JExpr> lookups) {
        Function<IrExpr, JExpr> recurse = e -> lower(e, loads, indices, uniform, lookups);
        return switch (expr) {
            case IrExpr.Const c -> uniform.apply(c);
            case IrExpr.IndexVar v -> indices.apply(v.dimension());
            case IrExpr.SizeVar v -> uniform.apply(v);
            case IrExpr.ParamVar p -> uniform.apply(p);
            case IrExpr.Load load -> loads.apply(load);
            case IrExpr.Unary u -> new JExpr.Lanewise(switch (u.operator()) {
                case NEG -> LaneOp.NEG;
                case ABS -> LaneOp.ABS;
                case NOT -> LaneOp.NOT;
            }, recurse.apply(u.operand()), null);
            case IrExpr.Binary b -> binary(b, recurse.apply(b.left()), recurse.apply(b.right()));
            case IrExpr.Select s -> new JExpr.Blend(recurse.apply(s.condition()), recurse.apply(s.whenTrue()), recurse.apply(s.whenFalse()));
            case IrExpr.Cast c -> throw new IllegalStateException("a cast in lanes");
            case IrExpr.Iterate it -> throw new IllegalStateException("a fold in lanes");
            case IrExpr.Lookup l -> lookups.apply(l);
            case IrExpr.Accumulator a -> throw new IllegalStateException("a fold in lanes");
        };
    }

    /** A constant, param or size in every lane; {@code scalar} gives a param's or size's local. */
    static JExpr broadcast(IrExpr uniform, JExpr.Species species, Function<IrExpr, JExpr> scalar) {
        if (uniform.type() == Type.BOOL) {
            throw new IllegalStateException("a bool constant in lanes");
        }
        return new JExpr.Broadcast(species, scalar.apply(uniform));
    }

    private static JExpr binary(IrExpr.Binary b, JExpr left, JExpr right) {
        if (b.left().type() == Type.BOOL) {
            return switch (b.operator()) {
                case AND -> new JExpr.Lanewise(LaneOp.AND, left, right);
                case OR -> new JExpr.Lanewise(LaneOp.OR, left, right);
                default -> throw new IllegalStateException(b.operator() + " of masks in lanes");
            };
        }
        return switch (b.operator()) {
            case ADD -> new JExpr.Lanewise(LaneOp.ADD, left, right);
            case SUB -> new JExpr.Lanewise(LaneOp.SUB, left, right);
            case MUL -> new JExpr.Lanewise(LaneOp.MUL, left, right);
            case MIN -> new JExpr.Lanewise(LaneOp.MIN, left, right);
            case MAX -> new JExpr.Lanewise(LaneOp.MAX, left, right);
            case AND -> new JExpr.Lanewise(LaneOp.AND, left, right);
            case OR -> new JExpr.Lanewise(LaneOp.OR, left, right);
            case XOR -> new JExpr.Lanewise(LaneOp.XOR, left, right);
            case LT -> new JExpr.LaneCompare(Op.LT, left, right);
            case LE -> new JExpr.LaneCompare(Op.LE, left, right);
            case GT -> new JExpr.LaneCompare(Op.GT, left, right);
            case GE -> new JExpr.LaneCompare(Op.GE, left, right);
            case EQ -> new JExpr.LaneCompare(Op.EQ, left, right);
            case NE -> new JExpr.LaneCompare(Op.NE, left, right);
            case DIV, REM, SHL, SHR, USHR -> throw new IllegalStateException(b.operator() + " in lanes");
        };
    }
}
