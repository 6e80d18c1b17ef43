package dev.finegrain.compiler.backend.jvm.lanes;

import dev.finegrain.compiler.backend.jvm.code.JExpr.Binary.Op;
import dev.finegrain.compiler.backend.jvm.code.JExpr;
import dev.finegrain.compiler.backend.jvm.code.JStmt;
import dev.finegrain.compiler.backend.jvm.code.JType;
import dev.finegrain.compiler.backend.jvm.lowering.LoweringContext;
import dev.finegrain.compiler.ir.IrActor;
import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.compiler.ir.KernelGraph;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.add;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.constant;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.math;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.mul;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.sub;

/**
 * Lanes across tiles, as a GPU runs one tile per thread block: a worker computes a group of up to k consecutive tiles
 * of its chunk of a block-diagonal in lock-step, lane l running tile l of the group. The tiles of one block-diagonal
 * do not depend on each other, so every lane computes a cell on every step, with no skew and no ramp: a tile of k
 * columns (k the lane count) runs as its rows in order, each row as k steps, one per column. Lanes past the group's
 * last tile (a diagonal's chunk that is not a multiple of k) compute throwaway values and store nothing.
 *
 * <p>A tile's row is one vector of its field's storage: a row of the group's results, k column vectors (lane l: tile
 * l's cell in that column), goes back through the in-register transpose of {@link LaneVectors} as k row stores. The
 * inputs of a row are copied element by element into a per-worker scratch array in the column layout, and the row
 * above the tiles is gathered once per group, a vector per column; the field's row then stays in the scratch array,
 * which each row overwrites column by column; the column west of the tiles, one value per lane, is gathered per row
 * (lane l's cell lies a fixed stride past lane 0's: the tile height times the row stride, minus the tile width). A
 * gather checks every lane's index, masked or not, so lanes past the group's last tile gather lane 0's.
 *
 * <p>Why not more in registers: with the columns unrolled, or the inputs too loaded as rows and transposed, the run
 * method is more than HotSpot's C1 compiles ("out of virtual registers"), so that it runs interpreted until C2
 * compiles it, seconds later; and a gather per column of an input (16 lines per gather) is slower than the copy.
 *
 * <p>It applies to one actor whose field's reads reach only its west, north-west and north neighbours (inputs at any
 * offset), in tiles exactly k columns wide; {@link #against} says why not otherwise.
 */
public final class TileGroupLanes {

    private final LaneVectors v;
    private final LoweringContext cx;
    private final int k;
    private final int tileRows;
    private final IrActor actor;
    private final int field;
    private final JExpr.Local group;
    private final JExpr.Local count;
    private final JExpr.Local lane;
    private final JExpr.Local row;
    private final JExpr.Local columnIndex;
    /** Per worker: each input's row as k column vectors, then the field's row as k column vectors. */
    private final JExpr.Local scratch;
    private final Map<String, IrExpr.Load> inputs;
    private final Map<String, Integer> inputSlot = new LinkedHashMap<>();
    private final int aboveSlot;
    private final JExpr.Local aboveHere;
    private final JExpr.Local aboveWest;
    private final JExpr.Local aboveWestNext;
    private final JExpr.Local west;
    private final JExpr.Local[] out;
    private final JExpr.Local[] tileRowsOut;
    private final Map<Integer, JExpr.Local> laneStride = new LinkedHashMap<>();
    private final Map<Integer, JExpr.Local> gatherMap = new LinkedHashMap<>();
    private final JExpr.Local laneRows;
    private final JExpr.Local laneColumns;
    /** The group's first tile's first column. */
    private JExpr columnFrom;

    /** Lanes across tiles of {@code tile} for the kernel, or the reason there are none. */
    public static Optional<String> against(KernelGraph graph, int lanes, int[] tile) {
        if (tile[1] != lanes) {
            return Optional.of("lanes across tiles need tiles as wide as the " + lanes + " lanes, one row a vector, and these are " + tile[1] + " wide");
        }
        if (graph.actors().size() != 1) {
            return Optional.of("lanes across tiles carry one state field's row from step to step, and this kernel has " + graph.actors().size() + " actors");
        }
        IrActor actor = graph.actors().getFirst();
        int[] halo = graph.field(actor.writes()).haloLow();
        if (halo[0] < 1 || halo[1] < 1) {
            // the groups gather the row above and the column west of their tiles whatever the actor reads
            return Optional.of("lanes across tiles gather the row above and the column west of the tiles, and '"
                    + graph.field(actor.writes()).name() + "' has no halo row above or column west (its actor reads no neighbour there)");
        }
        return neighbourAgainst(graph, actor.body(), actor.writes());
    }

