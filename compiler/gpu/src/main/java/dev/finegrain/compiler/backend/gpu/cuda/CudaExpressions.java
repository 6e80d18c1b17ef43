package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.gpu.DpxForms;
import dev.finegrain.compiler.backend.gpu.LaneProfile;

import dev.finegrain.compiler.ir.IrActor;
import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.TableSpec;
import dev.finegrain.dsl.Type;

import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;

/**
 * Translates an actor's expression tree into CUDA C statements, one temporary per node, with Java's semantics: the
 * helpers of {@code finegrain.cuh} wrap integers, mask shift counts, keep division from trapping and give doubles
 * Math.min/max; a select evaluates only the branch it takes, as the oracle does, so a division by zero in the other
 * branch is no error. Where a value comes from is the schedule's business: {@link Operands} supplies it.
 */
final class CudaExpressions {

    /** Where the leaves of an expression come from, supplied by the schedule's emitter. */
    interface Operands {
        String index(int dimension);

        /** An expression holding the field value the load names, at the current point plus its offset. */
        String load(IrExpr.Load load);

        /** Where the schedule keeps a sequence input's value for this load (a lane's register); empty: global memory. */
        default Optional<String> laneSequence(IrExpr.Load load) {
            return Optional.empty();
        }

        /** The shared-memory copy of lookup table {@code table}, where the schedule staged one; empty: global memory. */
        default Optional<String> stagedTable(int table) {
            return Optional.empty();
        }

        /**
         * The element a lookup reads from the query profile the schedule keeps for it ({@link LaneProfile}), its other
         * index checked by {@code checkedHere} (lowered at this point) unless the schedule checked it already; empty:
         * the lookup reads the table itself.
         */
        default Optional<String> profiled(IrExpr.Lookup lookup, IntFunction<String> checkedHere) {
            return Optional.empty();
        }
    }

    private final CudaWriter out;
    private final KernelGraph graph;
    private final Operands operands;
    private final int[] sizes;
    private final String error;
    private final dev.finegrain.compiler.backend.gpu.machine.GpuTarget target;
    private final Map<Integer, String> accumulators = new HashMap<>();
    private final Map<IrExpr, String> precomputed = new IdentityHashMap<>();

    /**
     * @param sizes the domain's extents, which a program is generated for, so a size in a body is a constant
     * @param error the expression of the run's error word, for a division by zero
     * @param target  the machine, whose DPX instructions take an int max of a sum ({@link DpxForms})
     */
    CudaExpressions(CudaWriter out, KernelGraph graph, Operands operands, int[] sizes, String error,
                    dev.finegrain.compiler.backend.gpu.machine.GpuTarget target) {
        this.out = out;
        this.graph = graph;
        this.operands = operands;
        this.sizes = sizes.clone();
        this.error = error;
        this.target = target;
    }

    static String type(Type type) {
        return switch (type) {
            case INT, BOOL -> "int";
            case LONG -> "long long";
            case DOUBLE -> "double";
        };
    }

    /**
     * Evaluates, here, every largest subtree of {@code expr} that reads no state field (seed 001's "independent
     * computation"), so that a later {@link #lower} reuses the temporaries: a dataflow emitter calls this before its
     * threads wait for tokens, which takes the work off the chain of synchronisations.
     */
    void precomputeStateFree(IrExpr expr, IntPredicate isState) {
        if (!(expr instanceof IrExpr.Const || expr instanceof IrExpr.IndexVar || expr instanceof IrExpr.ParamVar
                || expr instanceof IrExpr.Load || expr instanceof IrExpr.Accumulator || expr instanceof IrExpr.SizeVar)
                && closedAndStateFree(expr, isState, new HashSet<>())) {
            precomputed.put(expr, lower(expr));
            return;
        }
        switch (expr) {
            case IrExpr.Unary u -> precomputeStateFree(u.operand(), isState);
            case IrExpr.Binary b -> {
                precomputeStateFree(b.left(), isState);
                precomputeStateFree(b.right(), isState);
            }
            case IrExpr.Select sel -> precomputeStateFree(sel.condition(), isState);
            case IrExpr.Cast c -> precomputeStateFree(c.operand(), isState);
            default -> { }
        }
    }

    /** No state loads, and every accumulator it reads is bound by an iterate inside it. */
    private static boolean closedAndStateFree(IrExpr expr, IntPredicate isState, Set<Integer> bound) {
        return switch (expr) {
            case IrExpr.Load load -> !isState.test(load.field());
            case IrExpr.Accumulator a -> bound.contains(a.slot());
            case IrExpr.Unary u -> closedAndStateFree(u.operand(), isState, bound);
            case IrExpr.Binary b -> closedAndStateFree(b.left(), isState, bound) && closedAndStateFree(b.right(), isState, bound);
            case IrExpr.Select sel -> closedAndStateFree(sel.condition(), isState, bound)
                    && closedAndStateFree(sel.whenTrue(), isState, bound) && closedAndStateFree(sel.whenFalse(), isState, bound);
            case IrExpr.Cast c -> closedAndStateFree(c.operand(), isState, bound);
            case IrExpr.Lookup l -> l.indices().stream().allMatch(index -> closedAndStateFree(index, isState, bound));
            case IrExpr.Iterate it -> {
                Set<Integer> inner = new HashSet<>(bound);
                inner.add(it.slot());
                yield closedAndStateFree(it.count(), isState, bound) && closedAndStateFree(it.init(), isState, bound)
                        && closedAndStateFree(it.body(), isState, inner);
            }
            default -> true;
        };
    }

