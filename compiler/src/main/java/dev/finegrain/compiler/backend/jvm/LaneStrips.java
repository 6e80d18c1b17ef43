package dev.finegrain.compiler.backend.jvm;

import dev.finegrain.compiler.backend.jvm.code.JExpr;
import dev.finegrain.compiler.backend.jvm.code.JStmt;
import dev.finegrain.compiler.backend.jvm.code.JType;
import dev.finegrain.compiler.ir.IrActor;
import dev.finegrain.compiler.ir.IrExpr;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.IntFunction;
import java.util.function.IntUnaryOperator;

import static dev.finegrain.compiler.backend.jvm.LoweringContext.add;
import static dev.finegrain.compiler.backend.jvm.LoweringContext.constant;
import static dev.finegrain.compiler.backend.jvm.LoweringContext.math;
import static dev.finegrain.compiler.backend.jvm.LoweringContext.mul;
import static dev.finegrain.compiler.backend.jvm.LoweringContext.sub;

/**
 * Lowers a rectangle of a 2D kernel to strips of k rows whose k lanes step together, as a warp's lanes do
 * ({@link StripMapping} says why the k cells of a step are independent): one Vector API operation computes one cell
 * in each of the k rows.
 *
 * <p>A strip runs in three parts. The prologue triangle (lane r's first skew * (k-1-r) columns) and the epilogue
 * triangle (the columns after the last whole block) run as scalar points, row by row, which respects every
 * dependence. In between, blocks of k steps: loads and stores stay row-contiguous, k vector loads of k elements of
 * consecutive rows (each row starting skew columns further west) turned into k step vectors by an in-register
 * transpose (log2 k rounds of two-vector permutes), and the k step vectors of the results transposed back and stored
 * the same way. A read of the row above comes from the previous step vectors shifted up one lane, the lane above the
 * strip loaded from memory; earlier steps' vectors are carried in locals from block to block.
 */
final class LaneStrips {

    private final LoweringContext cx;
    private final StripMapping mapping;
    private final JExpr.Species species;
    private final JType lane;
    private final JType vector;
    private final int k;
    private final int skew;
    private final JExpr.Local stripRow;
    private final JExpr.Local stripsEnd;
    private final JExpr.Local block;
    private final JExpr.Local blocksEnd;
    private final JExpr.Local laneEnd;
    private final List<JExpr.Local[]> transposeIndexes = new ArrayList<>();
    private final JExpr.Local shiftUp;
    private final JExpr.Local[] scratchA;
    private final JExpr.Local[] scratchB;
    private final JExpr.Local[] scratchC;
    private final Map<Integer, JExpr.Local> laneStride = new LinkedHashMap<>();
    private final Map<Integer, Carried> carried = new LinkedHashMap<>();
    private final Map<String, InputRead> inputs = new LinkedHashMap<>();
    private JExpr.Local laneIndex;
    private JExpr.Local laneLag;

    /**
     * The step vectors of a state field: {@code steps[s]} this block's step s; {@code back[q]} the value q steps before
     * the block (q from 1); {@code above} and {@code aboveBack} the same for the vectors shifted up one lane, computed
     * {@code nearest} steps late (when the nearest read from above first needs them).
     */
    private record Carried(int field, JExpr.Local[] steps, JExpr.Local[] back, int nearest, JExpr.Local[] above, JExpr.Local[] aboveBack) {}

    /** A read of an input at one offset, and this block's vector of it for each step. */
    private record InputRead(int field, int[] offset, JExpr.Local[] steps) {}

    /** Strips for the kernel, or none; {@code summary} is the line {@code show --java} prints about it. */
    record Choice(Optional<LaneStrips> strips, String summary) {}

