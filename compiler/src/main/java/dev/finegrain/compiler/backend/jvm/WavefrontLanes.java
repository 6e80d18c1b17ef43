package dev.finegrain.compiler.backend.jvm;

import dev.finegrain.compiler.backend.jvm.code.JExpr;
import dev.finegrain.compiler.backend.jvm.code.JExpr.Binary.Op;
import dev.finegrain.compiler.backend.jvm.code.JExpr.LaneOp;
import dev.finegrain.compiler.backend.jvm.code.JStmt;
import dev.finegrain.compiler.backend.jvm.code.JType;
import dev.finegrain.compiler.ir.IrActor;
import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.compiler.ir.IrField;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.finegrain.compiler.backend.jvm.LoweringContext.add;
import static dev.finegrain.compiler.backend.jvm.LoweringContext.compare;
import static dev.finegrain.compiler.backend.jvm.LoweringContext.constant;
import static dev.finegrain.compiler.backend.jvm.LoweringContext.math;
import static dev.finegrain.compiler.backend.jvm.LoweringContext.mul;
import static dev.finegrain.compiler.backend.jvm.LoweringContext.sub;

/**
 * The wavefront of a 2D kernel in strips of lanes: the points of one hyperplane that lie in a strip of k rows are the
 * k lanes of one step of that strip ({@link StripMapping}), so a barrier step runs one vector step per strip.
 *
 * <p>Strips are dealt per block: the strips a hyperplane meets are consecutive, and a strip's block goes to the worker
 * whose contiguous chunk of the strips met by the block's first hyperplane holds it. So every worker has about the
 * same number of strips on every hyperplane (the set moves down the domain as the wavefront does, and a fixed deal
 * would leave the first and last hyperplanes to one worker), and only the strip at each chunk's edge reads its row
 * above from another worker. A strip changes workers only between blocks, where nothing of its state lives outside
 * storage: a block's first step on a new worker reads the ring's entries for the steps before it back from storage
 * (the block before was stored at its end).
 *
 * <p>A strip's state lives across barrier steps in its worker's scratch array: a ring of its last R step vectors per
 * state field, and the step vectors of its inputs for the current block of {@link #SUB_BLOCKS} k steps, loaded k
 * rows at a time and transposed as in {@link LaneStrips}. Results reach storage a block at a time through the
 * transpose, except the strip's last row, stored at once: the strip below reads it in the next step. Lanes outside
 * the domain (a strip's first and last steps) compute throwaway values and then take the halo's, so the lanes that
 * read them see the boundary; loads and stores there are masked, row by row through a staging area of k vectors
 * (so that the run method stays small enough for HotSpot to compile).
 */
final class WavefrontLanes {

    /**
     * Vectors per row in a block's loads and stores. A strip comes back to the same rows only once per block, after
     * every other strip's step of as many hyperplanes, so no prefetcher follows its rows and each access waits for
     * memory; four vectors per row (four cache lines at 16 int lanes) put four times the misses in flight at once
     * and pay the wait once per 4 k steps instead of once per k.
     */
    static final int SUB_BLOCKS = 4;

    private final LaneVectors v;
    private final LoweringContext cx;
    private final int k;
    private final int skew;
    /** Steps per block: a block's loads and stores cover this many columns of each row, {@link #SUB_BLOCKS} vectors. */
    private final int span;
    private final int ring;
    private final int deepest;
    private final int stripWords;
    private final Map<Integer, Integer> ringOffset = new LinkedHashMap<>();
    private final Map<String, Integer> inputOffset = new LinkedHashMap<>();
    private final Map<String, IrExpr.Load> inputReads;
    private final JExpr.Local strips;
    private final JExpr.Local activeFrom;
    private final JExpr.Local activeTo;
    private final JExpr.Local chunk;
    private final JExpr.Local owners;
    private final JExpr.Local previousOwner;
    private final JExpr.Local stripIndex;
    private final JExpr.Local scratch;
    private final JExpr.Local staging;
    private final JExpr.Local stepEnd;
    private final JExpr.Local hyperplane;
    private final JExpr.Local stripRow;
    private final JExpr.Local step;
    private final JExpr.Local stepInBlock;
    private final JExpr.Local base;
    private final JExpr.Local blockStart;
    private final JExpr.Local subBlock;
    private final JExpr.Local interior;
    private final JExpr.Local lane;
    private final JExpr.Local back;
    private final JExpr.Local[] ringRows;
    private final Map<Integer, JExpr.Local> values = new LinkedHashMap<>();
    private final Map<String, JExpr.Local> inputValues = new LinkedHashMap<>();
    private final JExpr.Local laneIndex;

