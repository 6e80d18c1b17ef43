package dev.finegrain.compiler.ir;

import java.util.function.Consumer;
import java.util.function.Predicate;

/** Visits every field load of an expression tree, left to right. */
public final class Loads {

    private Loads() {}

    public static void forEach(IrExpr expr, Consumer<IrExpr.Load> visitor) {
        switch (expr) {
            case IrExpr.Load load -> visitor.accept(load);
            case IrExpr.Unary u -> forEach(u.operand(), visitor);
            case IrExpr.Binary b -> {
                forEach(b.left(), visitor);
                forEach(b.right(), visitor);
            }
            case IrExpr.Select s -> {
                forEach(s.condition(), visitor);
                forEach(s.whenTrue(), visitor);
                forEach(s.whenFalse(), visitor);
            }
            case IrExpr.Cast c -> forEach(c.operand(), visitor);
            case IrExpr.Lookup l -> l.indices().forEach(index -> forEach(index, visitor));
            case IrExpr.Iterate it -> {
                forEach(it.count(), visitor);
                forEach(it.init(), visitor);
                forEach(it.body(), visitor);
            }
            case IrExpr.Const c -> { }
            case IrExpr.IndexVar v -> { }
            case IrExpr.SizeVar v -> { }
            case IrExpr.ParamVar p -> { }
            case IrExpr.Accumulator a -> { }
        }
    }

    /** Whether some field load of the expression tree satisfies {@code test}. */
    public static boolean anyMatch(IrExpr expr, Predicate<IrExpr.Load> test) {
        boolean[] found = {false};
        forEach(expr, load -> found[0] |= test.test(load));
        return found[0];
    }
}
