package dev.finegrain.compiler.backend.reference;

import dev.finegrain.compiler.ir.KernelExecutionException;
import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.ir.IrActor;
import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.IrPrinter;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.ParamSpec;
import dev.finegrain.dsl.Type;

import java.util.Arrays;

/**
 * The reference semantics: fires one actor instance at a time by walking its typed expression tree with Java's
 * arithmetic (int and long wrap, shifts mask their count, integer division by zero fails). Ints, longs and bools
 * travel as long, doubles as double. Every backend must match what this computes, bit for bit.
 */
final class Interpreter {

    private final KernelGraph graph;
    private final int[] sizes;
    private final FieldStorage[] storage;
    /** Each lookup table's array, as the invocation gives it. */
    private final Object[] tables;
    /** Each lookup table's extents, unboxed once: a lookup per cell would otherwise walk a list of Integers. */
    private final int[][] tableExtents;
    private final long[] integralParams;
    private final double[] realParams;
    private final long[] integralSlots;
    private final double[] realSlots;
    private final int[] point;
    private final int[] zero;
    private int firingActor;
    /** The outputs of folded fields and the reductions, gathered as values are produced; null when nothing is folded. */
    private final StreamedOutputs streamed;

    /**
     * @param checkReads whether to mark produced points, so that a read before its producer fired fails; storage that
     *                   only seeds a compiled backend's run fires nothing and needs no marks
     */
    Interpreter(KernelGraph graph, Invocation invocation, boolean checkReads) {
        this(graph, invocation, checkReads, false);
    }

    /**
     * @param fold whether to fold the state fields the kernel does not keep whole into rolling windows of rows, for a run
     *             that fires rows in order and calls {@link #startRow} before each (the oracle)
     */
    Interpreter(KernelGraph graph, Invocation invocation, boolean checkReads, boolean fold) {
        this(graph, invocation, checkReads, f -> fold && graph.field(f).isState()
                && graph.kernel().keep(graph.field(f).name()) != dev.finegrain.dsl.Keep.ALL, fold);
    }

    /**
     * Storage only (no run that streams outputs), the state fields {@code foldField} names folded into rolling windows
     * of rows with their halo rows filled.
     */
    Interpreter(KernelGraph graph, Invocation invocation, boolean checkReads, java.util.function.IntPredicate foldField) {
        this(graph, invocation, checkReads, foldField, false);
    }

    private Interpreter(KernelGraph graph, Invocation invocation, boolean checkReads, java.util.function.IntPredicate foldField,
                        boolean fold) {
        this.graph = graph;
        this.sizes = invocation.sizes();
        this.point = new int[sizes.length];
        this.zero = new int[sizes.length];
        int params = graph.kernel().params().size();
        this.integralParams = new long[params];
        this.realParams = new double[params];
        for (int p = 0; p < params; p++) {
            ParamSpec spec = graph.kernel().params().get(p);
            Object value = invocation.param(spec.name());
            switch (value) {
                case Double d -> realParams[p] = d;
                case Boolean b -> integralParams[p] = b ? 1 : 0;
                case Number n -> integralParams[p] = n.longValue();
                default -> throw new IllegalStateException("validated param " + spec.name() + " is " + value);
            }
        }
        int slots = Math.max(graph.actors().stream().mapToInt(IrActor::slots).max().orElse(0),
                graph.fields().stream().filter(f -> f.boundary() != null).mapToInt(f -> IrExpr.slotsNeeded(f.boundary())).max().orElse(0));
        this.integralSlots = new long[slots];
        this.realSlots = new double[slots];
        this.tables = graph.kernel().tables().stream().map(table -> invocation.input(table.name())).toArray();
        this.tableExtents = graph.kernel().tables().stream()
                .map(table -> table.extents().stream().mapToInt(Integer::intValue).toArray()).toArray(int[][]::new);
        this.storage = new FieldStorage[graph.fields().size()];
        for (IrField field : graph.fields()) {
            if (field.isInput()) {
                storage[field.id()] = FieldStorage.ofInput(field, sizes, invocation.input(field.name()));
            }
        }
        boolean[] folded = new boolean[graph.fields().size()];
        for (IrField field : graph.fields()) {
            folded[field.id()] = field.isState() && foldField.test(field.id());
            if (folded[field.id()]) {
                storage[field.id()] = FieldStorage.ofFoldedState(field, sizes, checkReads);
                for (int row = -field.haloLow()[0]; row < 0; row++) {
                    fillRowHalo(storage[field.id()], row, false);
                }
            } else if (field.isState()) {
                storage[field.id()] = FieldStorage.ofState(field, sizes, checkReads);
                fillHalo(storage[field.id()]);
            }
        }
        boolean streams = fold && (graph.kernel().reductions().size() > 0 || java.util.stream.IntStream.range(0, folded.length).anyMatch(f -> folded[f]));
        this.streamed = streams ? new StreamedOutputs(graph, sizes, folded) : null;
    }

