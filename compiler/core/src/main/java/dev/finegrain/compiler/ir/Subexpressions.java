package dev.finegrain.compiler.ir;

import java.util.List;

/** The direct operands of an expression node, left to right: what a walk over an expression tree descends into. */
public final class Subexpressions {

    private Subexpressions() {}

    public static List<IrExpr> of(IrExpr expr) {
        return switch (expr) {
            case IrExpr.Unary u -> List.of(u.operand());
            case IrExpr.Binary b -> List.of(b.left(), b.right());
            case IrExpr.Select s -> List.of(s.condition(), s.whenTrue(), s.whenFalse());
            case IrExpr.Cast c -> List.of(c.operand());
            case IrExpr.Iterate it -> List.of(it.count(), it.init(), it.body());
            case IrExpr.Lookup l -> l.indices();
            default -> List.of();
        };
    }
}
