package dev.finegrain.compiler.backend.jvm.lowering;

import dev.finegrain.compiler.backend.jvm.code.JClass;
import dev.finegrain.compiler.backend.jvm.code.JExpr.Binary.Op;
import dev.finegrain.compiler.backend.jvm.code.JExpr;
import dev.finegrain.compiler.backend.jvm.code.JStmt;
import dev.finegrain.compiler.backend.jvm.code.JType;
import dev.finegrain.compiler.backend.jvm.code.LocalUse;
import dev.finegrain.compiler.backend.jvm.layout.SyncLayout;
import dev.finegrain.compiler.backend.jvm.layout.VectorWidth;
import dev.finegrain.compiler.backend.jvm.tokens.JvmTokens;
import dev.finegrain.compiler.ir.IrChannel;
import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.TableSpec;
import dev.finegrain.dsl.Type;

import javax.lang.model.SourceVersion;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What every schedule's lowering shares: the frame bindings and locals of the generated {@code run} method and the
 * padded-array arithmetic; it holds the {@link ActorLowering} that fires actors and the {@link WestCarries} that
 * keep west reads in locals.
 *
 * <p>Layout. A field's storage is its domain padded by its halo, row-major. Along the last dimension L the
 * index of point p + offset o is {@code rowBase + x_L + delta(o)}, where rowBase depends only on the outer
 * coordinates and delta(o) only on the run's sizes, so inner loops add three ints per access. Where its {@link
 * RowLayout} aligns the rows or splits them into blocks, each field's row pitch, front (the elements before its first)
 * and block stride come from the frame, and rowBase adds the front or the block's origin.
 */
public final class LoweringContext {

    public static final String RUNTIME = JvmTokens.RUNTIME;
    public static final JType WATCHDOG = JvmTokens.WATCHDOG;
    public static final JType BARRIER = JType.interfaceReference(RUNTIME + "StepBarrier");

    public final KernelGraph graph;
    public final int rank;
    public final int last;
    public final SyncLayout sync;
    public final List<JClass.FieldBinding> bindings = new ArrayList<>();
    final List<JExpr.Local> locals = new ArrayList<>();
    public final List<JStmt> prologue = new ArrayList<>();
    /** The private methods {@link #outline} made, in the order the class declares them. */
    public final List<JClass.Helper> helpers = new ArrayList<>();
    private int nextSlot = 3;

    public final JExpr.Local worker = new JExpr.Local(1, "worker", JType.INT);
    public final JExpr.Local workers = new JExpr.Local(2, "workers", JType.INT);
    public final JExpr.Local[] size;
    public final JExpr.Local[] coordinate;
    public final JExpr.Local[] param;
    public final JExpr.Local[] array;
    /** Each lookup table's array, bound after the fields' ({@code arrays[fields + t]}). */
    public final JExpr.Local[] table;
    public final JExpr.Local[][] stride;
    public final JExpr.Local[] rowBase;
    public final JExpr.Local[] linearStride;
    final JExpr.Local linearRow;
    public final JExpr.Local rowNumber;
    public final JExpr.Local watchdog;
    public final JExpr.Local[] syncArray;
    /** Per field, the mask of its ring's slots where it is folded into one ({@link #foldIntoRing}), else 0; null when none is. */
    private int[] ringMask;
    /** Per field folded in 2D, the base of each row a read reaches, from {@code haloLow[0]} rows back (index 0) to the current one. */
    private JExpr.Local[][] ringRowBase;
    public final WestCarries carries;
    public final ActorLowering actors;
    /** How the fields' rows lie in storage: dense, aligned for strips, or in blocks of columns. */
    public final RowLayout layout;
    /** The lanes the class may use; they decide whether an input declared {@code Storage.BYTE} is kept in bytes. */
    private final VectorWidth width;
    private final Map<String, JExpr> deltas = new HashMap<>();
    private JExpr columnOrigin;
    /** Where in the prologue each field's row pitch (its stride of the last-but-one dimension) is set. */
    final int[] pitchStatement;

