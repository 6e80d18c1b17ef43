package dev.finegrain.compiler.backend.jvm.lanes;

import dev.finegrain.compiler.backend.jvm.code.JExpr;
import dev.finegrain.compiler.backend.jvm.code.JStmt;
import dev.finegrain.compiler.backend.jvm.code.JType;
import dev.finegrain.compiler.backend.jvm.layout.VectorWidth;
import dev.finegrain.compiler.backend.jvm.lowering.LoweringContext;
import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.compiler.ir.IrField;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.IntFunction;
import java.util.function.IntUnaryOperator;

import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.add;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.constant;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.mul;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.sub;

/**
 * What every lowering to lanes shares ({@link LaneStrips} for tiles and bands, the row scans, {@link HyperplaneLanes}
 * for hyperplane steps): the species and lane count, the constant index vectors of the in-register transpose and of
 * the one-lane shift, the transpose itself, and the arithmetic of a strip's cells in a field's storage.
 */
public final class LaneVectors {

    final LoweringContext cx;
    final StripMapping mapping;
    final JExpr.Species species;
    final JType lane;
    final JType vector;
    public final int k;
    final int skew;
    /** The species and why this width: "IntVector.SPECIES_512, fixed at generation: ...". */
    private final String shape;
    /** The two index vectors of the transpose's zip: lanes 0..k/2-1 of two vectors interleaved, and lanes k/2..k-1. */
    private JExpr.Local zipLow;
    private JExpr.Local zipHigh;
    /** Lane 0 takes lane 0 of the second vector, lane r lane r - 1 of the first. */
    private JExpr.Local shiftUp;
    /** Locals a caller may fill with k row vectors before {@link #transpose}, or take its result in. */
    JExpr.Local[] scratchA;
    private JExpr.Local[] scratchB;
    private JExpr.Local[] scratchC;
    private final Map<Integer, JExpr.Local> laneStride = new LinkedHashMap<>();
    private final Map<IrExpr, JExpr.Local> uniforms = new LinkedHashMap<>();
    private JExpr.Local laneIndex;
    private JExpr.Local laneLag;

    /** Lanes for the kernel, or none; {@code summary} is the line {@code show --java} prints about it. */
    public record Choice(Optional<LaneVectors> lanes, String summary, Optional<String> refusal) {
        /** No lanes, for {@code reason}, which the summary says. */
        static Choice none(String reason) {
            return new Choice(Optional.empty(), "Lanes: none; " + reason + ".", Optional.of(reason));
        }
    }

    /**
     * Lanes when the kernel maps to strips ({@link StripMapping}), the width gives at least two lanes of its type, and
     * {@code shapeAgainst} (given the lanes and the skew) finds no reason in the schedule against them.
     */
    public static Choice choose(LoweringContext cx, VectorWidth width, BiFunction<Integer, Integer, Optional<String>> shapeAgainst) {
        return choose(cx, width, true, shapeAgainst);
    }

    /** As above; {@code strips} false for lanes that load every read from storage ({@link StripMapping#of}). */
    public static Choice choose(LoweringContext cx, VectorWidth width, boolean strips, BiFunction<Integer, Integer, Optional<String>> shapeAgainst) {
        return choose(cx, width, strips, false, shapeAgainst);
    }

    /**
     * As above; {@code alongRows} for lanes along one row (the row scans), which take reads of sequences and table
     * lookups too: {@code shapeAgainst} must then refuse every form whose lanes run across rows.
     */
    public static Choice choose(LoweringContext cx, VectorWidth width, boolean strips, boolean alongRows,
                                BiFunction<Integer, Integer, Optional<String>> shapeAgainst) {
        StripMapping.Decision decision = StripMapping.of(cx.graph, strips, alongRows);
        if (decision.mapping().isEmpty()) {
            return Choice.none(decision.reason());
        }
        StripMapping mapping = decision.mapping().get();
        JType lane = LoweringContext.valueType(mapping.laneType());
        int lanes = width.lanes(lane);
        if (lanes < 2) {
            return Choice.none(width.origin());
        }
        Optional<String> against = shapeAgainst.apply(lanes, mapping.skew());
        if (against.isPresent()) {
            return Choice.none(against.get());
        }
        JExpr.Species species = width.species(lane);
        String shape = species.vector().simpleName() + "." + species.constant() + ", fixed at generation: " + width.origin();
        return new Choice(Optional.of(new LaneVectors(cx, mapping, species, shape)), "Lanes: strips of " + lanes + " rows, one "
                + lane.javaName() + " lane per row (" + shape + "), each row " + mapping.skew()
                + " column(s) behind the one above, from the hyperplane (" + mapping.skew() + ",1).", Optional.empty());
    }