    WavefrontLanes(LaneVectors lanes) {
        this.v = lanes;
        this.cx = lanes.cx;
        this.k = lanes.k;
        this.skew = lanes.skew;
        int reach = 0;
        for (IrActor actor : cx.graph.actors()) {
            reach = Math.max(reach, Math.max(v.mapping.deepest(actor.writes(), 0), v.mapping.deepest(actor.writes(), 1)));
        }
        this.deepest = reach;
        this.span = SUB_BLOCKS * k;
        // a power of two that holds a block's step vectors and the deepest read's, so a slot is a mask away
        this.ring = Integer.highestOneBit(Math.max(span, deepest + 1) * 2 - 1);
        int words = 0;
        for (IrActor actor : cx.graph.actors()) {
            ringOffset.put(actor.writes(), words);
            words += ring * k;
        }
        inputReads = v.inputReads();
        for (String name : inputReads.keySet()) {
            inputOffset.put(name, words);
            words += span * k;
        }
        this.stripWords = words;
        strips = cx.local("strips", JType.INT);
        activeFrom = cx.local("activeFrom", JType.INT);
        activeTo = cx.local("activeTo", JType.INT);
        chunk = cx.local("stripChunk", JType.INT);
        owners = cx.local("blockOwner", JType.INT_ARRAY);
        previousOwner = cx.local("previousOwner", JType.INT);
        stripIndex = cx.local("stripIndex", JType.INT);
        scratch = cx.local("stripScratch", JType.arrayOf(v.lane));
        staging = cx.local("stagingRows", JType.INT);
        stepEnd = cx.local("stripSteps", JType.INT);
        hyperplane = cx.local("hyperplane", JType.INT);
        stripRow = cx.local("stripRow", JType.INT);
        step = cx.local("stripStep", JType.INT);
        stepInBlock = cx.local("stepInBlock", JType.INT);
        base = cx.local("stripBase", JType.INT);
        blockStart = cx.local("blockStart", JType.INT);
        subBlock = cx.local("subBlock", JType.INT);
        interior = cx.local("interiorBlock", JType.BOOLEAN);
        lane = cx.local("lane", JType.INT);
        back = cx.local("stepsBack", JType.INT);
        v.declareLocals();
        ringRows = v.locals("ringRow", v.vector, k);
        laneIndex = v.laneIndex();
        for (IrActor actor : cx.graph.actors()) {
            values.put(actor.writes(), cx.local(cx.graph.field(actor.writes()).name() + "Lanes", v.vector));
        }
        inputReads.keySet().forEach(name -> inputValues.put(name, cx.local(name + "Lanes", v.vector)));
    }

    /** Before the steps: the strips and this worker's scratch (rings and input blocks, a slot per strip). */
    List<JStmt> setUp() {
        return List.of(
                new JStmt.Comment("strips of " + k + " rows, each block of a strip to the worker whose chunk of the strips met by the block's"
                        + " first hyperplane holds it; per strip a ring of its last " + ring + " step vectors per state field and its inputs'"
                        + " step vectors for the current block of " + span + " steps (" + SUB_BLOCKS
                        + " vectors per row, so that more of a block's memory accesses are in flight at once)"),
                new JStmt.Assign(strips, new JExpr.Binary(Op.DIV, cx.size[0], constant(k))),
                new JStmt.Assign(staging, mul(strips, constant(stripWords))),
                new JStmt.Assign(scratch, new JExpr.NewArrayOfLength(v.lane, add(staging, constant(k * k)))),
                new JStmt.Assign(owners, new JExpr.NewArrayOfLength(JType.INT, strips)),
                new JStmt.Assign(stepEnd, add(cx.size[1], constant(skew * (k - 1)))));
    }

