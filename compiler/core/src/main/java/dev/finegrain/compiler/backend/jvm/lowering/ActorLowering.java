package dev.finegrain.compiler.backend.jvm.lowering;

import dev.finegrain.compiler.backend.jvm.code.JExpr.Binary.Op;
import dev.finegrain.compiler.backend.jvm.code.JExpr;
import dev.finegrain.compiler.backend.jvm.code.JStmt;
import dev.finegrain.compiler.backend.jvm.code.JType;
import dev.finegrain.compiler.ir.IrActor;
import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.IrPrinter;
import dev.finegrain.compiler.ir.Loads;
import dev.finegrain.dsl.Type;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.add;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.constant;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.math;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.mul;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.runtime;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.valueType;

/**
 * Lowers actor bodies to expressions over the context's locals and fires an actor at the current point: evaluate
 * its body, hoisting fold loops ahead of it, then store (or publish, when packed) its value.
 */
public final class ActorLowering {

    private final LoweringContext cx;
    private final Map<String, JExpr.Local> accumulators = new HashMap<>();

    ActorLowering(LoweringContext cx) {
        this.cx = cx;
    }

    /** Statements firing one actor at the current point: evaluate the body, then store (or publish, when packed). */
    public void fire(IrActor actor, List<JStmt> out) {
        out.add(describe(actor));
        store(actor, lower(actor, actor.body(), out), out);
    }

    public JStmt describe(IrActor actor) {
        return new JStmt.Comment("actor " + actor.name() + ": " + IrPrinter.load(cx.graph, actor.writes(), new int[cx.rank])
                + " = " + IrPrinter.expression(cx.graph, actor.body()));
    }

    /** Stores an actor's value at the current point (publishing it, when the ready bit is packed beside it). */
    public void store(IrActor actor, JExpr value, List<JStmt> out) {
        int field = actor.writes();
        JExpr index = cx.index(field, new int[cx.rank]);
        value = cx.carries.keep(field, value, out);
        if (cx.packed(field)) {
            out.add(new JStmt.Evaluate(runtime("PackedReadyWords", "publish", JType.VOID,
                    List.of(JType.LONG_ARRAY, JType.INT, JType.INT), cx.array[field], index, value)));
        } else {
            JType element = cx.storageType(cx.graph.field(field)).element();
            out.add(new JStmt.Store(cx.array[field], index, value.type().equals(element) ? value : new JExpr.Convert(value, element)));
        }
    }

    /**
     * True when the statements that lowering hoists out of the expression (fold loops, and the branches of a select
     * around a fold) read no state field, so they need no token to run.
     */
    public boolean foldsReadNoState(IrExpr expr) {
        return switch (expr) {
            case IrExpr.Iterate it -> !readsState(it);
            case IrExpr.Select sel when containsFold(sel.whenTrue()) || containsFold(sel.whenFalse()) -> !readsState(sel);
            case IrExpr.Unary u -> foldsReadNoState(u.operand());
            case IrExpr.Binary b -> foldsReadNoState(b.left()) && foldsReadNoState(b.right());
            case IrExpr.Select sel -> foldsReadNoState(sel.condition()) && foldsReadNoState(sel.whenTrue()) && foldsReadNoState(sel.whenFalse());
            case IrExpr.Cast c -> foldsReadNoState(c.operand());
            case IrExpr.Const c -> true;
            case IrExpr.IndexVar v -> true;
            case IrExpr.SizeVar v -> true;
            case IrExpr.ParamVar p -> true;
            case IrExpr.Load l -> true;
            case IrExpr.Lookup l -> l.indices().stream().allMatch(this::foldsReadNoState);
            case IrExpr.Accumulator a -> true;
        };
    }

    private static boolean containsFold(IrExpr expr) {
        return IrExpr.slotsNeeded(expr) > 0;
    }

    private boolean readsState(IrExpr expr) {
        return Loads.anyMatch(expr, load -> cx.graph.field(load.field()).isState());
    }

