package dev.finegrain.compiler.backend.jvm;

import dev.finegrain.compiler.backend.jvm.code.JClass;
import dev.finegrain.compiler.backend.jvm.code.JExpr;
import dev.finegrain.compiler.backend.jvm.code.JExpr.Binary.Op;
import dev.finegrain.compiler.backend.jvm.code.JStmt;
import dev.finegrain.compiler.backend.jvm.code.JType;
import dev.finegrain.compiler.ir.IrActor;
import dev.finegrain.compiler.ir.IrChannel;
import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.IrPrinter;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.ir.Loads;
import dev.finegrain.dsl.Type;

import javax.lang.model.SourceVersion;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What every schedule's lowering shares: the frame bindings and locals of the generated {@code run} method, the
 * padded-array arithmetic, the lowering of actor bodies, and firing one point with its awaits and publishes.
 *
 * <p>Layout. A field's storage is its domain padded by its halo, row-major. Along the last dimension L the
 * index of point p + offset o is {@code rowBase + x_L + delta(o)}, where rowBase depends only on the outer
 * coordinates and delta(o) only on the run's sizes, so inner loops add three ints per access.
 */
final class LoweringContext {

    static final String RUNTIME = "dev/finegrain/runtime/jvm/";
    static final JType WATCHDOG = JType.reference(RUNTIME + "Watchdog");
    static final JType BARRIER = JType.reference(RUNTIME + "SenseBarrier");
    static final JType PARKING = JType.reference(RUNTIME + "ParkingFlags");

    final KernelGraph graph;
    final int rank;
    final int last;
    final SyncLayout sync;
    final List<JClass.FieldBinding> bindings = new ArrayList<>();
    final List<JExpr.Local> locals = new ArrayList<>();
    final List<JStmt> prologue = new ArrayList<>();
    private int nextSlot = 3;

    final JExpr.Local worker = new JExpr.Local(1, "worker", JType.INT);
    final JExpr.Local workers = new JExpr.Local(2, "workers", JType.INT);
    final JExpr.Local[] size;
    final JExpr.Local[] coordinate;
    final JExpr.Local[] param;
    final JExpr.Local[] array;
    final JExpr.Local[][] stride;
    final JExpr.Local[] rowBase;
    final JExpr.Local[] linearStride;
    final JExpr.Local linearRow;
    final JExpr.Local rowNumber;
    final JExpr.Local watchdog;
    final JExpr.Local[] syncArray;
    private final Map<String, JExpr> deltas = new HashMap<>();
    private final Map<String, JExpr.Local> accumulators = new HashMap<>();
    private final Map<Integer, Carry> carries = new LinkedHashMap<>();
    private boolean readCarries;
    private JExpr columnOrigin;

    /** A state field's value one column west of the point ({@code west}) and the one this point stores ({@code current}). */
    private record Carry(JExpr.Local west, JExpr.Local current) {}

    LoweringContext(KernelGraph graph, SyncLayout sync) {
        this.graph = graph;
        this.rank = graph.rank();
        this.last = rank - 1;
        this.sync = sync;
        size = new JExpr.Local[rank];
        coordinate = new JExpr.Local[rank];
        linearStride = new JExpr.Local[rank];
        for (int d = 0; d < rank; d++) {
            String sizeName = graph.kernel().domain().get(d).size();
            size[d] = bind(sizeName, JType.INT, JClass.Source.SIZES, d);
            coordinate[d] = local(graph.kernel().domain().get(d).index(), JType.INT);
        }
        param = new JExpr.Local[graph.kernel().params().size()];
        for (int p = 0; p < param.length; p++) {
            Type type = graph.kernel().params().get(p).type();
            param[p] = bind(graph.kernel().params().get(p).name(), valueType(type),
                    type == Type.DOUBLE ? JClass.Source.REAL_PARAMS : JClass.Source.INTEGRAL_PARAMS, p);
        }
        array = new JExpr.Local[graph.fields().size()];
        stride = new JExpr.Local[graph.fields().size()][];
        rowBase = new JExpr.Local[graph.fields().size()];
        for (IrField field : graph.fields()) {
            array[field.id()] = bind(field.name(), storageType(field), JClass.Source.ARRAYS, field.id());
        }
        for (IrField field : graph.fields()) {
            stride[field.id()] = new JExpr.Local[last];
            JExpr below = null;
            for (int d = last - 1; d >= 0; d--) {
                JExpr extent = add(size[d + 1], constant(field.haloLow()[d + 1] + field.haloHigh()[d + 1]));
                stride[field.id()][d] = local(field.name() + "Stride" + d, JType.INT);
                prologue.add(new JStmt.Assign(stride[field.id()][d], below == null ? extent : mul(below, extent)));
                below = stride[field.id()][d];
            }
            rowBase[field.id()] = local(field.name() + "Row", JType.INT);
        }
        for (int d = last; d >= 0; d--) {
            linearStride[d] = local("pointStride" + d, JType.INT);
            prologue.add(new JStmt.Assign(linearStride[d], d == last ? constant(1) : mul(linearStride[d + 1], size[d + 1])));
        }
        linearRow = local("pointRow", JType.INT);
        rowNumber = local("row", JType.INT);
        watchdog = bind("watchdog", WATCHDOG, JClass.Source.WATCHDOG, 0);
        syncArray = new JExpr.Local[sync == null ? 0 : sync.arrays()];
        for (int a = 0; a < syncArray.length; a++) {
            syncArray[a] = bind("tokens" + a, syncType(), JClass.Source.SYNC, a);
        }
    }

