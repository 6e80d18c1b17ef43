package dev.finegrain.compiler.backend.jvm.lanes;

import dev.finegrain.compiler.backend.jvm.code.JExpr.Binary.Op;
import dev.finegrain.compiler.backend.jvm.code.JExpr.LaneOp;
import dev.finegrain.compiler.backend.jvm.code.JExpr;
import dev.finegrain.compiler.backend.jvm.code.JStmt;
import dev.finegrain.compiler.backend.jvm.code.JType;
import dev.finegrain.compiler.backend.jvm.lowering.LoweringContext;
import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.dsl.Type;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntFunction;

import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.add;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.constant;

/**
 * The table lookup of an expression in int lanes along a row, computed before the expression: every axis's index
 * vector is checked against its extent at once (a lane outside stops the run as the scalar code would:
 * {@code TableIndex.check} on each lane in order, which throws at the first index outside; {@link StripMapping} keeps a
 * cell with more than one lookup scalar, whose points would have to be checked lookup by lookup), then the lanes take
 * their elements: from one table row by a permute where every index but the last is the same in every lane and the
 * row is at most two vectors long (Needleman-Wunsch over two sequences looks up BLOSUM62's row {@code a[i]}, 24 ints,
 * by {@code b[j]}), else by a gather through a small index map.
 */
final class LaneLookups {

    private final LaneVectors v;
    private final LoweringContext cx;
    /** The expression's one lookup, if it has one ({@link StripMapping} keeps a cell with more scalar). */
    private final IrExpr.Lookup lookup;
    private final JExpr.Local value;
    private final JExpr.Local[] index;
    private final JExpr.Local indexMap;
    private final JExpr.Local lane;
    /** Where the row is shorter than two vectors, the mask of its lanes past the first full vector; else null. */
    private final JExpr.Local rowTail;
    /** Where every lane looks up one row ({@link #fromOneRow}): where it starts, its first vector and its rest, set once per row. */
    private final JExpr.Local rowStart;
    private final JExpr.Local rowLow;
    private final JExpr.Local rowHigh;

    /** The lookup of {@code expr}, its locals declared; none when it has none. */
    LaneLookups(LaneVectors lanes, IrExpr expr) {
        this.v = lanes;
        this.cx = lanes.cx;
        this.lookup = find(expr);
        if (lookup == null) {
            value = null;
            index = null;
            indexMap = null;
            lane = null;
            rowTail = null;
            rowStart = null;
            rowLow = null;
            rowHigh = null;
            return;
        }
        String name = cx.graph.kernel().tables().get(lookup.table()).name();
        value = cx.local(name + "Lookup", v.vector);
        index = v.locals(name + "IndexAxis", v.vector, lookup.indices().size());
        indexMap = cx.local("lookupIndexMap", JType.arrayOf(JType.INT));
        lane = cx.local("lookupLane", JType.INT);
        cx.prologue.add(new JStmt.Assign(indexMap, new JExpr.NewArrayOfLength(JType.INT, constant(index.length * v.k))));
        List<Integer> extents = extents();
        int length = extents.getLast();
        int tail = length <= v.k ? length : length - v.k;
        if (fromOneRow(extents) && tail < v.k) {
            // a constant mask, set once: the loop would otherwise compare the lane numbers for every vector
            rowTail = cx.local(name + "RowTail", JType.maskOf(v.lane));
            cx.prologue.add(new JStmt.Assign(rowTail, new JExpr.LaneCompare(Op.LT, v.laneIndex(),
                    v.uniform(new IrExpr.Const(Type.INT, tail, 0)))));
        } else {
            rowTail = null;
        }
        boolean oneRow = fromOneRow(extents);
        rowStart = oneRow ? cx.local(name + "RowStart", JType.INT) : null;
        rowLow = oneRow ? cx.local(name + "Row", v.vector) : null;
        rowHigh = oneRow && length > v.k ? cx.local(name + "RowRest", v.vector) : null;
    }

    /** The expression's first table lookup, or null. */
    static IrExpr.Lookup find(IrExpr expr) {
        return expr instanceof IrExpr.Lookup lookup ? lookup : StripMapping.children(expr).stream().map(LaneLookups::find)
                .filter(java.util.Objects::nonNull).findFirst().orElse(null);
    }

    private List<Integer> extents() {
        return cx.graph.kernel().tables().get(lookup.table()).extents();
    }

    /**
     * What a row's vectors share, before its first (only where one runs): where every lane looks up one row of the
     * table, the indices that pick the row, checked in lane 0 as the row's first point would check them, and the row's
     * vectors; each vector then checks and permutes by its last index alone. Set per vector, they were loaded again for
     * every vector: the JIT cannot keep a sequence's value or the table's row across the vector's store into an int
     * array, which may be the same array.
     */
    List<JStmt> beforeRow(Function<IrExpr.Load, JExpr> loads, IntFunction<JExpr> indices) {
        if (rowLow == null) {
            return List.of();
        }
        List<JStmt> out = new ArrayList<>();
        List<Integer> extents = extents();
        int last = extents.size() - 1;
        JExpr start = constant(0);
        for (int axis = 0; axis < last; axis++) {
            out.add(new JStmt.Assign(index[axis], LaneExpressions.lower(lookup.indices().get(axis), loads, indices, v::uniform)));
            JExpr checked = LoweringContext.runtime("TableIndex", "check", JType.INT, List.of(JType.INT, JType.INT, JType.INT, JType.INT),
                    new JExpr.LaneValue(index[axis], 0), constant(extents.get(axis)), constant(lookup.table()), constant(axis));
            start = LoweringContext.mul(axis == 0 ? checked : add(start, checked), constant(extents.get(axis + 1)));
        }
        out.add(new JStmt.Assign(rowStart, start));
        JExpr table = cx.table[lookup.table()];
        boolean masked = rowTail != null && rowHigh == null;
        out.add(new JStmt.Assign(rowLow, masked ? new JExpr.MaskedVectorLoad(v.species, table, rowStart, rowTail)
                : new JExpr.VectorLoad(v.species, table, rowStart)));
        if (rowHigh != null) {
            JExpr restStart = add(rowStart, constant(v.k));
            out.add(new JStmt.Assign(rowHigh, rowTail == null ? new JExpr.VectorLoad(v.species, table, restStart)
                    : new JExpr.MaskedVectorLoad(v.species, table, restStart, rowTail)));
        }
        return out;
    }