    /**
     * The point's actors in firing order; each value goes into {@code produced} (later actors of the point read it
     * from there) and to {@code store}.
     */
    void lowerActors(Map<Integer, String> produced, BiConsumer<IrActor, String> store) {
        for (int actorId : graph.actorOrder()) {
            IrActor actor = graph.actor(actorId);
            out.comment("actor " + actor.name());
            String value = lower(actor.body());
            produced.put(actor.writes(), value);
            store.accept(actor, value);
        }
    }

    /** Emits the statements for {@code expr}; returns the expression (a temporary or a leaf) holding its value. */
    String lower(IrExpr expr) {
        String done = precomputed.get(expr);
        if (done != null) {
            return done;
        }
        return switch (expr) {
            case IrExpr.Const c -> constant(c);
            case IrExpr.IndexVar v -> operands.index(v.dimension());
            case IrExpr.SizeVar v -> Integer.toString(sizes[v.dimension()]);
            case IrExpr.ParamVar p -> "p." + graph.kernel().params().get(p.param()).name();
            case IrExpr.Load load when graph.field(load.field()).isSequence() -> define(load.type(), sequenceLoad(load));
            case IrExpr.Load load -> operands.load(load);
            case IrExpr.Accumulator a -> accumulators.get(a.slot());
            case IrExpr.Cast c -> define(c.type(), cast(lower(c.operand()), c.operand().type(), c.type()));
            case IrExpr.Unary u -> define(u.type(), unary(u, lower(u.operand())));
            case IrExpr.Binary b -> DpxForms.addMax(b, target, precomputed::containsKey).map(this::addMax)
                    .orElseGet(() -> define(b.type(), binary(b, lower(b.left()), lower(b.right()))));
            case IrExpr.Select s -> select(s);
            case IrExpr.Iterate it -> iterate(it);
            case IrExpr.Lookup l -> define(l.type(), lookup(l));
        };
    }

    /**
     * A sequence input's value, read from global memory by its own index (row-major over the dimensions it spans, which
     * hold it whole) through the read-only cache: {@code GlobalReads} stages no sequence.
     */
    private String sequenceLoad(IrExpr.Load load) {
        Optional<String> kept = operands.laneSequence(load);
        if (kept.isPresent()) {
            return kept.get();
        }
        IrField field = graph.field(load.field());
        String index = null;
        for (int d = 0; d < sizes.length; d++) {
            if (field.spans()[d]) {
                String at = load.offset()[d] == 0 ? "(" + operands.index(d) + ")" : "(" + operands.index(d) + " + " + load.offset()[d] + ")";
                index = index == null ? at : "(" + index + ") * " + sizes[d] + " + " + at;
            }
        }
        return "__ldg(&f." + CudaNames.member(field.name()) + "[" + index + "])";
    }

    /**
     * A lookup table's element, from global memory or the schedule's staged copy: each index checked against its axis
     * by {@code fg::table_index}, which on a miss sets the run's error word (naming the table's buffer and the axis)
     * and reads element 0, as a division by zero reads 0.
     */
    private String lookup(IrExpr.Lookup lookup) {
        Optional<String> profiled = operands.profiled(lookup, axis -> checkedIndex(lookup, axis));
        if (profiled.isPresent()) {
            return profiled.get();
        }
        TableSpec table = graph.kernel().tables().get(lookup.table());
        String flat = null;
        for (int axis = 0; axis < lookup.indices().size(); axis++) {
            String checked = checkedIndex(lookup, axis);
            flat = flat == null ? checked : "(" + flat + ") * " + table.extents().get(axis) + " + " + checked;
        }
        String element = flat;
        return operands.stagedTable(lookup.table()).map(staged -> staged + "[" + element + "]")
                .orElse("__ldg(&f." + CudaNames.member(table.name()) + "[" + element + "])");
    }

    /** A lookup's index on one axis, lowered here and checked against the axis ({@link #tableIndex}). */
    String checkedIndex(IrExpr.Lookup lookup, int axis) {
        return tableIndex(graph, lookup.table(), axis, lower(lookup.indices().get(axis)), error);
    }

    /**
     * {@code index} checked against axis {@code axis} of table {@code table} by {@code fg::table_index}, which on a miss
     * sets the run's error word (naming the table's buffer, numbered after the fields, and the axis) and gives 0.
     */
    static String tableIndex(KernelGraph graph, int table, int axis, String index, String error) {
        return "fg::table_index(" + index + ", " + graph.kernel().tables().get(table).extents().get(axis) + ", "
                + (graph.fields().size() + table) + ", " + axis + ", " + error + ")";
    }