    // ---- locals and bindings -------------------------------------------------------------------------------

    JExpr.Local local(String name, JType type) {
        JExpr.Local local = new JExpr.Local(nextSlot, uniqueName(name), type);
        nextSlot += type.isWide() ? 2 : 1;
        locals.add(local);
        return local;
    }

    private String uniqueName(String name) {
        String unique = name;
        for (int suffix = 2; isTaken(unique); suffix++) {
            unique = name + suffix;
        }
        return unique;
    }

    /**
     * A name is taken by another local, by run's parameters, or by the Java source itself: a keyword or literal
     * ({@code int}, {@code true}), or a name the source spells qualified calls and constants with ({@code java.lang.Math},
     * {@code dev.finegrain...}, {@code Integer.MIN_VALUE}), which a local of that name would shadow. Kernel names are
     * identifiers the DSL accepts, so a field named {@code int} becomes the local {@code int2}.
     */
    private boolean isTaken(String name) {
        return name.equals("worker") || name.equals("workers") || SourceVersion.isKeyword(name) || SHADOWING.contains(name)
                || locals.stream().anyMatch(l -> l.name().equals(name));
    }

    /** The first segments of what the Java source names qualified, and the vector classes it imports (see {@link #isTaken}). */
    private static final Set<String> SHADOWING = Set.of("java", "dev", "Integer", "Long", "Double", "Math", "IntVector", "LongVector",
            "DoubleVector", "VectorMask", "VectorOperators", "VectorSpecies");

    /** A final field bound from the frame, copied into a local of the same name at the start of run. */
    JExpr.Local bind(String name, JType type, JClass.Source source, int index) {
        JExpr.Local local = local(name, type);
        bindings.add(new JClass.FieldBinding(local.name(), type, source, index));
        prologue.add(new JStmt.Assign(local, new JExpr.Field(local.name(), type)));
        return local;
    }

    JType syncType() {
        return switch (sync.mechanism()) {
            case BLOCKING -> PARKING;
            default -> JType.INT_ARRAY;
        };
    }

    static JType valueType(Type type) {
        return switch (type) {
            case INT -> JType.INT;
            case LONG -> JType.LONG;
            case DOUBLE -> JType.DOUBLE;
            case BOOL -> JType.BOOLEAN;
        };
    }

    JType storageType(IrField field) {
        if (sync != null && sync.packed() && field.isState()) {
            return JType.LONG_ARRAY;
        }
        return switch (field.type()) {
            case INT, BOOL -> JType.INT_ARRAY;
            case LONG -> JType.LONG_ARRAY;
            case DOUBLE -> JType.DOUBLE_ARRAY;
        };
    }

    boolean packed(int field) {
        return sync != null && sync.packed() && graph.field(field).isState();
    }

    // ---- small expression helpers --------------------------------------------------------------------------

    static JExpr constant(int value) {
        return JExpr.Const.ofInt(value);
    }

    static JExpr add(JExpr a, JExpr b) {
        if (b instanceof JExpr.Const c && c.integral() == 0 && c.type().equals(JType.INT)) {
            return a;
        }
        return new JExpr.Binary(Op.ADD, a, b);
    }

    static JExpr sub(JExpr a, JExpr b) {
        return new JExpr.Binary(Op.SUB, a, b);
    }

    static JExpr mul(JExpr a, JExpr b) {
        return new JExpr.Binary(Op.MUL, a, b);
    }

    static JExpr compare(Op op, JExpr a, JExpr b) {
        return new JExpr.Binary(op, a, b);
    }

    static JExpr math(String name, JType type, JExpr... arguments) {
        List<JType> parameters = Arrays.stream(arguments).map(a -> type).toList();
        return new JExpr.InvokeStatic("java/lang/Math", name, parameters, type, List.of(arguments));
    }

    static JExpr runtime(String owner, String name, JType result, List<JType> parameters, JExpr... arguments) {
        return new JExpr.InvokeStatic(RUNTIME + owner, name, parameters, result, List.of(arguments));
    }