    private LaneVectors(LoweringContext cx, StripMapping mapping, JExpr.Species species, String shape) {
        this.cx = cx;
        this.mapping = mapping;
        this.species = species;
        this.shape = shape;
        this.lane = species.lane();
        this.vector = species.vector();
        this.k = species.lanes();
        this.skew = mapping.skew();
    }

    /**
     * Declares the constant index vectors (set in the run method's prologue) and the transpose's scratch locals; the
     * lowering calls it once, after its own first locals.
     */
    void declareLocals() {
        int half = k / 2;
        zipLow = cx.local("transposeZipLow", vector);
        zipHigh = cx.local("transposeZipHigh", vector);
        cx.prologue.add(new JStmt.Assign(zipLow, constants(c -> c % 2 == 0 ? c / 2 : k + c / 2)));
        cx.prologue.add(new JStmt.Assign(zipHigh, constants(c -> c % 2 == 0 ? half + c / 2 : k + half + c / 2)));
        declareShiftUp();
        scratchA = locals("laneScratchA", vector, k);
        scratchB = locals("laneScratchB", vector, k);
        scratchC = locals("laneScratchC", vector, k);
    }

    /** The summary line of a lowering that runs its lanes other than as skewed strips of rows, which it then describes. */
    public String lanesSummary() {
        return "Lanes: " + k + " " + lane.javaName() + " lanes (" + shape + ").";
    }

    /** Declares the constant index vector of {@link #shiftedUp} (set in the prologue), once; lowerings without transposes call it alone. */
    void declareShiftUp() {
        if (shiftUp == null) {
            shiftUp = cx.local("laneShiftUp", vector);
            cx.prologue.add(new JStmt.Assign(shiftUp, constants(c -> c == 0 ? k : c - 1)));
        }
    }

    /**
     * Transposes k vectors (row r, lane c) to k vectors (lane c becomes vector c, row r its lane r): log2 k rounds of
     * the same zip, vector 2i of a round interleaving the low halves of vectors i and i + k/2 of the round before and
     * vector 2i+1 their high halves. A round moves the element at (r, c) to the position whose 2 log2 k bits, row then
     * lane, are those of (r, c) rotated left by one, so log2 k rounds swap row and lane. Why a zip and not the usual
     * exchange of blocks of d lanes per round: all rounds share two index vectors where the exchange needs two per
     * round, and each index vector holds a register through the whole block loop, where a strip block of 16 int lanes
     * needs about all 32 AVX-512 registers. {@code out} must be neither
     * {@code rows} nor the scratch locals B and C, which the rounds in between write.
     */
    List<JStmt> transpose(JExpr.Local[] rows, JExpr.Local[] out) {
        List<JStmt> statements = new ArrayList<>();
        int rounds = Integer.numberOfTrailingZeros(k);
        JExpr.Local[] current = rows;
        for (int round = 0; round < rounds; round++) {
            JExpr.Local[] target = round == rounds - 1 ? out : round % 2 == 0 ? scratchB : scratchC;
            for (int i = 0; i < k / 2; i++) {
                statements.add(new JStmt.Assign(target[2 * i], new JExpr.Permute(zipLow, current[i], current[i + k / 2])));
                statements.add(new JStmt.Assign(target[2 * i + 1], new JExpr.Permute(zipHigh, current[i], current[i + k / 2])));
            }
            current = target;
        }
        return statements;
    }

    /** {@code vector} with every lane one lane up, and lane 0 taking {@code fill}. */
    JExpr shiftedUp(JExpr vector, JExpr fill) {
        return new JExpr.Permute(shiftUp, vector, new JExpr.Broadcast(species, fill));
    }