    /** DPX's add-then-max, {@code max(a + b, c)} (or {@code max(a + b, c, 0)}) in one instruction. */
    private String addMax(DpxForms.AddMax form) {
        String augend = lower(form.augend());
        String addend = lower(form.addend());
        String floor = lower(form.floor());
        return define(Type.INT, (form.relu() ? "__viaddmax_s32_relu(" : "__viaddmax_s32(") + augend + ", " + (form.negateAddend() ? "fg::neg(" + addend + ")" : addend)
                + ", " + floor + ")");
    }

    private String define(Type type, String value) {
        String name = out.temporary("v");
        out.line("const " + type(type) + " " + name + " = " + value + ";");
        return name;
    }

    static String constant(IrExpr.Const c) {
        return switch (c.type()) {
            case INT -> c.integral() == Integer.MIN_VALUE ? "(-2147483647 - 1)" : Long.toString(c.integral());
            case LONG -> c.integral() == Long.MIN_VALUE ? "(-9223372036854775807ll - 1)" : c.integral() + "ll";
            case BOOL -> c.integral() != 0 ? "1" : "0";
            case DOUBLE -> Double.isFinite(c.real()) ? "(" + Double.toHexString(c.real()) + ")"
                    : "__longlong_as_double(" + Double.doubleToRawLongBits(c.real()) + "ll)";
        };
    }

    private static String cast(String value, Type from, Type to) {
        if (from == to) {
            return value;
        }
        return switch (to) {
            case INT -> from == Type.DOUBLE ? "fg::d2i(" + value + ")" : "fg::l2i(" + value + ")";
            case LONG -> from == Type.DOUBLE ? "fg::d2l(" + value + ")" : "(long long) " + value;
            case DOUBLE -> "(double) " + value;
            case BOOL -> throw new IllegalStateException("verified IR casts to bool");
        };
    }

    private static String unary(IrExpr.Unary unary, String operand) {
        return switch (unary.operator()) {
            case NEG -> "fg::neg(" + operand + ")";
            case ABS -> "fg::abs_(" + operand + ")";
            case NOT -> unary.type() == Type.BOOL ? operand + " ^ 1" : "~" + operand;
        };
    }

    private String binary(IrExpr.Binary binary, String left, String right) {
        return switch (binary.operator()) {
            case ADD -> "fg::add(" + left + ", " + right + ")";
            case SUB -> "fg::sub(" + left + ", " + right + ")";
            case MUL -> "fg::mul(" + left + ", " + right + ")";
            case DIV -> "fg::div(" + left + ", " + right + ", " + error + ")";
            case REM -> "fg::rem(" + left + ", " + right + ", " + error + ")";
            case MIN -> "fg::min_(" + left + ", " + right + ")";
            case MAX -> "fg::max_(" + left + ", " + right + ")";
            case AND -> left + " & " + right;
            case OR -> left + " | " + right;
            case XOR -> left + " ^ " + right;
            case SHL -> "fg::shl(" + left + ", (long long) " + right + ")";
            case SHR -> "fg::shr(" + left + ", (long long) " + right + ")";
            case USHR -> "fg::ushr(" + left + ", (long long) " + right + ")";
            case LT -> "(int) (" + left + " < " + right + ")";
            case LE -> "(int) (" + left + " <= " + right + ")";
            case GT -> "(int) (" + left + " > " + right + ")";
            case GE -> "(int) (" + left + " >= " + right + ")";
            case EQ -> "(int) (" + left + " == " + right + ")";
            case NE -> "(int) (" + left + " != " + right + ")";
        };
    }

    /** Only the branch the condition takes runs, as in the oracle. */
    private String select(IrExpr.Select select) {
        String condition = lower(select.condition());
        String result = out.temporary("v");
        out.line(type(select.type()) + " " + result + ";");
        out.open("if (" + condition + " != 0)");
        out.line(result + " = " + lower(select.whenTrue()) + ";");
        out.reopen("else");
        out.line(result + " = " + lower(select.whenFalse()) + ";");
        out.close();
        return result;
    }

    /** {@code acc = init; repeat count times: acc = body}; a count below one leaves init. */
    private String iterate(IrExpr.Iterate iterate) {
        String count = lower(iterate.count());
        String accumulator = out.temporary("acc");
        out.line(type(iterate.type()) + " " + accumulator + " = " + lower(iterate.init()) + ";");
        String round = out.temporary("round");
        out.open("for (int " + round + " = " + count + "; " + round + " > 0; " + round + "--)");
        String previous = accumulators.put(iterate.slot(), accumulator);
        out.line(accumulator + " = " + lower(iterate.body()) + ";");
        if (previous == null) {
            accumulators.remove(iterate.slot());
        } else {
            accumulators.put(iterate.slot(), previous);
        }
        out.close();
        return accumulator;
    }
}