    /**
     * Statements setting {@code target} to {@code expr} in lanes, given the lanes' reads and index variables: its lookup
     * gathered first, if it has one.
     */
    List<JStmt> assign(JExpr.Local target, IrExpr expr, Function<IrExpr.Load, JExpr> loads, IntFunction<JExpr> indices) {
        List<JStmt> out = lookup == null ? new ArrayList<>() : gather(loads, indices);
        out.add(new JStmt.Assign(target, LaneExpressions.lower(expr, loads, indices, v::uniform, l -> value)));
        return out;
    }

    private List<JStmt> gather(Function<IrExpr.Load, JExpr> loads, IntFunction<JExpr> indices) {
        List<JStmt> out = new ArrayList<>();
        List<Integer> extents = extents();
        JExpr outside = null;
        JExpr flat = null;
        // where the row is shared, its indices were set and checked before the row's first vector
        int from = rowLow == null ? 0 : index.length - 1;
        for (int axis = from; axis < index.length; axis++) {
            out.add(new JStmt.Assign(index[axis], LaneExpressions.lower(lookup.indices().get(axis), loads, indices, v::uniform)));
            JExpr extent = v.uniform(new IrExpr.Const(Type.INT, extents.get(axis), 0));
            JExpr axisOutside = new JExpr.Lanewise(LaneOp.OR, new JExpr.LaneCompare(Op.LT, index[axis], v.uniform(
                    new IrExpr.Const(Type.INT, 0, 0))), new JExpr.LaneCompare(Op.GE, index[axis], extent));
            outside = outside == null ? axisOutside : new JExpr.Lanewise(LaneOp.OR, outside, axisOutside);
            flat = flat == null ? index[axis] : new JExpr.Lanewise(LaneOp.ADD, new JExpr.Lanewise(LaneOp.MUL, flat, extent), index[axis]);
        }
        out.add(new JStmt.If(new JExpr.InvokeVirtual(outside, "anyTrue", List.of(), JType.BOOLEAN, List.of()),
                outsideStops(extents), List.of()));
        if (rowLow != null) {
            JExpr selector = index[index.length - 1];
            out.add(new JStmt.Assign(value, rowHigh == null ? new JExpr.Rearrange(selector, rowLow)
                    : new JExpr.Permute(selector, rowLow, rowHigh)));
        } else {
            out.add(new JStmt.VectorStore(flat, indexMap, constant(0)));
            out.add(new JStmt.Assign(value, new JExpr.VectorGather(v.species, cx.table[lookup.table()], constant(0), indexMap,
                    constant(0))));
        }
        return out;
    }

    /**
     * Whether every lane looks up one row of the table, at most two vectors long: every index but the last is the same
     * in every lane (it reads no column: a sequence along the rows, the row's index, params), and the last axis has at
     * most 2k elements. The lanes then select their elements from the row's one or two vectors, a permute instead of
     * a gather (BLOSUM62's rows are 24 ints: two vectors of 16).
     */
    private boolean fromOneRow(List<Integer> extents) {
        int last = extents.size() - 1;
        return extents.get(last) <= 2 * v.k && lookup.indices().subList(0, last).stream().allMatch(this::sameInEveryLane);
    }

    /**
     * Whether an index is the same in every lane along a row: it reads no column (no index j, no sequence along j).
     * What runs in lanes has no folds and no other lookup ({@link StripMapping}).
     */
    private boolean sameInEveryLane(IrExpr expr) {
        return switch (expr) {
            case IrExpr.IndexVar index -> index.dimension() == 0;
            case IrExpr.Load load -> cx.graph.field(load.field()).isSequence() && !cx.graph.field(load.field()).spans()[1];
            default -> StripMapping.children(expr).stream().allMatch(this::sameInEveryLane);
        };
    }

    /** A lane's index outside its axis: the lanes checked in order, as the scalar points would be, the first one throws. */
    private List<JStmt> outsideStops(List<Integer> extents) {
        List<JStmt> out = new ArrayList<>();
        out.add(new JStmt.Comment("an index outside its axis: check lane by lane, in order, so the first one outside throws"));
        for (int axis = 0; axis < index.length; axis++) {
            out.add(new JStmt.VectorStore(index[axis], indexMap, constant(axis * v.k)));
        }
        List<JStmt> checks = new ArrayList<>();
        for (int axis = 0; axis < index.length; axis++) {
            checks.add(new JStmt.Evaluate(LoweringContext.runtime("TableIndex", "check", JType.INT,
                    List.of(JType.INT, JType.INT, JType.INT, JType.INT), new JExpr.ArrayLoad(indexMap, add(lane, constant(axis * v.k))),
                    constant(extents.get(axis)), constant(lookup.table()), constant(axis))));
        }
        out.add(new JStmt.Loop(lane, constant(0), constant(v.k), constant(1), checks));
        return out;
    }
}