    // ---- layout --------------------------------------------------------------------------------------------

    /**
     * Statements setting every field's rowBase and the point row from the outer coordinates; the row number (a
     * division) only where group tokens need it.
     */
    List<JStmt> rowBases() {
        List<JStmt> statements = new ArrayList<>();
        for (IrField field : graph.fields()) {
            JExpr base = constant(field.haloLow()[last]);
            for (int d = 0; d < last; d++) {
                base = add(base, mul(add(coordinate[d], constant(field.haloLow()[d])), stride[field.id()][d]));
            }
            statements.add(new JStmt.Assign(rowBase[field.id()], columnOrigin == null ? base : add(base, columnOrigin)));
        }
        JExpr linear = constant(0);
        JExpr row = constant(0);
        for (int d = 0; d < last; d++) {
            linear = add(linear, mul(coordinate[d], linearStride[d]));
        }
        statements.add(new JStmt.Assign(linearRow, linear));
        if (sync != null && sync.group() > 1) {
            statements.add(new JStmt.Assign(rowNumber, last == 0 ? row : new JExpr.Binary(Op.DIV, linearRow, size[last])));
        }
        return statements;
    }

    /**
     * From now on the last coordinate counts from {@code origin} (null: from 0): row bases include it and an index
     * read adds it. A tile's rows then loop from 0 to the tile's width, a constant, which the JIT unrolls whole for
     * narrow tiles. Only for schedules without tokens, whose words are numbered by the absolute point.
     */
    void columnsFrom(JExpr origin) {
        if (origin != null && sync != null) {
            throw new IllegalStateException("token words are numbered by absolute points");
        }
        columnOrigin = origin;
    }

    /** The index in field {@code field}'s storage of the current point plus {@code offset}. */
    JExpr index(int field, int[] offset) {
        return add(add(rowBase[field], coordinate[last]), delta(field, offset));
    }

    /** The storage distance from the current point of field {@code field} to the point {@code offset} from it. */
    JExpr delta(int field, int[] offset) {
        if (last == 0) {
            return constant(offset[0]);
        }
        String key = field + ":" + Arrays.toString(offset);
        return deltas.computeIfAbsent(key, k -> {
            JExpr sum = constant(offset[last]);
            for (int d = 0; d < last; d++) {
                if (offset[d] != 0) {
                    sum = add(sum, mul(constant(offset[d]), stride[field][d]));
                }
            }
            if (sum instanceof JExpr.Const) {
                return sum;
            }
            JExpr.Local local = local(graph.field(field).name() + "Delta" + deltas.size(), JType.INT);
            prologue.add(new JStmt.Assign(local, sum));
            return local;
        });
    }

    /** The row-major number of the current point over the unpadded domain. */
    JExpr linearPoint() {
        return add(linearRow, coordinate[last]);
    }

    /** The linear number of the point {@code vector} before the current one. */
    JExpr linearPointBefore(int[] vector) {
        JExpr point = linearPoint();
        for (int d = 0; d < rank; d++) {
            if (vector[d] != 0) {
                point = sub(point, last == d ? constant(vector[d]) : mul(constant(vector[d]), linearStride[d]));
            }
        }
        return point;
    }

    // ---- actor bodies --------------------------------------------------------------------------------------

    /** Statements firing one actor at the current point: evaluate the body, then store (or publish, when packed). */
    void fire(IrActor actor, List<JStmt> out) {
        out.add(describe(actor));
        store(actor, lower(actor, actor.body(), out), out);
    }

    JStmt describe(IrActor actor) {
        return new JStmt.Comment("actor " + actor.name() + ": " + IrPrinter.load(graph, actor.writes(), new int[rank])
                + " = " + IrPrinter.expression(graph, actor.body()));
    }

    /** Stores an actor's value at the current point (publishing it, when the ready bit is packed beside it). */
    void store(IrActor actor, JExpr value, List<JStmt> out) {
        int field = actor.writes();
        JExpr index = index(field, new int[rank]);
        Carry carry = carries.get(field);
        if (carry != null) {
            out.add(new JStmt.Assign(carry.current(), value));
            value = carry.current();
        }
        if (packed(field)) {
            out.add(new JStmt.Evaluate(runtime("PackedReadyWords", "publish", JType.VOID,
                    List.of(JType.LONG_ARRAY, JType.INT, JType.INT), array[field], index, value)));
        } else {
            JType element = storageType(graph.field(field)).element();
            out.add(new JStmt.Store(array[field], index, value.type().equals(element) ? value : new JExpr.Convert(value, element)));
        }
    }