    /**
     * The first strip whose steps reach hyperplane {@code at}: strip s runs hyperplanes skew k s to skew k s + stepEnd - 1
     * (every strip every hyperplane when the rows are not skewed).
     */
    private JExpr firstStripAt(JExpr at) {
        return skew == 0 ? constant(0)
                : math("max", JType.INT, constant(0), math("ceilDiv", JType.INT, add(sub(at, stepEnd), constant(1)), constant(skew * k)));
    }

    /** One past the last strip whose steps reach hyperplane {@code at}. */
    private JExpr stripsEndAt(JExpr at) {
        return skew == 0 ? strips : math("min", JType.INT, strips, add(math("floorDiv", JType.INT, at, constant(skew * k)), constant(1)));
    }

    /**
     * One hyperplane value {@code value}, the {@code withinStep}-th of its barrier step: each own strip's step on it,
     * then the rows below the last whole strip.
     */
    List<JStmt> hyperplane(JExpr value, JExpr withinStep) {
        boolean carries = cx.carries.readingFromLocals();
        cx.carries.readFromLocals(false);
        List<JStmt> strip = new ArrayList<>();
        strip.add(new JStmt.Assign(stripRow, mul(stripIndex, constant(k))));
        strip.add(new JStmt.Assign(step, sub(hyperplane, mul(constant(skew), stripRow))));
        strip.add(new JStmt.Assign(stepInBlock, new JExpr.Binary(Op.AND, step, constant(span - 1))));
        strip.add(new JStmt.Comment("at a block's first hyperplane: its owner, the worker whose chunk of this hyperplane's strips holds the strip"
                + " (every worker keeps every strip's, so none divides on the other steps); a block that starts inside a barrier step"
                + " stays with the strip's worker, whose steps before it in the same barrier step no other worker has seen yet"));
        strip.add(new JStmt.Assign(previousOwner, new JExpr.ArrayLoad(owners, stripIndex)));
        strip.add(new JStmt.If(new JExpr.Binary(Op.AND, compare(Op.EQ, stepInBlock, constant(0)),
                new JExpr.Binary(Op.OR, compare(Op.EQ, step, constant(0)), compare(Op.EQ, withinStep, constant(0)))), List.of(
                new JStmt.Store(owners, stripIndex, new JExpr.Binary(Op.DIV, sub(stripIndex, activeFrom), chunk))), List.of()));
        List<JStmt> active = new ArrayList<>();
        active.add(new JStmt.Assign(cx.coordinate[0], stripRow));
        active.addAll(cx.rowBases());
        active.add(new JStmt.Assign(base, mul(stripIndex, constant(stripWords))));
        List<JStmt> blockStarts = new ArrayList<>();
        blockStarts.add(new JStmt.If(new JExpr.Binary(Op.OR, compare(Op.EQ, step, constant(0)), compare(Op.NE, previousOwner, cx.worker)),
                ringFromStorage(), List.of()));
        blockStarts.addAll(loadInputBlock());
        active.add(new JStmt.If(compare(Op.EQ, stepInBlock, constant(0)), blockStarts, List.of()));
        active.addAll(vectorStep());
        active.add(new JStmt.If(new JExpr.Binary(Op.OR, compare(Op.EQ, stepInBlock, constant(span - 1)),
                compare(Op.EQ, step, sub(stepEnd, constant(1)))), storeBlock(), List.of()));
        strip.add(new JStmt.If(compare(Op.EQ, new JExpr.ArrayLoad(owners, stripIndex), cx.worker), active, List.of()));
        List<JStmt> out = new ArrayList<>();
        out.add(new JStmt.Assign(hyperplane, value));
        out.add(new JStmt.Assign(activeFrom, firstStripAt(hyperplane)));
        out.add(new JStmt.Assign(activeTo, stripsEndAt(hyperplane)));
        out.add(new JStmt.Assign(chunk, math("ceilDiv", JType.INT, sub(activeTo, activeFrom), cx.workers)));
        out.add(new JStmt.Loop(stripIndex, activeFrom, activeTo, constant(1), strip));
        out.addAll(rowsBelowStrips());
        cx.carries.readFromLocals(carries);
        return out;
    }