    /**
     * The lane shifts of a max scan over the lanes, d = 1, 2, 4, ... lanes up (set in the prologue): lane l of
     * {@code shift.selectFrom(h)} is {@code h[l - d]}, or {@code h[l]} for the lanes below d, which a max keeps.
     */
    List<JExpr.Local> scanShifts() {
        List<JExpr.Local> shifts = new ArrayList<>();
        for (int d = 1; d < k; d *= 2) {
            shifts.add(shift(d));
        }
        return shifts;
    }

    /** The lane shift d lanes up, set in the prologue. */
    private JExpr.Local shift(int distance) {
        JExpr.Local shift = cx.local("scanShift" + distance, vector);
        cx.prologue.add(new JStmt.Assign(shift, constants(l -> l >= distance ? l - distance : l)));
        return shift;
    }

    /** Whether the lanes hold longs (else ints, or doubles). */
    boolean longLanes() {
        return lane.equals(JType.LONG);
    }

    /**
     * A row scan's gap check: {@code 0 <= gap <= MAX / divisor} in the lane type, so that no multiple of the gap up to
     * {@code divisor} gaps wraps.
     */
    JExpr gapAtMostMaxOver(JExpr gap, int divisor) {
        JExpr most = longLanes() ? JExpr.Const.ofLong(Long.MAX_VALUE / divisor) : constant(Integer.MAX_VALUE / divisor);
        return new JExpr.Binary(JExpr.Binary.Op.AND, LoweringContext.compare(JExpr.Binary.Op.GE, gap, laneConstant(0)),
                LoweringContext.compare(JExpr.Binary.Op.LE, gap, most));
    }

    /** The least value of the lane type (integral lanes). */
    JExpr laneMinimum() {
        return longLanes() ? JExpr.Const.ofLong(Long.MIN_VALUE) : constant(Integer.MIN_VALUE);
    }

    /** A row scan's gaps to the vector's last lane: {@code (k - 1 - l) gap} in lane l. */
    JExpr tailGaps(JExpr gap) {
        return new JExpr.Lanewise(JExpr.LaneOp.MUL, new JExpr.Broadcast(species, gap), constants(l -> k - 1 - l));
    }

    /** An integral constant of the lane type (long for long lanes, else int). */
    JExpr laneConstant(int value) {
        return longLanes() ? JExpr.Const.ofLong(value) : constant(value);
    }

    /** An int in every lane, converted to the lane type. */
    JExpr broadcastInt(JExpr value) {
        return new JExpr.Broadcast(species, lane.equals(JType.INT) ? value : new JExpr.Convert(value, lane));
    }

    /** A vector of the k values {@code value(c)}, one per lane c. */
    JExpr constants(IntUnaryOperator value) {
        List<JExpr> values = new ArrayList<>();
        for (int c = 0; c < k; c++) {
            int v = value.applyAsInt(c);
            values.add(switch (lane.kind()) {
                case INT -> JExpr.Const.ofInt(v);
                case LONG -> JExpr.Const.ofLong(v);
                default -> JExpr.Const.ofDouble(v);
            });
        }
        return new JExpr.VectorLoad(species, new JExpr.NewArray(lane, values), constant(0));
    }

    /** A vector of lane r's element {@code index.apply(r)} of the field, loaded one by one. */
    JExpr gather(int field, IntFunction<JExpr> index) {
        List<JExpr> values = new ArrayList<>();
        for (int r = 0; r < k; r++) {
            values.add(new JExpr.ArrayLoad(cx.array[field], index.apply(r)));
        }
        return new JExpr.VectorLoad(species, new JExpr.NewArray(lane, values), constant(0));
    }

    /**
     * The storage index of lane r's cell at lane 0's column {@code column}, in a strip whose first row the field's
     * row base points to: r rows down and skew * r columns west.
     */
    JExpr cell(int field, int r, JExpr column) {
        return add(add(cx.rowBase[field], mul(constant(r), laneStride(field))), column);
    }

    /** Per field: its row stride minus the skew, so that lane r's cell is r of these past lane 0's. */
    private JExpr.Local laneStride(int field) {
        return laneStride.computeIfAbsent(field, f -> {
            JExpr.Local local = cx.local(cx.graph.field(f).name() + "LaneStride", JType.INT);
            cx.prologue.add(new JStmt.Assign(local, sub(cx.stride[f][0], constant(skew))));
            return local;
        });
    }

