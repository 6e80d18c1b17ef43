package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.gpu.DpxForms;
import dev.finegrain.compiler.ir.IrActor;
import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.BinaryOperator;
import dev.finegrain.dsl.Type;

import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.IntPredicate;

/**
 * Translates an actor's expression tree into model-ISA instructions, one node at a time, with Java's semantics:
 * int and bool in a register (booleans as 0 and 1), long and double in a register pair (docs/simt-isa.md); wrapping
 * arithmetic, shift counts taken mod 32 or 64, doubles rounded per operation (no FMA contraction), casts that
 * truncate and saturate. An integer division first checks its divisor and sets the run's error word when it is zero;
 * a select whose branches divide branches around the one not taken, as the oracle evaluates only the taken one.
 * Where a value comes from is the schedule's business: {@link Operands} supplies index, param and field registers.
 */
final class SimtExpressions {

    /** The register of an accumulator an enclosing iterate binds. */
    String accumulator(int slot) {
        return accumulators.get(slot);
    }

    /** The sequence and table reads of these expressions. */
    SimtTableReads tables() {
        return tables;
    }

    Operands operands() {
        return operands;
    }

    GlobalLayout layout() {
        return layout;
    }

    /** Registers for the leaves of an expression, supplied by the schedule's lowering. */
    interface Operands {
        String index(int dimension);

        String param(int param);

        /** A register holding the field value the load names, at the current point plus its offset. */
        String load(IrExpr.Load load);

        /** A register that holds a sequence input's value for this load already (the persistent bands' lane sequences). */
        default java.util.Optional<String> heldSequence(IrExpr.Load load) {
            return java.util.Optional.empty();
        }

        /** Whether the schedule holds a lookup's index checked already, so that its loads need not be issued here. */
        default boolean holdsCheckedIndex(IrExpr.Lookup lookup) {
            return false;
        }

        /** The shared byte where a lookup table's copy starts, where the schedule stages the table in shared memory. */
        default java.util.Optional<Integer> stagedTableByte(int table) {
            return java.util.Optional.empty();
        }

        /**
         * A register holding the shared address of a lookup's element in a query profile, where the schedule keeps one for
         * it ({@code LaneProfile}); {@code checkedHere} lowers and checks the index of an axis, for the profile's other axis.
         */
        default java.util.Optional<String> profiled(IrExpr.Lookup lookup, java.util.function.IntFunction<String> checkedHere) {
            return java.util.Optional.empty();
        }
    }

    private final SimtAssembler asm;
    private final Operands operands;
    private final Map<Integer, String> accumulators = new HashMap<>();
    private final Map<IrExpr, String> precomputed = new IdentityHashMap<>();
    private final String one;
    private final GlobalLayout layout;
    private final SimtWideExpressions wide;
    private final SimtTableReads tables;
    private final dev.finegrain.compiler.backend.gpu.machine.GpuTarget target;

    /**
     * {@code one} is a register that holds 1 on every path (set in the prologue), for booleans; {@code layout} gives
     * the domain's sizes, which a program is lowered for, so a size in an actor body is a constant.
     */
    SimtExpressions(SimtAssembler asm, Operands operands, String one, GlobalLayout layout,
                    dev.finegrain.compiler.backend.gpu.machine.GpuTarget target) {
        this.asm = asm;
        this.operands = operands;
        this.one = one;
        this.layout = layout;
        this.target = target;
        this.wide = new SimtWideExpressions(asm, this, one);
        this.tables = new SimtTableReads(asm, this, layout);
    }

    /**
     * Evaluates, here, every largest subtree of {@code expr} that reads no state field (seed 001's "independent
     * computation"), so that a later {@link #lower} of {@code expr} reuses the registers: a dataflow lowering calls
     * this before its threads wait for tokens, which takes the work off the chain of synchronisations.
     */
    void precomputeStateFree(IrExpr expr, IntPredicate isState) {
        if (!(expr instanceof IrExpr.Const || expr instanceof IrExpr.IndexVar || expr instanceof IrExpr.ParamVar
                || expr instanceof IrExpr.Load || expr instanceof IrExpr.Accumulator)
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
            case IrExpr.Select sel -> {
                precomputeStateFree(sel.condition(), isState);
                precomputeStateFree(sel.whenTrue(), isState);
                precomputeStateFree(sel.whenFalse(), isState);
            }
            case IrExpr.Cast c -> precomputeStateFree(c.operand(), isState);
            default -> { }
        }
    }