    /**
     * Strips when the kernel maps to them ({@link StripMapping}), the width gives at least two lanes of its type, and
     * {@code shapeAgainst} (given the lanes and the skew) finds no reason in the schedule's rectangles against them.
     */
    static Choice choose(LoweringContext cx, VectorWidth width, BiFunction<Integer, Integer, Optional<String>> shapeAgainst) {
        StripMapping.Decision decision = StripMapping.of(cx.graph);
        if (decision.mapping().isEmpty()) {
            return new Choice(Optional.empty(), "Lanes: none; " + decision.reason() + ".");
        }
        StripMapping mapping = decision.mapping().get();
        JType lane = LoweringContext.valueType(mapping.laneType());
        int lanes = width.lanes(lane);
        if (lanes < 2) {
            return new Choice(Optional.empty(), "Lanes: none; " + width.origin() + ".");
        }
        Optional<String> against = shapeAgainst.apply(lanes, mapping.skew());
        if (against.isPresent()) {
            return new Choice(Optional.empty(), "Lanes: none; " + against.get() + ".");
        }
        JExpr.Species species = width.species(lane);
        return new Choice(Optional.of(new LaneStrips(cx, mapping, width)), "Lanes: strips of " + lanes + " rows, one " + lane.javaName()
                + " lane per row (" + species.vector().internalName().substring("jdk/incubator/vector/".length()) + "." + species.constant()
                + ", fixed at generation: " + width.origin() + "), each row " + mapping.skew()
                + " column(s) behind the one above, from the hyperplane (" + mapping.skew() + ",1).");
    }

    private LaneStrips(LoweringContext cx, StripMapping mapping, VectorWidth width) {
        this.cx = cx;
        this.mapping = mapping;
        this.lane = LoweringContext.valueType(mapping.laneType());
        this.species = width.species(lane);
        this.vector = species.vector();
        this.k = species.lanes();
        this.skew = mapping.skew();
        stripRow = cx.local("stripRow", JType.INT);
        stripsEnd = cx.local("stripsEnd", JType.INT);
        block = cx.local("block", JType.INT);
        blocksEnd = cx.local("blocksEnd", JType.INT);
        laneEnd = cx.local("laneEnd", JType.INT);
        for (int d = k / 2; d >= 1; d /= 2) {
            int distance = d;
            JExpr.Local low = cx.local("transposeLow" + d, vector);
            JExpr.Local high = cx.local("transposeHigh" + d, vector);
            cx.prologue.add(new JStmt.Assign(low, laneConstants(c -> (c & distance) == 0 ? c : k + c - distance)));
            cx.prologue.add(new JStmt.Assign(high, laneConstants(c -> (c & distance) == 0 ? c + distance : k + c)));
            transposeIndexes.add(new JExpr.Local[] {low, high});
        }
        shiftUp = cx.local("laneShiftUp", vector);
        cx.prologue.add(new JStmt.Assign(shiftUp, laneConstants(c -> c == 0 ? k : c - 1)));
        scratchA = locals("laneScratchA", vector, k);
        scratchB = locals("laneScratchB", vector, k);
        scratchC = locals("laneScratchC", vector, k);
        for (IrActor actor : cx.graph.actors()) {
            int field = actor.writes();
            int nearest = mapping.nearestFromAbove(field);
            int back = Math.max(mapping.deepest(field, 0), nearest);
            int aboveBack = nearest == 0 ? 0 : mapping.deepest(field, 1) - nearest;
            String name = cx.graph.field(field).name();
            carried.put(field, new Carried(field, locals(name + "Step", vector, k), locals(name + "Back", vector, back),
                    nearest, nearest == 0 ? new JExpr.Local[0] : locals(name + "Above", vector, k), locals(name + "AboveBack", vector, aboveBack)));
        }
        for (IrActor actor : cx.graph.actors()) {
            collectInputs(actor.body());
        }
    }

    private void collectInputs(IrExpr expr) {
        if (expr instanceof IrExpr.Load load && cx.graph.field(load.field()).isInput()) {
            inputs.computeIfAbsent(inputKey(load.field(), load.offset()),
                    name -> new InputRead(load.field(), load.offset(), locals(name + "Step", vector, k)));
        }
        StripMapping.children(expr).forEach(this::collectInputs);
    }