    /**
     * At a block's first step on a worker that did not run the block before: each ring's entries for the steps before
     * it, lane by lane from storage (the west halo before the strip's first step; the block before, stored at its end,
     * after it), so the block needs nothing from the worker that ran the block before.
     */
    private List<JStmt> ringFromStorage() {
        List<JStmt> out = new ArrayList<>();
        for (int field : ringOffset.keySet()) {
            List<JStmt> lanes = new ArrayList<>();
            lanes.add(new JStmt.Store(scratch, add(ringSlot(field, add(step, back)), lane),
                    haloValue(field, sub(add(step, back), mul(constant(skew), lane)))));
            out.add(new JStmt.Loop(back, constant(-deepest), constant(0), constant(1),
                    List.of(new JStmt.Loop(lane, constant(0), constant(k), constant(1), lanes))));
        }
        return out;
    }

    /** At a block's first step: each input's next k steps, k row loads (masked at the domain's edges) transposed. */
    private List<JStmt> loadInputBlock() {
        List<JStmt> out = new ArrayList<>();
        out.add(new JStmt.Assign(interior, interiorBlock(step)));
        JExpr start = add(step, mul(subBlock, constant(k)));
        inputReads.forEach((name, input) -> {
            List<JStmt> whole = new ArrayList<>();
            List<JStmt> edge = new ArrayList<>();
            for (int r = 0; r < k; r++) {
                whole.add(new JStmt.Assign(v.scratchA[r], new JExpr.VectorLoad(v.species, cx.array[input.field()],
                        add(v.cell(input.field(), r, start), cx.delta(input.field(), input.offset())))));
            }
            // at the domain's edges the rows go through the staging area one by one, masked, so the code stays small
            edge.add(new JStmt.Loop(lane, constant(0), constant(k), constant(1), List.of(new JStmt.VectorStore(
                    new JExpr.MaskedVectorLoad(v.species, cx.array[input.field()], add(v.cell(input.field(), lane, start),
                            cx.delta(input.field(), input.offset())), columnsInside(sub(start, mul(constant(skew), lane)))),
                    scratch, add(staging, mul(lane, constant(k)))))));
            for (int r = 0; r < k; r++) {
                edge.add(new JStmt.Assign(v.scratchA[r], new JExpr.VectorLoad(v.species, scratch, add(staging, constant(r * k)))));
            }
            List<JStmt> rows = new ArrayList<>();
            rows.add(new JStmt.If(interior, whole, edge));
            rows.addAll(v.transpose(v.scratchA, ringRows));
            JExpr firstSlot = add(add(base, constant(inputOffset.get(name))), mul(subBlock, constant(k * k)));
            for (int c = 0; c < k; c++) {
                rows.add(new JStmt.VectorStore(ringRows[c], scratch, add(firstSlot, constant(c * k))));
            }
            out.add(new JStmt.Loop(subBlock, constant(0), constant(SUB_BLOCKS), constant(1), rows));
        });
        return out;
    }