    /**
     * Makes row {@code row} (along the first dimension) current in every folded field: its window slot forgets the row it
     * held, and its halo cells (a coordinate past the domain in another dimension) take their boundary values.
     */
    void startRow(int row) {
        for (FieldStorage state : storage) {
            if (state.window > 0) {
                state.forgetSlotOf(row);
                fillRowHalo(state, row, true);
            }
        }
    }

    /** Fills the cells of a folded field's row {@code row} from its boundary: all of them, or those in the halo alone. */
    private void fillRowHalo(FieldStorage state, int row, boolean haloOnly) {
        IrField field = state.field;
        int rank = sizes.length;
        int[] at = new int[rank];
        at[0] = row;
        for (int d = 1; d < rank; d++) {
            at[d] = -field.haloLow()[d];
        }
        while (true) {
            boolean inside = true;
            for (int d = 1; d < rank; d++) {
                inside &= at[d] >= 0 && at[d] < sizes[d];
            }
            if (!haloOnly || !inside) {
                fillHaloPoint(state, state.index(at, zero), at);
            } else {
                at[rank - 1] = sizes[rank - 1] - 1;   // past this run of interior cells: the halo alone costs a row nothing more
            }
            int d = rank - 1;
            while (d >= 1 && ++at[d] >= sizes[d] + field.haloHigh()[d]) {
                at[d] = -field.haloLow()[d];
                d--;
            }
            if (d < 1) {
                return;
            }
        }
    }

    /** Sets every halo cell of a state field from its boundary before any actor fires. */
    private void fillHalo(FieldStorage state) {
        IrField field = state.field;
        HaloPoints.forEach(sizes, field.haloLow(), field.haloHigh(), (index, at) -> fillHaloPoint(state, index, at));
    }

    /** Sets one halo cell, at storage index {@code index} and coordinates {@code at}, from the field's boundary. */
    private void fillHaloPoint(FieldStorage state, int index, int[] at) {
        IrField field = state.field;
        System.arraycopy(at, 0, point, 0, point.length);
        if (field.boundary() != null) {
            if (field.type() == Type.DOUBLE) {
                state.doubles[index] = real(field.boundary());
            } else {
                state.setIntegral(index, integral(field.boundary()));
            }
        } else if (field.boundaryInput() != IrField.NO_INPUT) {
            FieldStorage input = storage[field.boundaryInput()];
            int from = input.index(point, zero);
            if (field.type() == Type.DOUBLE) {
                state.doubles[index] = input.doubles[from];
            } else {
                state.setIntegral(index, input.integral(from));
            }
        }
        state.markProduced(index);
    }

    /** Fires {@code actor} at the point with coordinates {@code at}. */
    void fire(int actor, int[] at) {
        System.arraycopy(at, 0, point, 0, point.length);
        firingActor = actor;
        IrActor spec = graph.actor(actor);
        FieldStorage target = storage[spec.writes()];
        int index = target.index(point, zero);
        if (target.field.type() == Type.DOUBLE) {
            target.doubles[index] = real(spec.body());
        } else {
            target.setIntegral(index, integral(spec.body()));
        }
        target.markProduced(index);
        if (streamed != null) {
            boolean real = target.field.type() == Type.DOUBLE;
            streamed.produced(spec.writes(), at, real ? 0 : target.integral(index), real ? target.doubles[index] : 0);
        }
    }

    /** A field's storage: its padded array, or a folded field's window of rows. */
    FieldStorage storage(int field) {
        return storage[field];
    }