    /** The row the current strip starts at; the statements around a strip may use it. */
    JExpr.Local stripRow() {
        return stripRow;
    }

    /** The first row after the last whole strip; the caller runs the rows from there on without lanes. */
    JExpr.Local stripsEnd() {
        return stripsEnd;
    }

    int lanes() {
        return k;
    }

    /**
     * Runs rows [rowFrom, rowTo) x columns [columnFrom, columnTo) in strips while k rows remain, with {@code before} and
     * {@code after} around each strip; every cell the rectangle reads outside itself must be final before it starts.
     */
    List<JStmt> strips(JExpr rowFrom, JExpr rowTo, JExpr columnFrom, JExpr columnTo, List<JStmt> before, List<JStmt> after) {
        boolean carries = cx.readingCarries();
        cx.readCarries(false);
        List<JStmt> out = new ArrayList<>();
        out.add(new JStmt.Comment("strips of " + k + " rows in " + k + " lanes; lane r runs " + skew + " * r columns behind lane 0, "
                + "so the cells of one step lie on one hyperplane and do not depend on each other"));
        out.add(new JStmt.Assign(stripsEnd, add(rowFrom, mul(new JExpr.Binary(JExpr.Binary.Op.DIV, sub(rowTo, rowFrom), constant(k)), constant(k)))));
        List<JStmt> strip = new ArrayList<>(before);
        strip.addAll(triangle(true, columnFrom, columnTo));
        JExpr mainStart = add(columnFrom, constant(skew * (k - 1)));
        strip.add(new JStmt.Comment("whole blocks of " + k + " steps: every lane inside the rectangle"));
        strip.add(new JStmt.Assign(blocksEnd, add(mainStart, mul(math("max", JType.INT, constant(0),
                math("floorDiv", JType.INT, sub(sub(columnTo, columnFrom), constant(skew * (k - 1))), constant(k))), constant(k)))));
        List<JStmt> blocks = new ArrayList<>();
        blocks.add(new JStmt.Assign(cx.coordinate[0], stripRow));
        blocks.addAll(cx.rowBases());
        blocks.addAll(history(mainStart));
        blocks.add(new JStmt.Loop(block, mainStart, blocksEnd, constant(k), blockBody()));
        strip.add(new JStmt.If(new JExpr.Binary(JExpr.Binary.Op.LT, mainStart, blocksEnd), blocks, List.of()));
        strip.addAll(triangle(false, columnFrom, columnTo));
        strip.addAll(after);
        out.add(new JStmt.Loop(stripRow, rowFrom, stripsEnd, constant(k), strip));
        cx.readCarries(carries);
        return out;
    }

    /** The prologue (lane r's columns before the blocks) or the epilogue (after them), as scalar points row by row. */
    private List<JStmt> triangle(boolean prologue, JExpr columnFrom, JExpr columnTo) {
        JExpr laneNumber = sub(cx.coordinate[0], stripRow);
        List<JStmt> row = new ArrayList<>(cx.rowBases());
        List<JStmt> point = new ArrayList<>();
        for (int actor : cx.graph.actorOrder()) {
            cx.fire(cx.graph.actor(actor), point);
        }
        if (prologue) {
            row.add(new JStmt.Assign(laneEnd, math("min", JType.INT, add(columnFrom, mul(constant(skew), sub(constant(k - 1), laneNumber))),
                    columnTo)));
            row.add(new JStmt.Loop(cx.coordinate[1], columnFrom, laneEnd, constant(1), point));
        } else {
            row.add(new JStmt.Loop(cx.coordinate[1], sub(blocksEnd, mul(constant(skew), laneNumber)), columnTo, constant(1), point));
        }
        return List.of(new JStmt.Comment(prologue ? "prologue: lane r alone runs its first " + skew + " * (" + (k - 1) + " - r) columns"
                        : "epilogue: the columns after the last whole block, row by row"),
                new JStmt.Loop(cx.coordinate[0], stripRow, add(stripRow, constant(k)), constant(1), row));
    }