    /** This step of the strip: every actor's vector, halo values in the lanes outside the domain, the last row stored. */
    private List<JStmt> vectorStep() {
        List<JStmt> out = new ArrayList<>();
        inputValues.forEach((name, local) -> out.add(new JStmt.Assign(local, new JExpr.VectorLoad(v.species, scratch,
                add(add(base, constant(inputOffset.get(name))), mul(stepInBlock, constant(k)))))));
        for (int actor : cx.graph.actorOrder()) {
            IrActor spec = cx.graph.actor(actor);
            int field = spec.writes();
            JExpr.Local value = values.get(field);
            out.add(new JStmt.Assign(value, LaneExpressions.lower(spec.body(), this::read,
                    dimension -> v.indexVector(dimension, stripRow, step), v::uniform)));
            out.add(new JStmt.VectorStore(value, scratch, ringSlot(field, step)));
            // lanes outside the domain hold throwaway values; where a later read may look, the ring gets the halo's
            JExpr column = sub(step, mul(constant(skew), lane));
            List<JStmt> fix = List.of(new JStmt.If(new JExpr.Binary(Op.OR, compare(Op.LT, column, constant(0)), compare(Op.GE, column, cx.size[1])),
                    List.of(new JStmt.Store(scratch, add(ringSlot(field, step), lane), haloValue(field, column))), List.of()));
            out.add(new JStmt.If(new JExpr.Binary(Op.OR, compare(Op.LT, step, constant(skew * (k - 1))), compare(Op.GE, step, cx.size[1])),
                    List.of(new JStmt.Loop(lane, constant(0), constant(k), constant(1), fix)), List.of()));
            JExpr lastColumn = sub(step, constant(skew * (k - 1)));
            out.add(new JStmt.If(new JExpr.Binary(Op.AND, compare(Op.GE, lastColumn, constant(0)), compare(Op.LT, lastColumn, cx.size[1])),
                    List.of(new JStmt.Store(cx.array[field], v.cell(field, k - 1, step), new JExpr.LaneValue(value, k - 1))), List.of()));
        }
        return out;
    }

    /** At a block's last step (or the strip's): the block's step vectors from the ring, transposed, stored row by row. */
    private List<JStmt> storeBlock() {
        List<JStmt> out = new ArrayList<>();
        out.add(new JStmt.Assign(blockStart, sub(step, stepInBlock)));
        out.add(new JStmt.Assign(interior, interiorBlock(blockStart)));
        JExpr start = add(blockStart, mul(subBlock, constant(k)));
        for (int field : ringOffset.keySet()) {
            List<JStmt> rows = new ArrayList<>();
            for (int c = 0; c < k; c++) {
                rows.add(new JStmt.Assign(ringRows[c], new JExpr.VectorLoad(v.species, scratch, ringSlot(field, add(start, constant(c))))));
            }
            rows.addAll(v.transpose(ringRows, v.scratchA));
            List<JStmt> whole = new ArrayList<>();
            List<JStmt> edge = new ArrayList<>();
            for (int r = 0; r < k; r++) {
                whole.add(new JStmt.VectorStore(v.scratchA[r], cx.array[field], v.cell(field, r, start)));
                edge.add(new JStmt.VectorStore(v.scratchA[r], scratch, add(staging, constant(r * k))));
            }
            edge.add(new JStmt.Loop(lane, constant(0), constant(k), constant(1), List.of(new JStmt.MaskedVectorStore(
                    new JExpr.VectorLoad(v.species, scratch, add(staging, mul(lane, constant(k)))), cx.array[field],
                    v.cell(field, lane, start), columnsInside(sub(start, mul(constant(skew), lane)))))));
            rows.add(new JStmt.If(interior, whole, edge));
            out.add(new JStmt.Loop(subBlock, constant(0), constant(SUB_BLOCKS), constant(1), rows));
        }
        return out;
    }