    private static Optional<String> neighbourAgainst(KernelGraph graph, IrExpr expr, int field) {
        if (expr instanceof IrExpr.Load load && graph.field(load.field()).isState()) {
            int[] o = load.offset();
            if (load.field() != field || o[0] < -1 || o[0] > 0 || o[1] < -1 || o[1] > 0) {
                return Optional.of("lanes across tiles bring only the west, north-west and north neighbours, and '" + graph.field(load.field()).name()
                        + "' is read at (" + o[0] + ", " + o[1] + ")");
            }
        }
        return StripMapping.children(expr).stream().map(child -> neighbourAgainst(graph, child, field)).flatMap(Optional::stream).findFirst();
    }

    TileGroupLanes(LaneVectors lanes, int tileRows) {
        this.v = lanes;
        this.cx = lanes.cx;
        this.k = lanes.k;
        this.tileRows = tileRows;
        this.actor = cx.graph.actors().getFirst();
        this.field = actor.writes();
        String name = cx.graph.field(field).name();
        group = cx.local("tileGroup", JType.INT);
        count = cx.local("groupTiles", JType.INT);
        lane = cx.local("lane", JType.INT);
        row = cx.local("tileRow", JType.INT);
        v.declareLocals();
        columnIndex = cx.local("tileColumn", JType.INT);
        aboveHere = cx.local(name + "Above", v.vector);
        aboveWest = cx.local(name + "AboveWest", v.vector);
        aboveWestNext = cx.local(name + "AboveNext", v.vector);
        west = cx.local(name + "West", v.vector);
        out = v.scratchA;
        tileRowsOut = v.locals(name + "TileRow", v.vector, k);
        inputs = v.inputReads();
        int words = 0;
        for (String key : inputs.keySet()) {
            inputSlot.put(key, words);
            words += k * k;
        }
        aboveSlot = words;
        scratch = cx.local("groupScratch", JType.arrayOf(v.lane));
        cx.prologue.add(new JStmt.Assign(scratch, new JExpr.NewArrayOfLength(v.lane, constant(aboveSlot + k * k))));
        laneRows = cx.local("laneRows", v.vector);
        laneColumns = cx.local("laneColumns", v.vector);
        cx.prologue.add(new JStmt.Assign(laneRows, v.constants(l -> l * tileRows)));
        cx.prologue.add(new JStmt.Assign(laneColumns, v.constants(l -> l * k)));
    }

    /** The summary line {@code show --java} adds. */
    String summary() {
        return " Lanes across tiles: lane l runs tile l of a group of " + k + " consecutive tiles of the worker's chunk of a block-diagonal,"
                + " a row of the group as " + k + " steps, one per column; inputs copied element by element, results transposed back"
                + " and stored a row per tile, the row above and the column west of the tiles gathered.";
    }

    /**
     * The worker's tiles of block-diagonal {@code diagonal} whose tile rows are [chunkFrom, chunkTo), in groups of k;
     * {@code tileStart} receives the group's first tile's first row and column.
     */
    public List<JStmt> groups(JExpr diagonal, JExpr chunkFrom, JExpr chunkTo, JExpr.Local[] tileStart) {
        List<JStmt> body = new ArrayList<>();
        body.add(new JStmt.Assign(count, math("min", JType.INT, constant(k), sub(chunkTo, group))));
        body.add(new JStmt.Assign(tileStart[0], mul(group, constant(tileRows))));
        body.add(new JStmt.Assign(tileStart[1], mul(sub(diagonal, group), constant(k))));
        columnFrom = tileStart[1];
        cx.columnsFrom(columnFrom);
        body.add(new JStmt.Assign(cx.coordinate[0], tileStart[0]));
        body.addAll(cx.rowBases());
        body.add(new JStmt.Comment("the row above the group's tiles, gathered a column at a time"));
        body.add(new JStmt.Loop(columnIndex, constant(0), constant(k), constant(1), List.of(new JStmt.VectorStore(
                gather(field, add(cx.delta(field, new int[] {-1, 0}), columnIndex)), scratch, columnSlot(aboveSlot)))));
        body.add(new JStmt.Assign(aboveWest, gather(field, cx.delta(field, new int[] {-1, -1}))));
        List<JStmt> perRow = new ArrayList<>(cx.rowBases());
        perRow.add(new JStmt.Assign(west, gather(field, cx.delta(field, new int[] {0, -1}))));
        perRow.add(new JStmt.Assign(aboveWestNext, west));
        inputs.forEach((key, load) -> {
            perRow.add(new JStmt.Comment("input " + key + ", element by element into the scratch: tile l's column c to lane l of vector c"));
            JExpr at = add(add(add(cx.rowBase[load.field()], mul(lane, laneStride(load.field()))), cx.delta(load.field(), load.offset())), columnIndex);
            perRow.add(new JStmt.Loop(lane, constant(0), count, constant(1), List.of(new JStmt.Loop(columnIndex, constant(0), constant(k), constant(1),
                    List.of(new JStmt.Store(scratch, add(columnSlot(inputSlot.get(key)), lane), new JExpr.ArrayLoad(cx.array[load.field()], at)))))));
        });
        perRow.add(new JStmt.Comment(k + " steps, one per column; lane l computes tile l's cell"));
        List<JStmt> step = new ArrayList<>();
        step.add(new JStmt.Assign(aboveHere, new JExpr.VectorLoad(v.species, scratch, columnSlot(aboveSlot))));
        step.add(new JStmt.Assign(west, LaneExpressions.lower(actor.body(), this::read, this::indexVector, v::uniform)));
        step.add(new JStmt.Assign(aboveWest, aboveHere));
        step.add(new JStmt.VectorStore(west, scratch, columnSlot(aboveSlot)));
        perRow.add(new JStmt.Loop(columnIndex, constant(0), constant(k), constant(1), step));
        perRow.add(new JStmt.Assign(aboveWest, aboveWestNext));
        perRow.add(new JStmt.Comment("the row's results, transposed back to a vector per tile and stored as the tiles' rows"));
        for (int c = 0; c < k; c++) {
            perRow.add(new JStmt.Assign(out[c], new JExpr.VectorLoad(v.species, scratch, constant(aboveSlot + c * k))));
        }
        perRow.addAll(v.transpose(out, tileRowsOut));
        for (int l = 0; l < k; l++) {
            perRow.add(new JStmt.If(LoweringContext.compare(Op.LT, constant(l), count), List.of(new JStmt.VectorStore(tileRowsOut[l], cx.array[field],
                    add(cx.rowBase[field], mul(constant(l), laneStride(field))))), List.of()));
        }
        perRow.add(new JStmt.Assign(cx.coordinate[0], add(cx.coordinate[0], constant(1))));
        body.add(new JStmt.Loop(row, constant(0), constant(tileRows), constant(1), perRow));
        cx.columnsFrom(null);
        return List.of(new JStmt.Comment("the chunk's tiles in groups of " + k + ", lane l running tile l of the group"),
                new JStmt.Loop(group, chunkFrom, chunkTo, constant(k), body));
    }