    /** An index variable's vector: the strip's rows from {@code stripRow}, or each lane's column at lane 0's {@code column}. */
    JExpr indexVector(int dimension, JExpr stripRow, JExpr column) {
        if (dimension == 0) {
            return new JExpr.Lanewise(JExpr.LaneOp.ADD, broadcastInt(stripRow), laneIndex());
        }
        if (laneLag == null) {
            laneLag = cx.local("laneLag", vector);
            cx.prologue.add(new JStmt.Assign(laneLag, constants(c -> c * skew)));
        }
        return new JExpr.Lanewise(JExpr.LaneOp.SUB, broadcastInt(column), laneLag);
    }

    /**
     * A read of a sequence input by lanes along the current row, lane 0 at column {@code laneZeroColumn} (absolute): a
     * sequence along the row is one vector load of its k elements; one along the rows, the row's element in every lane.
     */
    JExpr sequenceAlongRow(IrExpr.Load load, JExpr laneZeroColumn) {
        IrField field = cx.graph.field(load.field());
        if (field.spans()[0]) {
            return new JExpr.Broadcast(species, cx.value(field.id(), add(cx.absoluteCoordinate(0),
                    constant(field.haloLow()[0] + load.offset()[0]))));
        }
        return new JExpr.VectorLoad(species, cx.array[field.id()], add(laneZeroColumn, constant(field.haloLow()[1] + load.offset()[1])));
    }

    /** The constant vector of lane numbers (0, 1, ..., k - 1), set once in the prologue. */
    JExpr.Local laneIndex() {
        if (laneIndex == null) {
            laneIndex = cx.local("laneIndex", vector);
            cx.prologue.add(new JStmt.Assign(laneIndex, constants(c -> c)));
        }
        return laneIndex;
    }

    /** The vector of a constant, param or size in every lane, broadcast once in the prologue and kept in a local. */
    JExpr uniform(IrExpr expr) {
        return uniforms.computeIfAbsent(expr, e -> {
            JExpr.Local local = cx.local("uniform" + uniforms.size(), vector);
            cx.prologue.add(new JStmt.Assign(local, LaneExpressions.broadcast(e, species, this::scalar)));
            return local;
        });
    }

    /** The scalar of a constant, param or size (a param's or size's local), which lanes broadcast. */
    JExpr scalar(IrExpr expr) {
        return switch (expr) {
            case IrExpr.Const c -> LoweringContext.constant(c);
            case IrExpr.ParamVar p -> cx.param[p.param()];
            case IrExpr.SizeVar v -> cx.size[v.dimension()];
            default -> throw new IllegalStateException("no scalar for " + expr);
        };
    }

    JExpr.Local[] locals(String name, JType type, int count) {
        JExpr.Local[] locals = new JExpr.Local[count];
        for (int i = 0; i < count; i++) {
            locals[i] = cx.local(name + i, type);
        }
        return locals;
    }

    /** Every distinct read of an input in the actors' bodies, by a name that says field and offset. */
    Map<String, IrExpr.Load> inputReads() {
        Map<String, IrExpr.Load> reads = new LinkedHashMap<>();
        cx.graph.actors().forEach(actor -> collectInputs(actor.body(), reads));
        return reads;
    }

    private void collectInputs(IrExpr expr, Map<String, IrExpr.Load> reads) {
        if (expr instanceof IrExpr.Load load && cx.graph.field(load.field()).isInput()) {
            reads.putIfAbsent(accessKey(load.field(), load.offset()), load);
        }
        StripMapping.children(expr).forEach(child -> collectInputs(child, reads));
    }

    /**
     * The name of a read (or write) of a field at an offset: {@code grid} at (0, 0), {@code gridIPlus1} at (1, 0),
     * {@code gridJMinus2} at (0, -2).
     */
    String accessKey(int field, int[] offset) {
        StringBuilder key = new StringBuilder(cx.graph.field(field).name());
        for (int d = 0; d < offset.length; d++) {
            if (offset[d] != 0) {
                String index = cx.graph.kernel().domain().get(d).index();
                key.append(Character.toUpperCase(index.charAt(0))).append(index.substring(1))
                        .append(offset[d] > 0 ? "Plus" : "Minus").append(Math.abs(offset[d]));
            }
        }
        return key.toString();
    }
}