    /** Each field's padded storage array, in field order, then each lookup table's array, in table order. */
    Object[] paddedArrays() {
        Object[] arrays = new Object[storage.length + tables.length];
        for (int f = 0; f < storage.length; f++) {
            FieldStorage field = storage[f];
            arrays[f] = field.ints != null ? field.ints : field.longs != null ? field.longs : field.doubles;
        }
        System.arraycopy(tables, 0, arrays, storage.length, tables.length);
        return arrays;
    }

    /** The row-major element number of a lookup, each index checked against its own axis. */
    private int lookupIndex(IrExpr.Lookup lookup) {
        int[] extents = tableExtents[lookup.table()];
        int flat = 0;
        for (int axis = 0; axis < extents.length; axis++) {
            long index = integral(lookup.indices().get(axis));
            if (index < 0 || index >= extents[axis]) {
                throw KernelExecutionException.lookupOutOfRange(graph, lookup.table(), axis, index);
            }
            flat = flat * extents[axis] + (int) index;
        }
        return flat;
    }

    KernelOutputs outputs() {
        if (streamed == null) {
            return KernelOutputs.fromPadded(graph, sizes, paddedArrays());
        }
        Object[] padded = paddedArrays();
        Object[] whole = new Object[storage.length];
        for (FieldStorage field : storage) {
            if (field.field.isState() && field.window == 0) {
                whole[field.field.id()] = KernelOutputs.interior(field.field, sizes, padded[field.field.id()]);
            }
        }
        return streamed.outputs(whole);
    }

    private int loadIndex(IrExpr.Load load) {
        FieldStorage field = storage[load.field()];
        int index = field.index(point, load.offset());
        if (!field.isProduced(index)) {
            int[] source = point.clone();
            for (int d = 0; d < source.length; d++) {
                source[d] += load.offset()[d];
            }
            throw new ReadBeforeProducedException("actor " + graph.actor(firingActor).name() + " at " + Arrays.toString(point)
                    + " read " + IrPrinter.load(graph, load.field(), load.offset()) + " = " + field.field.name()
                    + Arrays.toString(source) + " before it was produced");
        }
        return index;
    }

    /** Evaluates an int, long or bool expression. */
    private long integral(IrExpr expr) {
        return switch (expr) {
            case IrExpr.Const c -> c.integral();
            case IrExpr.IndexVar v -> point[v.dimension()];
            case IrExpr.SizeVar v -> sizes[v.dimension()];
            case IrExpr.ParamVar p -> integralParams[p.param()];
            case IrExpr.Load load -> storage[load.field()].integral(loadIndex(load));
            case IrExpr.Lookup lookup -> tables[lookup.table()] instanceof int[] ints ? ints[lookupIndex(lookup)]
                    : ((long[]) tables[lookup.table()])[lookupIndex(lookup)];
            case IrExpr.Accumulator a -> integralSlots[a.slot()];
            case IrExpr.Unary u -> unary(u);
            case IrExpr.Binary b -> binary(b);
            case IrExpr.Select s -> integral(s.condition()) != 0 ? integral(s.whenTrue()) : integral(s.whenFalse());
            case IrExpr.Cast c -> c.operand().type() == Type.DOUBLE
                    ? (c.type() == Type.INT ? (long) (int) real(c.operand()) : (long) real(c.operand()))
                    : (c.type() == Type.INT ? (long) (int) integral(c.operand()) : integral(c.operand()));
            case IrExpr.Iterate it -> {
                int count = (int) integral(it.count());
                long acc = integral(it.init());
                for (int k = 0; k < count; k++) {
                    integralSlots[it.slot()] = acc;
                    acc = integral(it.body());
                }
                yield acc;
            }
        };
    }