    /** Lowers an expression; loops of iterate folds are hoisted into {@code sink} ahead of the expression. */
    public JExpr lower(IrActor actor, IrExpr expr, List<JStmt> sink) {
        return switch (expr) {
            case IrExpr.Const c -> LoweringContext.constant(c);
            case IrExpr.IndexVar v -> cx.absoluteCoordinate(v.dimension());
            case IrExpr.SizeVar v -> cx.size[v.dimension()];
            case IrExpr.ParamVar p -> cx.param[p.param()];
            case IrExpr.Load load when cx.graph.field(load.field()).isSequence() -> cx.value(load.field(), sequenceIndex(load));
            case IrExpr.Lookup lookup -> lookup(lookup, lookup.indices().stream().map(index -> lower(actor, index, sink)).toList());
            case IrExpr.Load load when cx.carries.replaces(load) -> cx.carries.westValue(load.field());
            case IrExpr.Load load -> cx.value(load.field(), cx.index(load.field(), load.offset()));
            case IrExpr.Unary u -> {
                JExpr operand = lower(actor, u.operand(), sink);
                yield switch (u.operator()) {
                    case NEG -> new JExpr.Negate(operand);
                    case ABS -> math("abs", operand.type(), operand);
                    case NOT -> u.type() == Type.BOOL ? new JExpr.Not(operand)
                            : new JExpr.Binary(Op.XOR, operand, u.type() == Type.INT ? JExpr.Const.ofInt(-1) : JExpr.Const.ofLong(-1));
                };
            }
            case IrExpr.Binary b -> binary(b, lower(actor, b.left(), sink), lower(actor, b.right(), sink));
            case IrExpr.Select s when containsFold(s.whenTrue()) || containsFold(s.whenFalse()) -> {
                JExpr condition = lower(actor, s.condition(), sink);
                JExpr.Local chosen = cx.local("chosen", valueType(s.type()));
                List<JStmt> whenTrue = new ArrayList<>();
                whenTrue.add(new JStmt.Assign(chosen, lower(actor, s.whenTrue(), whenTrue)));
                List<JStmt> whenFalse = new ArrayList<>();
                whenFalse.add(new JStmt.Assign(chosen, lower(actor, s.whenFalse(), whenFalse)));
                sink.add(new JStmt.Comment("only the branch taken runs its folds, as in the reference"));
                sink.add(new JStmt.If(condition, whenTrue, whenFalse));
                yield chosen;
            }
            case IrExpr.Select s -> new JExpr.Conditional(lower(actor, s.condition(), sink), lower(actor, s.whenTrue(), sink),
                    lower(actor, s.whenFalse(), sink));
            case IrExpr.Cast c -> new JExpr.Convert(lower(actor, c.operand(), sink), valueType(c.type()));
            case IrExpr.Iterate it -> {
                JExpr.Local accumulator = accumulator(actor, it.slot(), valueType(it.type()));
                JExpr.Local count = cx.local("rounds" + it.slot(), JType.INT);
                JExpr.Local round = cx.local("round" + it.slot(), JType.INT);
                sink.add(new JStmt.Assign(count, lower(actor, it.count(), sink)));
                sink.add(new JStmt.Assign(accumulator, lower(actor, it.init(), sink)));
                List<JStmt> body = new ArrayList<>();
                JExpr next = lower(actor, it.body(), body);
                body.add(new JStmt.Assign(accumulator, next));
                sink.add(new JStmt.Loop(round, constant(0), count, constant(1), body));
                yield accumulator;
            }
            case IrExpr.Accumulator a -> accumulator(actor, a.slot(), valueType(a.type()));
        };
    }

    /**
     * The storage index of a sequence input's element at the current point plus the load's offset, from the coordinates
     * of the dimensions it spans alone (row-major over them): whatever the row layout, a sequence stays as given.
     */
    private JExpr sequenceIndex(IrExpr.Load load) {
        IrField field = cx.graph.field(load.field());
        JExpr index = null;
        for (int d = 0; d < cx.rank; d++) {
            if (field.spans()[d]) {
                JExpr at = add(cx.absoluteCoordinate(d), constant(field.haloLow()[d] + load.offset()[d]));
                if (index != null) {
                    index = add(mul(index, add(cx.size[d], constant(field.haloLow()[d] + field.haloHigh()[d]))), at);
                } else {
                    index = at;
                }
            }
        }
        return index;
    }

    /**
     * The table's element at {@code indices}, row-major, each index checked against its own axis by
     * {@code TableIndex.check} (a flat index alone could land in the next row).
     */
    private JExpr lookup(IrExpr.Lookup lookup, List<JExpr> indices) {
        List<Integer> extents = cx.graph.kernel().tables().get(lookup.table()).extents();
        JExpr flat = null;
        for (int axis = 0; axis < indices.size(); axis++) {
            JExpr checked = runtime("TableIndex", "check", JType.INT, List.of(JType.INT, JType.INT, JType.INT, JType.INT),
                    indices.get(axis), constant(extents.get(axis)), constant(lookup.table()), constant(axis));
            flat = flat == null ? checked : add(mul(flat, constant(extents.get(axis))), checked);
        }
        return new JExpr.ArrayLoad(cx.table[lookup.table()], flat);
    }

    private JExpr.Local accumulator(IrActor actor, int slot, JType type) {
        return accumulators.computeIfAbsent(actor.id() + ":" + slot, k -> cx.local(actor.name() + "Acc" + slot, type));
    }

    private static JExpr binary(IrExpr.Binary b, JExpr left, JExpr right) {
        JType type = left.type();
        return switch (b.operator()) {
            case ADD -> new JExpr.Binary(Op.ADD, left, right);
            case SUB -> new JExpr.Binary(Op.SUB, left, right);
            case MUL -> new JExpr.Binary(Op.MUL, left, right);
            case DIV -> new JExpr.Binary(Op.DIV, left, right);
            case REM -> new JExpr.Binary(Op.REM, left, right);
            case MIN -> math("min", type, left, right);
            case MAX -> math("max", type, left, right);
            case AND -> new JExpr.Binary(Op.AND, left, right);
            case OR -> new JExpr.Binary(Op.OR, left, right);
            case XOR -> new JExpr.Binary(Op.XOR, left, right);
            case SHL -> new JExpr.Binary(Op.SHL, left, shiftCount(right));
            case SHR -> new JExpr.Binary(Op.SHR, left, shiftCount(right));
            case USHR -> new JExpr.Binary(Op.USHR, left, shiftCount(right));
            case LT -> new JExpr.Binary(Op.LT, left, right);
            case LE -> new JExpr.Binary(Op.LE, left, right);
            case GT -> new JExpr.Binary(Op.GT, left, right);
            case GE -> new JExpr.Binary(Op.GE, left, right);
            case EQ -> new JExpr.Binary(Op.EQ, left, right);
            case NE -> new JExpr.Binary(Op.NE, left, right);
        };
    }

    /** The JVM shifts by an int count; a long count keeps its low bits, which are all Java's semantics use. */
    private static JExpr shiftCount(JExpr count) {
        return count.type().equals(JType.INT) ? count : new JExpr.Convert(count, JType.INT);
    }
}