    /** The scratch vector of the current column in the k column vectors from {@code slot}. */
    private JExpr columnSlot(int slot) {
        return add(mul(columnIndex, constant(k)), constant(slot));
    }

    /** Lane l: field {@code f}'s element {@code at} (an offset) from tile l's cell in column 0 of the row. */
    private JExpr gather(int f, JExpr at) {
        return new JExpr.VectorGather(v.species, cx.array[f], add(cx.rowBase[f], at), gatherMap(f), mul(count, constant(k)));
    }

    /** Per field: lane l of a group of n tiles at map[n * k + l], l tile strides for l &lt; n and 0 (lane 0's cell) past them. */
    private JExpr.Local gatherMap(int f) {
        return gatherMap.computeIfAbsent(f, key -> {
            JExpr.Local map = cx.local(cx.graph.field(f).name() + "GatherMap", JType.INT_ARRAY);
            cx.prologue.add(new JStmt.Assign(map, new JExpr.NewArrayOfLength(JType.INT, constant((k + 1) * k))));
            cx.prologue.add(new JStmt.Loop(count, constant(1), constant(k + 1), constant(1), List.of(new JStmt.Loop(lane, constant(0), count,
                    constant(1), List.of(new JStmt.Store(map, add(mul(count, constant(k)), lane), mul(lane, laneStride(f))))))));
            return map;
        });
    }

    /** Per field: the storage distance from a tile's cell to the same cell of the next tile down the block-diagonal. */
    private JExpr.Local laneStride(int f) {
        return laneStride.computeIfAbsent(f, key -> {
            JExpr.Local local = cx.local(cx.graph.field(f).name() + "TileStride", JType.INT);
            cx.prologue.add(new JStmt.Assign(local, sub(mul(constant(tileRows), cx.stride[f][0]), constant(k))));
            return local;
        });
    }

    private JExpr read(IrExpr.Load load) {
        if (cx.graph.field(load.field()).isInput()) {
            return new JExpr.VectorLoad(v.species, scratch, columnSlot(inputSlot.get(v.accessKey(load.field(), load.offset()))));
        }
        int[] o = load.offset();
        if (o[0] == 0) {
            return west;
        }
        return o[1] == 0 ? aboveHere : aboveWest;
    }

    /** Lane l's row (the group's first tile's row plus l tile heights) or column (minus l tile widths). */
    private JExpr indexVector(int dimension) {
        return dimension == 0
                ? new JExpr.Lanewise(JExpr.LaneOp.ADD, v.broadcastInt(cx.coordinate[0]), laneRows)
                : new JExpr.Lanewise(JExpr.LaneOp.SUB, v.broadcastInt(add(columnFrom, columnIndex)), laneColumns);
    }

}