    /** Evaluates a double expression. */
    private double real(IrExpr expr) {
        return switch (expr) {
            case IrExpr.Const c -> c.real();
            case IrExpr.ParamVar p -> realParams[p.param()];
            case IrExpr.Load load -> storage[load.field()].doubles[loadIndex(load)];
            case IrExpr.Lookup lookup -> ((double[]) tables[lookup.table()])[lookupIndex(lookup)];
            case IrExpr.Accumulator a -> realSlots[a.slot()];
            case IrExpr.Unary u -> u.operator() == dev.finegrain.dsl.UnaryOperator.NEG ? -real(u.operand()) : Math.abs(real(u.operand()));
            case IrExpr.Binary b -> {
                double left = real(b.left());
                double right = real(b.right());
                yield switch (b.operator()) {
                    case ADD -> left + right;
                    case SUB -> left - right;
                    case MUL -> left * right;
                    case DIV -> left / right;
                    case MIN -> Math.min(left, right);
                    case MAX -> Math.max(left, right);
                    default -> throw new IllegalStateException("verified IR has double " + b.operator());
                };
            }
            case IrExpr.Select s -> integral(s.condition()) != 0 ? real(s.whenTrue()) : real(s.whenFalse());
            case IrExpr.Cast c -> c.operand().type() == Type.DOUBLE ? real(c.operand())
                    : c.operand().type() == Type.INT ? (double) (int) integral(c.operand()) : (double) integral(c.operand());
            case IrExpr.Iterate it -> {
                int count = (int) integral(it.count());
                double acc = real(it.init());
                for (int k = 0; k < count; k++) {
                    realSlots[it.slot()] = acc;
                    acc = real(it.body());
                }
                yield acc;
            }
            case IrExpr.IndexVar v -> throw new IllegalStateException("index is not a double");
            case IrExpr.SizeVar v -> throw new IllegalStateException("size is not a double");
        };
    }

    private long unary(IrExpr.Unary u) {
        long value = integral(u.operand());
        return switch (u.type()) {
            case INT -> switch (u.operator()) {
                case NEG -> -(int) value;
                case ABS -> Math.abs((int) value);
                case NOT -> ~(int) value;
            };
            case LONG -> switch (u.operator()) {
                case NEG -> -value;
                case ABS -> Math.abs(value);
                case NOT -> ~value;
            };
            case BOOL -> value ^ 1;
            case DOUBLE -> throw new IllegalStateException("double unary evaluated as integral");
        };
    }

    private long binary(IrExpr.Binary b) {
        Type operands = b.left().type();
        if (operands == Type.DOUBLE) {
            double left = real(b.left());
            double right = real(b.right());
            return switch (b.operator()) {
                case LT -> left < right ? 1 : 0;
                case LE -> left <= right ? 1 : 0;
                case GT -> left > right ? 1 : 0;
                case GE -> left >= right ? 1 : 0;
                case EQ -> left == right ? 1 : 0;
                case NE -> left != right ? 1 : 0;
                default -> throw new IllegalStateException("double " + b.operator() + " evaluated as integral");
            };
        }
        long left = integral(b.left());
        long right = integral(b.right());
        return switch (b.operator()) {
            case LT -> left < right ? 1 : 0;
            case LE -> left <= right ? 1 : 0;
            case GT -> left > right ? 1 : 0;
            case GE -> left >= right ? 1 : 0;
            case EQ -> left == right ? 1 : 0;
            case NE -> left != right ? 1 : 0;
            case AND -> left & right;
            case OR -> left | right;
            case XOR -> left ^ right;
            default -> arithmetic(b, left, right, operands == Type.INT);
        };
    }

    /**
     * Arithmetic on integral operands held as longs. Int results are the long results narrowed, which is Java's
     * wrapping int arithmetic, except for shifts: an int shift takes its count mod 32 and shifts 32 bits.
     */
    private long arithmetic(IrExpr.Binary b, long left, long right, boolean int32) {
        long result = switch (b.operator()) {
            case ADD -> left + right;
            case SUB -> left - right;
            case MUL -> left * right;
            case DIV -> left / nonZero(right);
            case REM -> left % nonZero(right);
            case MIN -> Math.min(left, right);
            case MAX -> Math.max(left, right);
            case SHL -> int32 ? (int) left << right : left << right;
            case SHR -> int32 ? (int) left >> right : left >> right;
            case USHR -> int32 ? (int) left >>> right : left >>> right;
            default -> throw new IllegalStateException((int32 ? "int " : "long ") + b.operator());
        };
        return int32 ? (int) result : result;
    }

    private long nonZero(long divisor) {
        if (divisor == 0) {
            throw new KernelExecutionException("kernel '" + graph.name() + "', actor '" + graph.actor(firingActor).name()
                    + "' at " + Arrays.toString(point) + ": integer division by zero; guard the divisor with select(...)");
        }
        return divisor;
    }
}