    /** Loads the step vectors the first block reads from before it: lane r's values from memory, one by one. */
    private List<JStmt> history(JExpr mainStart) {
        List<JStmt> out = new ArrayList<>();
        out.add(new JStmt.Comment("the step vectors before the first block, lane by lane from memory"));
        for (Carried c : carried.values()) {
            for (int q = 1; q <= c.back().length; q++) {
                int stepsBack = q;
                out.add(new JStmt.Assign(c.back()[q - 1], gather(c.field(), r -> cell(c.field(), r, add(mainStart, constant(-stepsBack))))));
            }
            for (int q = 1; q <= c.aboveBack().length; q++) {
                // the vector shifted up one lane that the nearest read from above took q steps before the block
                int column = skew - c.nearest() - q;
                out.add(new JStmt.Assign(c.aboveBack()[q - 1], gather(c.field(),
                        r -> sub(cell(c.field(), r, add(mainStart, constant(column))), cx.stride[c.field()][0]))));
            }
        }
        return out;
    }

    /** A vector of lane r's element {@code index.apply(r)} of the field, loaded one by one. */
    private JExpr gather(int field, IntFunction<JExpr> index) {
        List<JExpr> values = new ArrayList<>();
        for (int r = 0; r < k; r++) {
            values.add(new JExpr.ArrayLoad(cx.array[field], index.apply(r)));
        }
        return new JExpr.VectorLoad(species, new JExpr.NewArray(lane, values), constant(0));
    }

    /** The storage index of lane r's cell in its row of the strip, at lane 0's column {@code column}. */
    private JExpr cell(int field, int r, JExpr column) {
        return add(add(cx.rowBase[field], mul(constant(r), laneStride(field))), column);
    }

    /** One block of k steps starting at lane 0's column {@code block}. */
    private List<JStmt> blockBody() {
        List<JStmt> out = new ArrayList<>();
        out.add(new JStmt.Comment("the inputs of the block's k steps: k row loads, transposed to one vector per step"));
        for (InputRead input : inputs.values()) {
            for (int r = 0; r < k; r++) {
                out.add(new JStmt.Assign(scratchA[r], new JExpr.VectorLoad(species, cx.array[input.field()],
                        add(cell(input.field(), r, block), cx.delta(input.field(), input.offset())))));
            }
            out.addAll(transpose(scratchA, input.steps()));
        }
        for (int step = 0; step < k; step++) {
            int at = step;
            for (Carried c : carried.values()) {
                if (c.nearest() > 0) {
                    JExpr fill = new JExpr.ArrayLoad(cx.array[c.field()], add(sub(cx.rowBase[c.field()], cx.stride[c.field()][0]),
                            add(block, constant(at - c.nearest() + skew))));
                    out.add(new JStmt.Assign(c.above()[at], new JExpr.Permute(shiftUp, stepVector(c, at - c.nearest()),
                            new JExpr.Broadcast(species, fill))));
                }
            }
            for (int actor : cx.graph.actorOrder()) {
                IrActor spec = cx.graph.actor(actor);
                out.add(new JStmt.Assign(carried.get(spec.writes()).steps()[at], LaneExpressions.lower(spec.body(), species,
                        load -> read(load, at), dimension -> indexVector(dimension, at), this::scalar)));
            }
        }
        out.add(new JStmt.Comment("the block's results: k step vectors transposed to k row stores"));
        for (Carried c : carried.values()) {
            out.addAll(transpose(c.steps(), scratchA));
            for (int r = 0; r < k; r++) {
                out.add(new JStmt.VectorStore(scratchA[r], cx.array[c.field()], cell(c.field(), r, block)));
            }
        }
        for (Carried c : carried.values()) {
            for (int q = c.back().length; q >= 1; q--) {
                out.add(new JStmt.Assign(c.back()[q - 1], stepVector(c, k - q)));
            }
            for (int q = c.aboveBack().length; q >= 1; q--) {
                out.add(new JStmt.Assign(c.aboveBack()[q - 1], aboveVector(c, k - q)));
            }
        }
        return out;
    }

