package dev.finegrain.compiler.ir;

import dev.finegrain.dsl.BinaryOperator;
import dev.finegrain.dsl.Type;
import dev.finegrain.dsl.UnaryOperator;

import java.util.List;

/**
 * A typed, resolved expression: names became indices into the graph's dimensions, params and fields, and every
 * node carries its type. Backends translate these nodes one for one.
 */
public sealed interface IrExpr {

    Type type();

    /** How many accumulator slots evaluating this tree needs: one more than the highest fold slot in it. */
    static int slotsNeeded(IrExpr expr) {
        return switch (expr) {
            case Iterate it -> Math.max(it.slot() + 1, Math.max(slotsNeeded(it.count()), Math.max(slotsNeeded(it.init()), slotsNeeded(it.body()))));
            case Unary u -> slotsNeeded(u.operand());
            case Binary b -> Math.max(slotsNeeded(b.left()), slotsNeeded(b.right()));
            case Select s -> Math.max(slotsNeeded(s.condition()), Math.max(slotsNeeded(s.whenTrue()), slotsNeeded(s.whenFalse())));
            case Cast c -> slotsNeeded(c.operand());
            case Lookup l -> l.indices().stream().mapToInt(IrExpr::slotsNeeded).max().orElse(0);
            case Const c -> 0;
            case IndexVar v -> 0;
            case SizeVar v -> 0;
            case ParamVar p -> 0;
            case Load l -> 0;
            case Accumulator a -> a.slot() + 1;
        };
    }

    /** A literal: integral kinds (int, long, bool as 0/1) in {@code integral}, doubles in {@code real}. */
    record Const(Type type, long integral, double real) implements IrExpr {}

    /** The index variable of dimension {@code dimension}. */
    record IndexVar(int dimension) implements IrExpr {
        @Override
        public Type type() { return Type.INT; }
    }

    /** The run-time extent of dimension {@code dimension}. */
    record SizeVar(int dimension) implements IrExpr {
        @Override
        public Type type() { return Type.INT; }
    }

    record ParamVar(int param, Type type) implements IrExpr {}

    /** The value of field {@code field} at the current point plus {@code offset}. */
    record Load(int field, int[] offset, Type type) implements IrExpr {}

    /**
     * The element of the kernel's table {@code table} (its index in {@code Kernel.tables()}) at {@code indices}, one per
     * axis, row-major; an index outside its axis stops the run ({@code KernelExecutionException}).
     */
    record Lookup(int table, List<IrExpr> indices, Type type) implements IrExpr {
        public Lookup {
            indices = List.copyOf(indices);
        }
    }

    record Unary(UnaryOperator operator, IrExpr operand, Type type) implements IrExpr {}

    record Binary(BinaryOperator operator, IrExpr left, IrExpr right, Type type) implements IrExpr {}

    record Select(IrExpr condition, IrExpr whenTrue, IrExpr whenFalse, Type type) implements IrExpr {}

    record Cast(IrExpr operand, Type type) implements IrExpr {}

    /** {@code slot = init; repeat count times: slot = body}; slots are numbered per actor from 0. */
    record Iterate(IrExpr count, IrExpr init, int slot, IrExpr body, Type type) implements IrExpr {}

    record Accumulator(int slot, Type type) implements IrExpr {}
}
