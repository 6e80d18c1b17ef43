package dev.finegrain.compiler.backend.jvm.lanes;

import dev.finegrain.compiler.backend.jvm.code.JExpr;
import dev.finegrain.compiler.backend.jvm.code.JStmt;
import dev.finegrain.compiler.backend.jvm.code.JType;
import dev.finegrain.compiler.backend.jvm.layout.VectorWidth;
import dev.finegrain.compiler.backend.jvm.lowering.LoweringContext;
import dev.finegrain.compiler.backend.jvm.lowering.RowLayout;
import dev.finegrain.compiler.ir.IrActor;
import dev.finegrain.compiler.ir.IrExpr;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.add;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.constant;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.math;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.mul;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.sub;

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
 * strip loaded from memory; earlier steps' vectors are carried in locals from block to block. A strip's blocks run
 * in a private helper of the class ({@link LoweringContext#outline}), which HotSpot compiles apart from the run method.
 * Where the class aligns its rows ({@link RowLayout#alignRows}, a band's strips across whole rows) the blocks
 * start at the first column where every lane's row load is one whole vector, and the prologue runs up to it.
 */
public final class LaneStrips {

    /** The helper's javadoc: HotSpot's C2 allocates registers and optimises loops per method. */
    private static final String BLOCKS_APART = "A strip's whole blocks, compiled by HotSpot apart from the loops around the strips,\n"
            + "whose live locals would make the block's vectors spill to the stack.";

    private final LaneVectors v;
    private final LoweringContext cx;
    private final int k;
    private final int skew;
    private final JExpr.Local stripRow;
    private final JExpr.Local stripsEnd;
    private final JExpr.Local block;
    /** Lane 0's first block column in a strip, where aligned rows make it depend on the strip (made on first use). */
    private JExpr.Local blocksStart;
    private final JExpr.Local blocksEnd;
    private final JExpr.Local laneEnd;
    private final Map<Integer, Carried> carried = new LinkedHashMap<>();
    private final Map<String, JExpr.Local[]> inputSteps = new LinkedHashMap<>();

    /**
     * The step vectors of a state field: {@code steps[s]} this block's step s; {@code back[q]} the value q steps before
     * the block (q from 1); {@code above} and {@code aboveBack} the same for the vectors shifted up one lane, computed
     * {@code nearest} steps late (when the nearest read from above first needs them).
     */
    private record Carried(int field, JExpr.Local[] steps, JExpr.Local[] back, int nearest, JExpr.Local[] above, JExpr.Local[] aboveBack) {}

    /** Strips for the kernel, or none; {@code summary} is the line {@code show --java} prints about it. */
    public record Choice(Optional<LaneStrips> strips, String summary) {}

    /** Strips when {@link LaneVectors#choose} gives lanes. */
    public static Choice choose(LoweringContext cx, VectorWidth width, BiFunction<Integer, Integer, Optional<String>> shapeAgainst) {
        LaneVectors.Choice lanes = LaneVectors.choose(cx, width, shapeAgainst);
        return new Choice(lanes.lanes().map(LaneStrips::new), lanes.summary());
    }

    LaneStrips(LaneVectors lanes) {
        this.v = lanes;
        this.cx = lanes.cx;
        this.k = lanes.k;
        this.skew = lanes.skew;
        stripRow = cx.local("stripRow", JType.INT);
        stripsEnd = cx.local("stripsEnd", JType.INT);
        block = cx.local("block", JType.INT);
        blocksEnd = cx.local("blocksEnd", JType.INT);
        laneEnd = cx.local("laneEnd", JType.INT);
        v.declareLocals();
        for (IrActor actor : cx.graph.actors()) {
            int field = actor.writes();
            int nearest = v.mapping.nearestFromAbove(field);
            int back = Math.max(v.mapping.deepest(field, 0), nearest);
            int aboveBack = nearest == 0 ? 0 : v.mapping.deepest(field, 1) - nearest;
            String name = cx.graph.field(field).name();
            carried.put(field, new Carried(field, v.locals(name + "Step", v.vector, k), v.locals(name + "Back", v.vector, back),
                    nearest, nearest == 0 ? new JExpr.Local[0] : v.locals(name + "Above", v.vector, k),
                    v.locals(name + "AboveBack", v.vector, aboveBack)));
        }
        v.inputReads().keySet().forEach(name -> inputSteps.put(name, v.locals(name + "Step", v.vector, k)));
    }

    /** The row the current strip starts at; the statements around a strip may use it. */
    public JExpr.Local stripRow() {
        return stripRow;
    }

    /** The first row after the last whole strip; the caller runs the rows from there on without lanes. */
    public JExpr.Local stripsEnd() {
        return stripsEnd;
    }

    public int lanes() {
        return k;
    }

    /** How many columns each lane runs behind the lane above it. */
    public int skew() {
        return skew;
    }

    /**
     * Runs rows [rowFrom, rowTo) x columns [columnFrom, columnTo) in strips while k rows remain, with {@code before} and
     * {@code after} around each strip; every cell the rectangle reads outside itself must be final before it starts.
     */
    public List<JStmt> strips(JExpr rowFrom, JExpr rowTo, JExpr columnFrom, JExpr columnTo, List<JStmt> before, List<JStmt> after) {
        boolean carries = cx.carries.readingFromLocals();
        cx.carries.readFromLocals(false);
        List<JStmt> out = new ArrayList<>();
        out.add(new JStmt.Comment("strips of " + k + " rows in " + k + " lanes; lane r runs " + skew + " * r columns behind lane 0, "
                + "so the cells of one step lie on one hyperplane and do not depend on each other"));
        out.add(new JStmt.Assign(stripsEnd, add(rowFrom, mul(new JExpr.Binary(JExpr.Binary.Op.DIV, sub(rowTo, rowFrom), constant(k)), constant(k)))));
        List<JStmt> strip = new ArrayList<>(before);
        JExpr mainStart = add(columnFrom, constant(skew * (k - 1)));
        JExpr start = mainStart;
        if (cx.layout.blockAlignment() != null) {
            if (blocksStart == null) {
                blocksStart = cx.local("blocksStart", JType.INT);
            }
            // in aligned storage (RowLayout.alignRows) lane r's element of row stripRow + r at column c lies at
            // (stripRow * skew + c) modulo k in a vector, the same for every lane: start where that is 0 (the frame's
            // block alignment is k then, and 1 for dense rows, which start the blocks as early as they can)
            strip.add(new JStmt.Comment("the blocks start where every lane's row load is one whole vector, when the storage's rows are aligned"));
            strip.add(new JStmt.Assign(blocksStart, add(mainStart, math("floorMod", JType.INT,
                    sub(constant(0), add(mul(stripRow, constant(skew)), mainStart)), cx.layout.blockAlignment()))));
            start = blocksStart;
        }
        strip.addAll(triangle(true, columnFrom, columnTo, start));
        strip.add(new JStmt.Comment("whole blocks of " + k + " steps: every lane inside the rectangle"));
        strip.add(new JStmt.Assign(blocksEnd, add(start, mul(math("max", JType.INT, constant(0),
                math("floorDiv", JType.INT, sub(columnTo, start), constant(k))), constant(k)))));
        List<JStmt> blocks = new ArrayList<>();
        blocks.add(new JStmt.Assign(cx.coordinate[0], stripRow));
        blocks.addAll(cx.rowBases());
        blocks.addAll(history(start));
        blocks.add(new JStmt.Loop(block, start, blocksEnd, constant(k), blockBody()));
        strip.add(new JStmt.If(new JExpr.Binary(JExpr.Binary.Op.LT, start, blocksEnd),
                cx.outline("stripBlocks", BLOCKS_APART, blocks), List.of()));
        strip.addAll(triangle(false, columnFrom, columnTo, start));
        strip.addAll(after);
        out.add(new JStmt.Loop(stripRow, rowFrom, stripsEnd, constant(k), strip));
        cx.carries.readFromLocals(carries);
        return out;
    }

    /**
     * The prologue (lane r's columns before the blocks, lane 0's first block at {@code start}) or the epilogue (after
     * them), as scalar points row by row.
     */
    private List<JStmt> triangle(boolean prologue, JExpr columnFrom, JExpr columnTo, JExpr start) {
        JExpr laneNumber = sub(cx.coordinate[0], stripRow);
        List<JStmt> row = new ArrayList<>(cx.rowBases());
        List<JStmt> point = new ArrayList<>();
        for (int actor : cx.graph.actorOrder()) {
            cx.actors.fire(cx.graph.actor(actor), point);
        }
        if (prologue) {
            row.add(new JStmt.Assign(laneEnd, math("min", JType.INT, sub(start, mul(constant(skew), laneNumber)), columnTo)));
            row.add(new JStmt.Loop(cx.coordinate[1], columnFrom, laneEnd, constant(1), point));
        } else {
            row.add(new JStmt.Loop(cx.coordinate[1], sub(blocksEnd, mul(constant(skew), laneNumber)), columnTo, constant(1), point));
        }
        return List.of(new JStmt.Comment(prologue ? "prologue: lane r alone runs its columns before the blocks, " + skew + " * r behind lane 0's"
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
                out.add(new JStmt.Assign(c.back()[q - 1], v.gather(c.field(), r -> v.cell(c.field(), r, add(mainStart, constant(-stepsBack))))));
            }
            for (int q = 1; q <= c.aboveBack().length; q++) {
                // the vector shifted up one lane that the nearest read from above took q steps before the block
                int column = skew - c.nearest() - q;
                out.add(new JStmt.Assign(c.aboveBack()[q - 1], v.gather(c.field(),
                        r -> sub(v.cell(c.field(), r, add(mainStart, constant(column))), cx.stride[c.field()][0]))));
            }
        }
        return out;
    }

    /** One block of k steps starting at lane 0's column {@code block}. */
    private List<JStmt> blockBody() {
        List<JStmt> out = new ArrayList<>();
        out.add(new JStmt.Comment("the inputs of the block's k steps: k row loads, transposed to one vector per step"));
        v.inputReads().forEach((name, input) -> {
            for (int r = 0; r < k; r++) {
                out.add(new JStmt.Assign(v.scratchA[r], new JExpr.VectorLoad(v.species, cx.array[input.field()],
                        add(v.cell(input.field(), r, block), cx.delta(input.field(), input.offset())))));
            }
            out.addAll(v.transpose(v.scratchA, inputSteps.get(name)));
        });
        for (int step = 0; step < k; step++) {
            int at = step;
            for (Carried c : carried.values()) {
                if (c.nearest() > 0) {
                    JExpr fill = new JExpr.ArrayLoad(cx.array[c.field()], add(sub(cx.rowBase[c.field()], cx.stride[c.field()][0]),
                            add(block, constant(at - c.nearest() + skew))));
                    out.add(new JStmt.Assign(c.above()[at], v.shiftedUp(stepVector(c, at - c.nearest()), fill)));
                }
            }
            for (int actor : cx.graph.actorOrder()) {
                IrActor spec = cx.graph.actor(actor);
                out.add(new JStmt.Assign(carried.get(spec.writes()).steps()[at], LaneExpressions.lower(spec.body(),
                        load -> read(load, at), dimension -> v.indexVector(dimension, stripRow, add(block, constant(at))),
                        v::uniform)));
            }
        }
        out.add(new JStmt.Comment("the block's results: k step vectors transposed to k row stores"));
        for (Carried c : carried.values()) {
            out.addAll(v.transpose(c.steps(), v.scratchA));
            for (int r = 0; r < k; r++) {
                out.add(new JStmt.VectorStore(v.scratchA[r], cx.array[c.field()], v.cell(c.field(), r, block)));
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
            return inputSteps.get(v.accessKey(load.field(), load.offset()))[at];
        }
        Carried c = carried.get(load.field());
        StripMapping.StateRead source = v.mapping.stateRead(load.offset());
        return source.rowsUp() == 0 ? stepVector(c, at - source.stepsBack()) : aboveVector(c, at - source.stepsBack() + c.nearest());
    }

}