    /**
     * Evaluates, here, every largest subtree of {@code expr} that reads no {@code pending} load (a value not computed
     * yet), outside a select's branches and a loop's body, which the oracle evaluates only when taken: a band's step
     * with lanes of several columns calls this for each column before any column computes, as nvcc schedules every
     * column's independent work ahead of the chain that runs through the columns.
     */
    void precomputeAvailable(IrExpr expr, java.util.function.Predicate<IrExpr.Load> pending) {
        if (!(expr instanceof IrExpr.Const || expr instanceof IrExpr.IndexVar || expr instanceof IrExpr.ParamVar
                || expr instanceof IrExpr.Load || expr instanceof IrExpr.Accumulator)
                && available(expr, pending)) {
            precomputed.put(expr, lower(expr));
            return;
        }
        switch (expr) {
            case IrExpr.Unary u -> precomputeAvailable(u.operand(), pending);
            case IrExpr.Binary b -> {
                precomputeAvailable(b.left(), pending);
                precomputeAvailable(b.right(), pending);
            }
            case IrExpr.Select sel -> precomputeAvailable(sel.condition(), pending);
            case IrExpr.Cast c -> precomputeAvailable(c.operand(), pending);
            default -> { }
        }
    }

    /** Whether a subtree reads no pending load and holds no select, loop or accumulator (each evaluated only as taken). */
    private static boolean available(IrExpr expr, java.util.function.Predicate<IrExpr.Load> pending) {
        return switch (expr) {
            case IrExpr.Load load -> !pending.test(load);
            case IrExpr.Select s -> false;
            case IrExpr.Iterate it -> false;
            case IrExpr.Accumulator a -> false;
            default -> dev.finegrain.compiler.ir.Subexpressions.of(expr).stream().allMatch(child -> available(child, pending));
        };
    }