    /** A read's vector at this step: an input's from the block, or a state field's from its ring (shifted up, from above). */
    private JExpr read(IrExpr.Load load) {
        if (cx.graph.field(load.field()).isInput()) {
            return inputValues.get(v.inputKey(load.field(), load.offset()));
        }
        StripMapping.StateRead source = v.mapping.stateRead(load.offset());
        if (source.stepsBack() == 0) {
            return values.get(load.field());
        }
        JExpr earlier = new JExpr.VectorLoad(v.species, scratch, ringSlot(load.field(), sub(step, constant(source.stepsBack()))));
        if (source.rowsUp() == 0) {
            return earlier;
        }
        IrField field = cx.graph.field(load.field());
        JExpr column = math("min", JType.INT, sub(add(step, constant(skew)), constant(source.stepsBack())),
                add(cx.size[1], constant(field.haloHigh()[1] - 1)));
        return v.shiftedUp(earlier, new JExpr.ArrayLoad(cx.array[load.field()], add(sub(cx.rowBase[load.field()], cx.stride[load.field()][0]), column)));
    }

    /** The rows after the last whole strip, on this hyperplane: scalar points, run by the last worker (whose chunk ends there). */
    private List<JStmt> rowsBelowStrips() {
        List<JStmt> point = new ArrayList<>();
        for (int actor : cx.graph.actorOrder()) {
            cx.actors.fire(cx.graph.actor(actor), point);
        }
        List<JStmt> row = new ArrayList<>();
        row.add(new JStmt.Assign(cx.coordinate[1], sub(hyperplane, mul(constant(skew), cx.coordinate[0]))));
        List<JStmt> inside = new ArrayList<>(cx.rowBases());
        inside.addAll(point);
        row.add(new JStmt.If(new JExpr.Binary(Op.AND, compare(Op.GE, cx.coordinate[1], constant(0)), compare(Op.LT, cx.coordinate[1], cx.size[1])),
                inside, List.of()));
        return List.of(new JStmt.If(compare(Op.EQ, cx.worker, sub(cx.workers, constant(1))),
                List.of(new JStmt.Loop(cx.coordinate[0], mul(strips, constant(k)), cx.size[0], constant(1), row)), List.of()));
    }

    /** Lane {@code lane}'s cell of the field at {@code column}, clamped into its storage: the halo where the column lies in it. */
    private JExpr haloValue(int field, JExpr column) {
        IrField spec = cx.graph.field(field);
        JExpr clamped = math("max", JType.INT, constant(-spec.haloLow()[1]), math("min", JType.INT, column,
                add(cx.size[1], constant(spec.haloHigh()[1] - 1))));
        return new JExpr.ArrayLoad(cx.array[field], add(add(cx.rowBase[field], mul(lane, cx.stride[field][0])), clamped));
    }

    /** Where the field's ring keeps the step vector of step {@code at}. */
    private JExpr ringSlot(int field, JExpr at) {
        return add(add(base, constant(ringOffset.get(field))), mul(new JExpr.Binary(Op.AND, at, constant(ring - 1)), constant(k)));
    }

    /** The mask of lanes c whose column {@code first + c} lies inside the domain (lanes along a row). */
    private JExpr columnsInside(JExpr first) {
        return inside(new JExpr.Lanewise(LaneOp.ADD, laneIndex, v.broadcastInt(first)));
    }

    /** The mask of lanes whose column, in the vector {@code columns}, lies inside the domain. */
    private JExpr inside(JExpr columns) {
        return new JExpr.Lanewise(LaneOp.AND, new JExpr.LaneCompare(Op.GE, columns, v.broadcastInt(constant(0))),
                new JExpr.LaneCompare(Op.LT, columns, v.broadcastInt(cx.size[1])));
    }

    /** Whether every lane of every row of the block starting at lane 0's column {@code start} lies inside the domain. */
    private JExpr interiorBlock(JExpr start) {
        return new JExpr.Binary(Op.AND, compare(Op.GE, start, constant(skew * (k - 1))), compare(Op.LE, add(start, constant(span)), cx.size[1]));
    }
}