    public LoweringContext(KernelGraph graph, SyncLayout sync, VectorWidth width) {
        this.graph = graph;
        this.width = width;
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
        table = new JExpr.Local[graph.kernel().tables().size()];
        for (int t = 0; t < table.length; t++) {
            TableSpec spec = graph.kernel().tables().get(t);
            table[t] = bind(spec.name(), JType.arrayOf(valueType(spec.type())), JClass.Source.ARRAYS, graph.fields().size() + t);
        }
        pitchStatement = new int[graph.fields().size()];
        for (IrField field : graph.fields()) {
            stride[field.id()] = new JExpr.Local[last];
            pitchStatement[field.id()] = prologue.size();
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
        carries = new WestCarries(this);
        actors = new ActorLowering(this);
        layout = new RowLayout(this);
    }

    // ---- locals and bindings -------------------------------------------------------------------------------

    public JExpr.Local local(String name, JType type) {
        JExpr.Local local = new JExpr.Local(nextSlot, uniqueName(name), type);
        nextSlot += type.isWide() ? 2 : 1;
        locals.add(local);
        return local;
    }

    /**
     * Moves {@code region} into a private helper method and returns the statement that calls it, or the region itself
     * when the helper's parameters would not fit a JVM method (255 slots, {@code this} included). The helper takes the
     * run method's values of the locals the region reads before writing them and has its own copies of the rest, so
     * the caller does not see what the region writes to a local: a lowering outlines only a region whose results are
     * in memory, and whose locals the caller writes again before it reads them.
     */
    public List<JStmt> outline(String name, String why, List<JStmt> region) {
        Set<JExpr.Local> read = LocalUse.readBeforeWritten(region);
        List<JExpr.Local> parameters = read.stream().sorted(Comparator.comparingInt(JExpr.Local::slot)).toList();
        if (1 + parameters.stream().mapToInt(local -> local.type().isWide() ? 2 : 1).sum() > 255) {
            return region;
        }
        List<JExpr.Local> own = LocalUse.mentioned(region).stream().filter(local -> !read.contains(local))
                .sorted(Comparator.comparingInt(JExpr.Local::slot)).toList();
        String unique = name;
        for (int suffix = 2; isHelperName(unique); suffix++) {
            unique = name + suffix;
        }
        JClass.Helper helper = new JClass.Helper(unique, why, parameters, own, region);
        helpers.add(helper);
        return List.of(new JStmt.CallHelper(helper));
    }

    private boolean isHelperName(String name) {
        return name.equals("run") || helpers.stream().anyMatch(helper -> helper.name().equals(name));
    }

    /** The run method's local table for {@code run}: every local but those only helpers use. */
    public List<JExpr.Local> runLocals(List<JStmt> run) {
        Set<JExpr.Local> inRun = LocalUse.mentioned(run);
        Set<JExpr.Local> helpersOwn = new HashSet<>();
        helpers.forEach(helper -> helpersOwn.addAll(helper.locals()));
        return locals.stream().filter(local -> inRun.contains(local) || !helpersOwn.contains(local)).toList();
    }

    String uniqueName(String name) {
        String unique = name;
        for (int suffix = 2; isTaken(unique); suffix++) {
            unique = name + suffix;
        }
        return unique;
    }

    /**
     * A name is taken by another local or field, by run's parameters, or by the Java source itself: a keyword or literal
     * ({@code int}, {@code true}), or a name the source spells qualified calls and constants with ({@code java.lang.Math},
     * {@code dev.finegrain...}, {@code Integer.MIN_VALUE}), which a local of that name would shadow. Kernel names are
     * identifiers the DSL accepts, so a field named {@code int} becomes the local {@code int2}.
     */
    private boolean isTaken(String name) {
        return name.equals("worker") || name.equals("workers") || SourceVersion.isKeyword(name) || SHADOWING.contains(name)
                || locals.stream().anyMatch(l -> l.name().equals(name)) || bindings.stream().anyMatch(b -> b.name().equals(name));
    }

    /** The first segments of what the Java source names qualified, and the vector classes it imports (see {@link #isTaken}). */
    private static final Set<String> SHADOWING = Set.of("java", "dev", "Integer", "Long", "Double", "Math", "IntVector", "LongVector",
            "DoubleVector", "VectorMask", "VectorOperators", "VectorSpecies", "ByteVector");

    /** A final field bound from the frame, copied into a local of the same name at the start of run. */
    public JExpr.Local bind(String name, JType type, JClass.Source source, int index) {
        JExpr.Local local = local(name, type);
        bindings.add(new JClass.FieldBinding(local.name(), type, source, index));
        prologue.add(new JStmt.Assign(local, new JExpr.Field(local.name(), type)));
        return local;
    }

    JType syncType() {
        return sync.tokens().wordsType();
    }

    public static JType valueType(Type type) {
        return switch (type) {
            case INT -> JType.INT;
            case LONG -> JType.LONG;
            case DOUBLE -> JType.DOUBLE;
            case BOOL -> JType.BOOLEAN;
        };
    }

    public JType storageType(IrField field) {
        if (sync != null && sync.packed() && field.isState()) {
            return JType.LONG_ARRAY;
        }
        if (keptInBytes(field)) {
            return JType.BYTE_ARRAY;
        }
        return switch (field.type()) {
            case INT, BOOL -> JType.INT_ARRAY;
            case LONG -> JType.LONG_ARRAY;
            case DOUBLE -> JType.DOUBLE_ARRAY;
        };
    }

    /**
     * Whether an input declared {@code Storage.BYTE} is kept in bytes: always in scalar classes, and where lanes hold at
     * least 8 ints, so that a byte vector of as many lanes exists to widen (ByteVector's species start at 8 lanes).
     */
    private boolean keptInBytes(IrField field) {
        return graph.declaresBytes(field) && (width.bits() == 0 || width.lanes(JType.INT) >= 8);
    }

    boolean packed(int field) {
        return sync != null && sync.packed() && graph.field(field).isState();
    }

    // ---- small expression helpers --------------------------------------------------------------------------

    public static JExpr constant(int value) {
        return JExpr.Const.ofInt(value);
    }

    /** The Java constant of an IR constant, of the same type. */
    public static JExpr.Const constant(IrExpr.Const c) {
        return switch (c.type()) {
            case INT -> JExpr.Const.ofInt((int) c.integral());
            case LONG -> JExpr.Const.ofLong(c.integral());
            case DOUBLE -> JExpr.Const.ofDouble(c.real());
            case BOOL -> JExpr.Const.ofBoolean(c.integral() != 0);
        };
    }

    public static JExpr add(JExpr a, JExpr b) {
        if (b instanceof JExpr.Const c && c.integral() == 0 && c.type().equals(JType.INT)) {
            return a;
        }
        return new JExpr.Binary(Op.ADD, a, b);
    }

    public static JExpr sub(JExpr a, JExpr b) {
        return new JExpr.Binary(Op.SUB, a, b);
    }

    public static JExpr mul(JExpr a, JExpr b) {
        return new JExpr.Binary(Op.MUL, a, b);
    }

    public static JExpr compare(Op op, JExpr a, JExpr b) {
        return new JExpr.Binary(op, a, b);
    }

    public static JExpr math(String name, JType type, JExpr... arguments) {
        List<JType> parameters = Arrays.stream(arguments).map(a -> type).toList();
        return new JExpr.InvokeStatic("java/lang/Math", name, parameters, type, List.of(arguments));
    }

    public static JExpr runtime(String owner, String name, JType result, List<JType> parameters, JExpr... arguments) {
        return JvmTokens.runtime(owner, name, result, parameters, arguments);
    }

    /**
     * Statements setting every field's rowBase and the point row from the outer coordinates; the row number (a
     * division) only where group tokens need it.
     */
    public List<JStmt> rowBases() {
        List<JStmt> statements = new ArrayList<>();
        for (IrField field : graph.fields()) {
            if (field.isSequence()) {
                continue;   // read by its own coordinates (ActorLowering), never by a row base
            }
            if (rank == 2 && foldedIntoRing(field.id())) {
                // row i + dy lies in slot (i + dy + halo) mod capacity, its first column after the halo columns; the
                // current row's base is the row base too, for what reads it directly (a west carry's seed)
                JExpr.Local[] bases = ringRowBase[field.id()];
                for (int k = 0; k < bases.length; k++) {
                    JExpr slot = new JExpr.Binary(Op.AND, add(coordinate[0], constant(k)), constant(ringMask[field.id()]));
                    statements.add(new JStmt.Assign(bases[k], add(mul(slot, stride[field.id()][0]), constant(field.haloLow()[1]))));
                }
                statements.add(new JStmt.Assign(rowBase[field.id()], bases[bases.length - 1]));
                continue;
            }
            JExpr origin = layout.origin(field.id());
            JExpr base = origin == null ? constant(field.haloLow()[last]) : add(origin, constant(field.haloLow()[last]));
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
    public void columnsFrom(JExpr origin) {
        if (origin != null && sync != null) {
            throw new IllegalStateException("token words are numbered by absolute points");
        }
        columnOrigin = origin;
    }

    /** Whether a delta has been lowered yet (the row layout is chosen before the first). */
    boolean lowersDeltas() {
        return !deltas.isEmpty();
    }

    /** The index in field {@code field}'s storage of the current point plus {@code offset}. */
    public JExpr index(int field, int[] offset) {
        if (!foldedIntoRing(field)) {
            return add(add(rowBase[field], coordinate[last]), delta(field, offset));
        }
        if (rank == 2) {
            // a folded row's base comes from the ring slot of its own row, not from the current row's base and a stride
            return add(add(ringRowBase[field][offset[0] + graph.field(field).haloLow()[0]], coordinate[last]), constant(offset[last]));
        }
        return new JExpr.Binary(Op.AND, add(add(rowBase[field], coordinate[last]), delta(field, offset)), constant(ringMask[field]));
    }

    /**
     * Holds field {@code field} of a 1D or 2D domain in a ring of {@code capacity} slots along the first dimension (a
     * power of two; a slot is an instance in 1D, a padded row in 2D): an index's slot is its low bits. Before anything
     * reads or writes the field.
     */
    public void foldIntoRing(int field, int capacity) {
        if (rank > 2 || Integer.bitCount(capacity) != 1 || lowersDeltas() || layout.rows().isPresent()) {
            throw new IllegalStateException("a 1D or 2D field in dense rows folds into a ring of a power of two slots, before"
                    + " anything is lowered");
        }
        if (ringMask == null) {
            ringMask = new int[graph.fields().size()];
            ringRowBase = new JExpr.Local[graph.fields().size()][];
        }
        ringMask[field] = capacity - 1;
        if (rank == 2) {
            int reach = graph.field(field).haloLow()[0];
            ringRowBase[field] = new JExpr.Local[reach + 1];
            for (int back = 0; back <= reach; back++) {
                ringRowBase[field][reach - back] = local(graph.field(field).name() + "RingRow" + back, JType.INT);
            }
        }
    }

    /** A folded field's ring mask (its capacity less one), which indices into its ring are taken with. */
    public int ringMask(int field) {
        return ringMask[field];
    }

    /** Whether field {@code field} is held in a ring ({@link #foldIntoRing}). */
    public boolean foldedIntoRing(int field) {
        return ringMask != null && ringMask[field] != 0;
    }

    /** The storage distance from the current point of field {@code field} to the point {@code offset} from it. */
    public JExpr delta(int field, int[] offset) {
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
    public JExpr linearPoint() {
        return add(linearRow, coordinate[last]);
    }

    /** The linear number of the point {@code vector} before the current one. */
    public JExpr linearPointBefore(int[] vector) {
        JExpr point = linearPoint();
        for (int d = 0; d < rank; d++) {
            if (vector[d] != 0) {
                point = sub(point, last == d ? constant(vector[d]) : mul(constant(vector[d]), linearStride[d]));
            }
        }
        return point;
    }

    // ---- reading fields -------------------------------------------------------------------------------------

    /** The value of field {@code field} at storage index {@code index}, as its actors compute with it. */
    public JExpr value(int field, JExpr index) {
        JExpr element = new JExpr.ArrayLoad(array[field], index);
        if (packed(field)) {
            return new JExpr.Convert(element, JType.INT);
        }
        return graph.field(field).type() == Type.BOOL ? new JExpr.Convert(element, JType.BOOLEAN) : element;
    }

    /** The kernel's coordinate {@code dimension} of the current point, absolute even while columns count from an origin. */
    public JExpr absoluteCoordinate(int dimension) {
        return dimension == last && columnOrigin != null ? add(columnOrigin, coordinate[last]) : coordinate[dimension];
    }

    // ---- channels ------------------------------------------------------------------------------------------

    /** Whether the channel needs a token under the schedules here ({@link SyncLayout#needsToken}). */
    public boolean needsToken(IrChannel channel) {
        return SyncLayout.needsToken(rank, channel);
    }
}