    /**
     * True when the statements that lowering hoists out of the expression (fold loops, and the branches of a select
     * around a fold) read no state field, so they need no token to run.
     */
    boolean foldsReadNoState(IrExpr expr) {
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
            case IrExpr.Accumulator a -> true;
        };
    }

    private static boolean containsFold(IrExpr expr) {
        return IrExpr.slotsNeeded(expr) > 0;
    }

    private boolean readsState(IrExpr expr) {
        return Loads.anyMatch(expr, load -> graph.field(load.field()).isState());
    }

    /** Lowers an expression; loops of iterate folds are hoisted into {@code sink} ahead of the expression. */
    JExpr lower(IrActor actor, IrExpr expr, List<JStmt> sink) {
        return switch (expr) {
            case IrExpr.Const c -> switch (c.type()) {
                case INT -> JExpr.Const.ofInt((int) c.integral());
                case LONG -> JExpr.Const.ofLong(c.integral());
                case DOUBLE -> JExpr.Const.ofDouble(c.real());
                case BOOL -> JExpr.Const.ofBoolean(c.integral() != 0);
            };
            case IrExpr.IndexVar v when v.dimension() == last && columnOrigin != null -> add(columnOrigin, coordinate[last]);
            case IrExpr.IndexVar v -> coordinate[v.dimension()];
            case IrExpr.SizeVar v -> size[v.dimension()];
            case IrExpr.ParamVar p -> param[p.param()];
            case IrExpr.Load load when readCarries && carries.containsKey(load.field()) && Arrays.equals(load.offset(), west()) ->
                    carries.get(load.field()).west();
            case IrExpr.Load load -> value(load.field(), index(load.field(), load.offset()));
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
                JExpr.Local chosen = local("chosen", valueType(s.type()));
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
                JExpr.Local count = local("rounds" + it.slot(), JType.INT);
                JExpr.Local round = local("round" + it.slot(), JType.INT);
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

    /** The value of field {@code field} at storage index {@code index}, as its actors compute with it. */
    private JExpr value(int field, JExpr index) {
        JExpr element = new JExpr.ArrayLoad(array[field], index);
        if (packed(field)) {
            return new JExpr.Convert(element, JType.INT);
        }
        return graph.field(field).type() == Type.BOOL ? new JExpr.Convert(element, JType.BOOLEAN) : element;
    }

    /** The offset one column west along the last dimension: (0, ..., 0, -1). */
    private int[] west() {
        int[] west = new int[rank];
        west[last] = -1;
        return west;
    }

    /**
     * Keeps every state field that an actor reads one column west of the point in a local carried along the point
     * loop: each point stores its value there too, so the next point reads a register instead of loading what the
     * previous iteration has just stored (a load that waits on that store). The schedule then runs the point loop in
     * column order, calls {@link #seedCarries} before each such loop and {@link #advanceCarries} after each point, and
     * says with {@link #readCarries} in which loop bodies the reads may use the locals.
     */
    void carryWestReads() {
        for (IrField field : graph.fields()) {
            if (field.isState() && graph.actors().stream().anyMatch(actor -> reads(actor.body(), field.id(), west()))) {
                JType type = valueType(field.type());
                carries.put(field.id(), new Carry(local(field.name() + "West", type), local(field.name() + "Here", type)));
            }
        }
    }

    /** Whether expressions lowered from now on read carried fields' west values from their locals. */
    void readCarries(boolean fromLocals) {
        readCarries = fromLocals;
    }

    boolean readingCarries() {
        return readCarries;
    }

    /** Loads every carried field's value west of column {@code from}, before a point loop that starts there. */
    List<JStmt> seedCarries(JExpr from) {
        List<JStmt> seeds = new ArrayList<>();
        carries.forEach((field, carry) -> seeds.add(new JStmt.Assign(carry.west(),
                value(field, add(add(rowBase[field], from), delta(field, west()))))));
        return seeds;
    }

    /** After a point: the value it stored is the next point's west value. */
    List<JStmt> advanceCarries() {
        return carries.values().stream().<JStmt>map(carry -> new JStmt.Assign(carry.west(), carry.current())).toList();
    }

    private static boolean reads(IrExpr expr, int field, int[] offset) {
        return Loads.anyMatch(expr, load -> load.field() == field && Arrays.equals(load.offset(), offset));
    }

    private JExpr.Local accumulator(IrActor actor, int slot, JType type) {
        return accumulators.computeIfAbsent(actor.id() + ":" + slot, k -> local(actor.name() + "Acc" + slot, type));
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

    // ---- channels ------------------------------------------------------------------------------------------

    /** Whether the channel needs a token under the schedules here ({@link SyncLayout#needsToken}). */
    boolean needsToken(IrChannel channel) {
        return SyncLayout.needsToken(rank, channel);
    }
}