    /** The field's step vector of step {@code step} of the block (negative: before it). */
    private JExpr.Local stepVector(Carried c, int step) {
        return step >= 0 ? c.steps()[step] : c.back()[-step - 1];
    }

    /** The field's vector shifted up one lane that was computed at step {@code step} of the block (negative: before it). */
    private JExpr.Local aboveVector(Carried c, int step) {
        return step >= 0 ? c.above()[step] : c.aboveBack()[-step - 1];
    }

    /** A read's vector at step {@code at} of the block. */
    private JExpr read(IrExpr.Load load, int at) {
        if (cx.graph.field(load.field()).isInput()) {
            return inputs.get(inputKey(load.field(), load.offset())).steps()[at];
        }
        Carried c = carried.get(load.field());
        StripMapping.StateRead source = mapping.stateRead(load.offset());
        return source.rowsUp() == 0 ? stepVector(c, at - source.stepsBack()) : aboveVector(c, at - source.stepsBack() + c.nearest());
    }

    /** An index variable's vector at step {@code at}: the strip's rows, or each lane's column. */
    private JExpr indexVector(int dimension, int at) {
        if (laneIndex == null) {
            laneIndex = cx.local("laneIndex", vector);
            laneLag = cx.local("laneLag", vector);
            cx.prologue.add(new JStmt.Assign(laneIndex, laneConstants(c -> c)));
            cx.prologue.add(new JStmt.Assign(laneLag, laneConstants(c -> c * skew)));
        }
        return dimension == 0
                ? new JExpr.Lanewise(JExpr.LaneOp.ADD, new JExpr.Broadcast(species, stripRow), laneIndex)
                : new JExpr.Lanewise(JExpr.LaneOp.SUB, new JExpr.Broadcast(species, add(block, constant(at))), laneLag);
    }

    private JExpr scalar(IrExpr expr) {
        return switch (expr) {
            case IrExpr.ParamVar p -> cx.param[p.param()];
            case IrExpr.SizeVar v -> cx.size[v.dimension()];
            default -> throw new IllegalStateException("no scalar for " + expr);
        };
    }

    /**
     * Transposes k vectors (row r, lane c) to k vectors (lane c becomes vector c, row r its lane r): log2 k rounds,
     * round d exchanging blocks of d lanes between vectors d apart with two-vector permutes.
     */
    private List<JStmt> transpose(JExpr.Local[] rows, JExpr.Local[] out) {
        List<JStmt> statements = new ArrayList<>();
        JExpr.Local[] current = rows;
        for (int round = 0; round < transposeIndexes.size(); round++) {
            int d = k >> (round + 1);
            JExpr.Local[] target = round == transposeIndexes.size() - 1 ? out : round % 2 == 0 ? scratchB : scratchC;
            JExpr.Local[] indexes = transposeIndexes.get(round);
            for (int a = 0; a < k; a++) {
                if ((a & d) == 0) {
                    statements.add(new JStmt.Assign(target[a], new JExpr.Permute(indexes[0], current[a], current[a + d])));
                    statements.add(new JStmt.Assign(target[a + d], new JExpr.Permute(indexes[1], current[a], current[a + d])));
                }
            }
            current = target;
        }
        return statements;
    }

    /** Per field: its row stride minus the skew, so that lane r's cell is r of these past lane 0's. */
    private JExpr.Local laneStride(int field) {
        return laneStride.computeIfAbsent(field, f -> {
            JExpr.Local local = cx.local(cx.graph.field(f).name() + "LaneStride", JType.INT);
            cx.prologue.add(new JStmt.Assign(local, sub(cx.stride[f][0], constant(skew))));
            return local;
        });
    }

    private JExpr laneConstants(IntUnaryOperator value) {
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

    private JExpr.Local[] locals(String name, JType type, int count) {
        JExpr.Local[] locals = new JExpr.Local[count];
        for (int i = 0; i < count; i++) {
            locals[i] = cx.local(name + i, type);
        }
        return locals;
    }

    private String inputKey(int field, int[] offset) {
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