    /** No state loads, and every accumulator it reads is bound by an iterate inside it. */
    private static boolean closedAndStateFree(IrExpr expr, IntPredicate isState,
                                              Set<Integer> bound) {
        return switch (expr) {
            case IrExpr.Load load -> !isState.test(load.field());
            case IrExpr.Accumulator a -> bound.contains(a.slot());
            case IrExpr.Unary u -> closedAndStateFree(u.operand(), isState, bound);
            case IrExpr.Binary b -> closedAndStateFree(b.left(), isState, bound)
                    && closedAndStateFree(b.right(), isState, bound);
            case IrExpr.Select sel -> closedAndStateFree(sel.condition(), isState, bound)
                    && closedAndStateFree(sel.whenTrue(), isState, bound)
                    && closedAndStateFree(sel.whenFalse(), isState, bound);
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
     * Lowers the point's actors in firing order; each value goes into {@code produced} (the map the operands read,
     * so later actors of the point use the register) and to {@code store}.
     */
    void lowerActors(KernelGraph graph, Map<Integer, String> produced,
                     BiConsumer<IrActor, String> store) {
        for (int actorId : graph.actorOrder()) {
            IrActor actor = graph.actor(actorId);
            asm.comment("actor " + actor.name());
            preloadFields(actor.body());
            String value = lower(actor.body());
            produced.put(actor.writes(), value);
            store.accept(actor, value);
        }
    }

    /**
     * Issues every field load of {@code expr} before any arithmetic, so that the loads overlap (the model's
     * scoreboard stalls only at a register's first use); a load inside a fold's body reads the same word on every
     * round, so it is loaded once here too.
     */
    private void preloadFields(IrExpr expr) {
        if (precomputed.containsKey(expr)) {
            return;
        }
        switch (expr) {
            case IrExpr.Load load when tables.isSequence(load) -> precomputed.computeIfAbsent(load, unused -> tables.sequenceLoad(load));
            case IrExpr.Load load -> precomputed.computeIfAbsent(load, unused -> operands.load(load));
            case IrExpr.Lookup l -> {
                if (!operands.holdsCheckedIndex(l)) {
                    l.indices().forEach(this::preloadFields);
                }
            }
            case IrExpr.Unary u -> preloadFields(u.operand());
            case IrExpr.Binary b -> {
                preloadFields(b.left());
                preloadFields(b.right());
            }
            case IrExpr.Select sel -> {
                preloadFields(sel.condition());
                preloadFields(sel.whenTrue());
                preloadFields(sel.whenFalse());
            }
            case IrExpr.Cast c -> preloadFields(c.operand());
            case IrExpr.Iterate it -> {
                preloadFields(it.count());
                preloadFields(it.init());
                preloadFields(it.body());
            }
            default -> { }
        }
    }

    /** Emits code for {@code expr}; returns the register (for long and double, the pair's low register) holding it. */
    String lower(IrExpr expr) {
        String done = precomputed.get(expr);
        if (done != null) {
            return done;
        }
        if (SimtAssembler.isWide(expr.type())) {
            return wide.lower(expr);
        }
        if (expr instanceof IrExpr.Binary b && b.left().type() != b.type() && SimtAssembler.isWide(b.left().type())) {
            return wide.compare(b);
        }
        return switch (expr) {
            case IrExpr.Const c -> asm.constant(c.integral());
            case IrExpr.IndexVar v -> operands.index(v.dimension());
            case IrExpr.SizeVar v -> asm.constant(layout.size(v.dimension()));
            case IrExpr.ParamVar p -> operands.param(p.param());
            case IrExpr.Load load when tables.isSequence(load) -> tables.sequenceLoad(load);
            case IrExpr.Load load -> operands.load(load);
            case IrExpr.Accumulator a -> accumulators.get(a.slot());
            case IrExpr.Cast c -> wide.cast(c);
            case IrExpr.Unary u -> unary(u);
            case IrExpr.Binary b -> DpxForms.addMax(b, target, precomputed::containsKey).map(this::addMax).orElseGet(() -> binary(b));
            case IrExpr.Select s -> select(s);
            case IrExpr.Iterate it -> iterate(it);
            case IrExpr.Lookup l -> tables.lookup(l);
        };
    }

    private String unary(IrExpr.Unary unary) {
        String operand = lower(unary.operand());
        String result = asm.register();
        switch (unary.operator()) {
            case NEG -> asm.emit("IADD " + result + ", RZ, -" + operand);
            case NOT -> asm.emit("LOP.XOR " + result + ", " + operand + ", "
                    + (unary.type() == Type.BOOL ? "0x1" : "-0x1"));
            case ABS -> {
                asm.emit("IADD " + result + ", RZ, -" + operand);
                asm.emit("ISETP.LT.AND P0, PT, " + operand + ", RZ, PT");
                asm.emit("SEL " + result + ", " + result + ", " + operand + ", P0");
            }
        }
        return result;
    }

    /** DPX's add-then-max ({@link DpxForms}): VIADDMNMX, max(a + b, c) in one instruction (.RELU: max(a + b, c, 0)). */
    private String addMax(DpxForms.AddMax form) {
        String augend = inRegister(lower(form.augend()));
        String addend = lower(form.addend());
        String floor = lower(form.floor());
        String result = asm.register();
        asm.emit((form.relu() ? "VIADDMNMX.RELU " : "VIADDMNMX ") + result + ", " + augend + ", " + (form.negateAddend() ? negated(addend) : addend) + ", "
                + inRegister(floor));
        return result;
    }

    private String binary(IrExpr.Binary binary) {
        String left = lower(binary.left());
        String right = rightOperand(binary);
        String result = asm.register();
        switch (binary.operator()) {
            case ADD -> asm.emit("IADD " + result + ", " + left + ", " + right);
            case SUB -> asm.emit("IADD " + result + ", " + left + ", " + negated(right));
            case MUL -> asm.emit("IMUL " + result + ", " + left + ", " + right);
            case MIN -> {
                asm.emit("ISETP.LE.AND P0, PT, " + left + ", " + right + ", PT");
                asm.emit("SEL " + result + ", " + left + ", " + right + ", P0");
            }
            case MAX -> {
                asm.emit("ISETP.GE.AND P0, PT, " + left + ", " + right + ", PT");
                asm.emit("SEL " + result + ", " + left + ", " + right + ", P0");
            }
            case AND -> asm.emit("LOP.AND " + result + ", " + left + ", " + right);
            case OR -> asm.emit("LOP.OR " + result + ", " + left + ", " + right);
            case XOR -> asm.emit("LOP.XOR " + result + ", " + left + ", " + right);
            case SHL -> asm.emit("SHL " + result + ", " + left + ", " + shiftCount(right));
            case SHR -> asm.emit("SHR " + result + ", " + left + ", " + shiftCount(right));
            case USHR -> asm.emit("SHR.U32 " + result + ", " + left + ", " + shiftCount(right));
            case LT, LE, GT, GE, EQ, NE -> {
                asm.emit("ISETP." + binary.operator().name() + ".AND P0, PT, " + left + ", " + right + ", PT");
                asm.emit("SEL " + result + ", " + one + ", RZ, P0");
            }
            case DIV, REM -> {
                String divisor = inRegister(right);
                checkDivisor("ISETP.EQ.AND P0, PT, " + divisor + ", RZ, PT", binary.right());
                asm.emit((binary.operator() == BinaryOperator.DIV ? "IDIV " : "IREM ") + result + ", " + left + ", "
                        + divisor);
            }
        }
        return result;
    }

    /** An operand in a register: an immediate is moved into one. */
    private String inRegister(String operand) {
        if (operand.startsWith("R")) {
            return operand;
        }
        String register = asm.register();
        asm.emit("MOV32I " + register + ", " + operand);
        return register;
    }

    /**
     * Before an integer division: {@code compare} sets P0 when the divisor is zero, and those lanes set the error word
     * (a constant non-zero divisor needs no check).
     */
    void checkDivisor(String compare, IrExpr divisor) {
        if (divisor instanceof IrExpr.Const c && c.integral() != 0) {
            return;
        }
        asm.emit(compare);
        asm.emit("P0", "STG [" + SimtAssembler.immediate(layout.errorByte()) + "], " + one
                + "   // division by zero: the run fails");
    }

    /** A constant right operand becomes an immediate, as ptxas would emit it. */
    private String rightOperand(IrExpr.Binary binary) {
        if (binary.right() instanceof IrExpr.Const c && binary.operator().kind() != BinaryOperator.Kind.SHIFT) {
            return SimtAssembler.immediate(c.integral());
        }
        if (binary.right() instanceof IrExpr.Const c) {
            return SimtAssembler.immediate(c.integral() & 31);
        }
        return lower(binary.right());
    }

    private static String negated(String operand) {
        if (operand.startsWith("-")) {
            return operand.substring(1);
        }
        return "-" + operand;
    }

    /** Java takes shift counts mod 32; the model shifts by the full count. */
    private String shiftCount(String count) {
        if (count.startsWith("0x") || count.startsWith("-")) {
            return count;
        }
        String masked = asm.register();
        asm.emit("LOP.AND " + masked + ", " + count + ", 0x1f");
        return masked;
    }

    String select(IrExpr.Select select) {
        if (GlobalLayout.mayFail(select.whenTrue()) || GlobalLayout.mayFail(select.whenFalse())) {
            return branchingSelect(select);
        }
        if (SimtAssembler.isWide(select.type())) {
            return wide.select(select);
        }
        String condition = lower(select.condition());
        String whenTrue = lower(select.whenTrue());
        String whenFalse = lower(select.whenFalse());
        String result = asm.register();
        asm.emit("ISETP.NE.AND P0, PT, " + condition + ", RZ, PT");
        asm.emit("SEL " + result + ", " + whenTrue + ", " + whenFalse + ", P0");
        return result;
    }

    /**
     * A select whose branches may fail the run (divide, or look a table up): only the lanes that take a branch evaluate
     * it (a divergent branch), as the oracle evaluates only the taken one.
     */
    private String branchingSelect(IrExpr.Select select) {
        String condition = lower(select.condition());
        String result = asm.register(select.type());
        String move = "MOV" + SimtAssembler.width(select.type()) + " " + result + ", ";
        String otherwise = asm.label("otherwise");
        String joined = asm.label("selected");
        asm.emit("ISETP.EQ.AND P0, PT, " + condition + ", RZ, PT");
        asm.emit("P0", "BRA " + otherwise);
        asm.emit(move + lower(select.whenTrue()));
        asm.emit("BRA " + joined);
        asm.place(otherwise);
        asm.emit(move + lower(select.whenFalse()));
        asm.place(joined);
        return result;
    }

    /** {@code slot = init; repeat count times: slot = body}, as a counted loop that lanes may leave apart. */
    String iterate(IrExpr.Iterate iterate) {
        String remaining = asm.register();
        asm.emit("MOV " + remaining + ", " + lower(iterate.count()));
        String move = "MOV" + SimtAssembler.width(iterate.type()) + " ";
        String slot = asm.register(iterate.type());
        asm.emit(move + slot + ", " + lower(iterate.init()));
        String top = asm.label("iterate");
        String done = asm.label("iterated");
        asm.place(top);
        asm.emit("ISETP.LE.AND P0, PT, " + remaining + ", RZ, PT");
        asm.emit("P0", "BRA " + done);
        String previous = accumulators.put(iterate.slot(), slot);
        asm.emit(move + slot + ", " + lower(iterate.body()));
        restore(iterate.slot(), previous);
        asm.emit("IADD " + remaining + ", " + remaining + ", -0x1");
        asm.emit("BRA " + top);
        asm.place(done);
        return slot;
    }

    private void restore(int slot, String previous) {
        if (previous == null) {
            accumulators.remove(slot);
        } else {
            accumulators.put(slot, previous);
        }
    }
}
