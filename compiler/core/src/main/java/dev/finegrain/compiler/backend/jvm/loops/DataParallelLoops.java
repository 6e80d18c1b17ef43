package dev.finegrain.compiler.backend.jvm.loops;

import dev.finegrain.compiler.backend.jvm.code.JClass;
import dev.finegrain.compiler.backend.jvm.code.JExpr.Binary.Op;
import dev.finegrain.compiler.backend.jvm.code.JExpr;
import dev.finegrain.compiler.backend.jvm.code.JStmt;
import dev.finegrain.compiler.backend.jvm.code.JType;
import dev.finegrain.compiler.backend.jvm.lanes.LaneStrips;
import dev.finegrain.compiler.backend.jvm.lanes.LaneVectors;
import dev.finegrain.compiler.backend.jvm.lanes.RowScanBands;
import dev.finegrain.compiler.backend.jvm.lanes.RowScanTiles;
import dev.finegrain.compiler.backend.jvm.lanes.StripMapping;
import dev.finegrain.compiler.backend.jvm.lanes.TileForm;
import dev.finegrain.compiler.backend.jvm.lanes.TileGroupLanes;
import dev.finegrain.compiler.backend.jvm.lanes.TileLanes;
import dev.finegrain.compiler.backend.jvm.layout.StepBarriers;
import dev.finegrain.compiler.backend.jvm.layout.VectorWidth;
import dev.finegrain.compiler.backend.jvm.lowering.LoweringContext;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.plan.DataParallelPlan;
import dev.finegrain.compiler.plan.DynamicDataflowPlan;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.add;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.compare;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.constant;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.math;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.mul;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.sub;

/**
 * Rodinia's structure on threads: for each block-diagonal k, the tiles whose coordinates sum to k are cut by tile row
 * into one contiguous chunk per worker, as OpenMP's static schedule cuts Rodinia's loop (so that a tile finds its west
 * neighbour, whose column it reads across every row, and its north neighbour in its own core's cache, except at a
 * chunk's edge); a tile runs its points in lexicographic order (a vector at a time along each row where the value is a
 * max-plus recurrence along the row, see {@link RowScanTiles} and {@link RowScanBands}; else in
 * strips of lanes where the kernel and the tile allow, see {@link LaneStrips}; else in lanes across tiles, see
 * {@link TileGroupLanes}); a sense-reversing barrier separates block-diagonals. With one tile covering the domain and
 * one worker this is the plain serial loop nest. A tile's row runs in column order, so a read one column west comes
 * from a local carried along the row.
 */
public final class DataParallelLoops {

    private static final JType READY_TILES = JType.reference(LoweringContext.RUNTIME + "ReadyTiles");

    private DataParallelLoops() {}

    /** What a class for sizes the tiles do not divide says of its tiles ({@code raggedTiles}). */
    static final String RAGGED_SUMMARY = "Lanes: none; the tiles do not divide the sizes, so every tile runs scalar loops, those at"
            + " the high edges cut short.";

    /**
     * @param raggedTiles for sizes the tiles do not divide: the tiles at the high edges cut short and run in scalar loops,
     *                    the whole ones in their form (all in scalar loops where the form is lanes across tiles)
     */
    public static JClass lower(String className, DataParallelPlan plan, VectorWidth width, boolean raggedTiles) {
        return lower(className, plan, null, width, raggedTiles);
    }

    /**
     * Dynamic dataflow over the same tiles: each worker takes ready tiles from the run's {@code ReadyTiles} until every
     * tile has run, and counts each one off its neighbours above when it has run it; no barrier, and no lanes across
     * tiles (a tile runs alone).
     */
    public static JClass lower(String className, DynamicDataflowPlan plan, VectorWidth width, boolean raggedTiles) {
        return lower(className, plan.tiles(), "Sync: a join counter per tile; the tiles that become ready wait in a "
                + dev.finegrain.compiler.backend.jvm.layout.ReadyTileGrids.ready(plan).cliName() + " structure.", width, raggedTiles);
    }

    /** {@code readySync} says how dynamic dataflow's tiles meet, or is null for data-parallel's barriers. */
    private static JClass lower(String className, DataParallelPlan plan, String readySync, VectorWidth width, boolean raggedTiles) {
        boolean dynamic = readySync != null;
        LoweringContext made = new LoweringContext(plan.graph(), null, width);
        TileForm chosen = form(made, plan, width, dynamic);
        if (raggedTiles && chosen instanceof TileForm.LanesAcrossTiles) {
            // at sizes the tiles do not divide, a whole tile keeps its form and a short one runs scalar loops in the same
            // storage; lanes across tiles lay a group of tiles out together, so there every tile runs scalar loops (on
            // a context of its own: the form first made has bound its storage)
            made = new LoweringContext(plan.graph(), null, width);
            chosen = TileForm.cutShort(made, plan, RAGGED_SUMMARY);
        }
        LoweringContext cx = made;
        TileForm form = chosen;
        JExpr.Local barrier = dynamic ? cx.bind("readyTiles", READY_TILES, JClass.Source.SYNC, 0)
                : cx.bind("barrier", LoweringContext.BARRIER, JClass.Source.SYNC, 0);
        int rank = cx.rank;
        int last = cx.last;
        int[] tile = plan.tile();
        List<JStmt> out = new ArrayList<>();
        JExpr.Local[] tiles = new JExpr.Local[rank];
        JExpr.Local[] tileIndex = new JExpr.Local[rank];
        JExpr diagonals = constant(1);
        for (int d = 0; d < rank; d++) {
            tiles[d] = cx.local("tiles" + d, JType.INT);
            tileIndex[d] = cx.local("tile" + d, JType.INT);
            out.add(new JStmt.Assign(tiles[d], raggedTiles ? math("ceilDiv", JType.INT, cx.size[d], constant(tile[d]))
                    : new JExpr.Binary(Op.DIV, cx.size[d], constant(tile[d]))));
            diagonals = add(diagonals, sub(tiles[d], constant(1)));
        }
        JExpr.Local diagonal = cx.local("diagonal", JType.INT);

        // the tile's bounds live in locals, so every loop of the tile is a plain counted loop between two locals
        JExpr.Local[] tileStart = new JExpr.Local[rank];
        JExpr.Local[] tileEnd = new JExpr.Local[rank];
        List<JStmt> bounds = new ArrayList<>();
        for (int d = 0; d < rank; d++) {
            tileStart[d] = cx.local(cx.coordinate[d].name() + "From", JType.INT);
            tileEnd[d] = cx.local(cx.coordinate[d].name() + "To", JType.INT);
            bounds.add(new JStmt.Assign(tileStart[d], mul(tileIndex[d], constant(tile[d]))));
            bounds.add(new JStmt.Assign(tileEnd[d], raggedTiles ? math("min", JType.INT, add(tileStart[d], constant(tile[d])), cx.size[d])
                    : add(tileStart[d], constant(tile[d]))));
        }
        if (form.columnBlocks()) {
            bounds.addAll(cx.layout.blockOrigins(tileIndex[last], tileStart[last]));
            bounds.addAll(westHalo(cx, tile[last], tileIndex[last], tileStart, tileEnd));
        }
        // the form's own statements, after the bounds
        List<JStmt> formStatements = switch (form) {
            case TileForm.RowScan scan -> scan.scan().tile(tileIndex[last], tileStart, tileEnd);
            case TileForm.BandRowScan rows -> rowScans(cx, rows.rows(), tileStart, tileEnd);
            case TileForm.SkewedStrip strip -> strip.lanes().strips(tileStart[0], tileEnd[0], tileStart[1]);
            case TileForm.LanesAcrossTiles across -> List.of();   // lanes across tiles replace the whole tile nest below
            case TileForm.Strips strips -> {
                List<JStmt> statements = new ArrayList<>();   // the whole strips, then the rows after them
                statements.addAll(pointsInOrder(cx, tile, tileStart, tileEnd, Optional.of(strips.strips()), statements, false));
                yield statements;
            }
            case TileForm.Scalar scalar -> pointsInOrder(cx, tile, tileStart, tileEnd, Optional.empty(), new ArrayList<>(), raggedTiles);
        };
        List<JStmt> runTile;
        if (raggedTiles && !(form instanceof TileForm.Scalar)) {
            // a row scan's blocks have no west halo of their own (it reads the west block): a short tile copies it first
            List<JStmt> westOfShortTile = form instanceof TileForm.RowScan && rank == 2
                    ? concat(cx.layout.blockOrigins(tileIndex[last], tileStart[last]), westHalo(cx, tile[last], tileIndex[last], tileStart, tileEnd))
                    : List.of();
            runTile = wholeOrCutShort(cx, tile, tileStart, tileEnd, bounds, formStatements, westOfShortTile);
        } else {
            runTile = concat(bounds, formStatements);   // a scalar form's loops take the tile's own bounds
        }
        if (dynamic) {
            out.addAll(readyTiles(cx, barrier, tiles, tileIndex, runTile));
            List<JStmt> run = new ArrayList<>(cx.prologue);
            run.addAll(out);
            return new JClass(className, List.of(LoweringContext.RUNTIME + "TeamTask"),
                    "Dynamic dataflow over the tiles of kernel " + plan.graph().name() + "; generated by Finegrain.\n"
                            + form.summary() + "\n" + readySync + "\n", cx.bindings, cx.runLocals(run), run, cx.helpers,
                    cx.layout.rows());
        }
        JExpr otherSum = constant(0);
        for (int d = 0; d < last; d++) {
            otherSum = add(otherSum, tileIndex[d]);
        }
        List<JStmt> candidate = new ArrayList<>();
        candidate.add(new JStmt.Assign(tileIndex[last], sub(diagonal, otherSum)));
        JExpr onDiagonal = new JExpr.Binary(Op.AND, compare(Op.GE, tileIndex[last], constant(0)), compare(Op.LT, tileIndex[last], tiles[last]));
        List<JStmt> perDiagonal = new ArrayList<>();
        List<JStmt> tileNest = candidate;
        if (last == 0) {
            JExpr mine = compare(Op.EQ, new JExpr.Binary(Op.REM, tileIndex[0], cx.workers), cx.worker);
            candidate.add(new JStmt.If(new JExpr.Binary(Op.AND, onDiagonal, mine), runTile, List.of()));
            perDiagonal.add(new JStmt.Comment("one tile per block-diagonal, tile t to worker t mod workers"));
        } else {
            candidate.add(new JStmt.If(onDiagonal, runTile, List.of()));
            JExpr.Local rowFrom = cx.local("diagonalTileFrom", JType.INT);
            JExpr.Local rowTo = cx.local("diagonalTileTo", JType.INT);
            JExpr.Local rowChunk = cx.local("tileChunk", JType.INT);
            JExpr reach = constant(0);
            for (int d = 1; d < rank; d++) {
                reach = add(reach, sub(tiles[d], constant(1)));
            }
            perDiagonal.add(new JStmt.Comment("the tiles of block-diagonal k in one contiguous chunk of tile rows per worker: a tile's "
                    + "west and north neighbours, from block-diagonal k - 1, are on its own worker except at a chunk's edge"));
            perDiagonal.add(new JStmt.Assign(rowFrom, math("max", JType.INT, constant(0), sub(diagonal, reach))));
            perDiagonal.add(new JStmt.Assign(rowTo, math("min", JType.INT, tiles[0], add(diagonal, constant(1)))));
            perDiagonal.add(new JStmt.Assign(rowChunk, math("ceilDiv", JType.INT,
                    math("max", JType.INT, constant(0), sub(rowTo, rowFrom)), cx.workers)));
            perDiagonal.add(new JStmt.Assign(rowFrom, add(rowFrom, mul(cx.worker, rowChunk))));
            perDiagonal.add(new JStmt.Assign(rowTo, math("min", JType.INT, rowTo, add(rowFrom, rowChunk))));
            for (int d = last - 1; d >= 0; d--) {
                tileNest = List.of(new JStmt.Loop(tileIndex[d], d == 0 ? rowFrom : constant(0), d == 0 ? rowTo : tiles[d], constant(1), tileNest));
            }
            if (form instanceof TileForm.LanesAcrossTiles across) {
                tileNest = across.groups().groups(diagonal, rowFrom, rowTo, tileStart);
            }
        }
        perDiagonal.addAll(tileNest);
        perDiagonal.add(new JStmt.Evaluate(new JExpr.InvokeVirtual(barrier, "await", List.of(JType.INT, LoweringContext.WATCHDOG),
                JType.VOID, List.of(cx.worker, cx.watchdog))));
        out.add(new JStmt.Loop(diagonal, constant(0), diagonals, constant(1), perDiagonal));
        List<JStmt> run = new ArrayList<>(cx.prologue);
        run.addAll(out);
        return new JClass(className, List.of(LoweringContext.RUNTIME + "TeamTask"),
                "Data-parallel tiles of kernel " + plan.graph().name() + "; generated by Finegrain.\n" + form.summary() + "\n"
                        + StepBarriers.describe(plan, "block-diagonals") + "\n",
                cx.bindings, cx.runLocals(run), run, cx.helpers, cx.layout.rows());
    }

    /**
     * The worker's loop over ready tiles: {@code next} hands it a tile number (row-major, the last dimension fastest) or
     * the tile count once every tile has run, so the loop steps from one claimed tile to the next by adding their
     * difference; each tile's coordinates are split off its number, the tile runs, and {@code done} counts it off.
     */
    private static List<JStmt> readyTiles(LoweringContext cx, JExpr.Local readyTiles, JExpr.Local[] tiles,
                                          JExpr.Local[] tileIndex, List<JStmt> runTile) {
        JExpr.Local count = cx.local("tileCount", JType.INT);
        JExpr.Local claimed = cx.local("claimed", JType.INT);
        JExpr.Local rest = cx.local("tileRest", JType.INT);
        JExpr product = tiles[0];
        for (int d = 1; d < tiles.length; d++) {
            product = mul(product, tiles[d]);
        }
        JExpr next = new JExpr.InvokeVirtual(readyTiles, "next", List.of(JType.INT, LoweringContext.WATCHDOG), JType.INT,
                List.of(cx.worker, cx.watchdog));
        List<JStmt> body = new ArrayList<>();
        body.add(new JStmt.Assign(rest, claimed));
        for (int d = tiles.length - 1; d >= 0; d--) {
            body.add(new JStmt.Assign(tileIndex[d], new JExpr.Binary(Op.REM, rest, tiles[d])));
            if (d > 0) {
                body.add(new JStmt.Assign(rest, new JExpr.Binary(Op.DIV, rest, tiles[d])));
            }
        }
        body.addAll(runTile);
        body.add(new JStmt.Evaluate(new JExpr.InvokeVirtual(readyTiles, "done", List.of(JType.INT, JType.INT), JType.VOID,
                List.of(cx.worker, claimed))));
        return List.of(new JStmt.Assign(count, product),
                new JStmt.Comment("take ready tiles until every tile has run: next returns the tile count then"),
                new JStmt.Loop(claimed, next, count, sub(next, claimed), body));
    }

    /**
     * The tile's points in lexicographic order, the rows that whole strips of {@code strips} cover first (their statements
     * go to {@code before}). A tile's row runs from column 0 of the tile to its width, a constant (where tiles may be cut
     * short, {@code raggedTiles}, the tile's own width), from row bases that point at the tile.
     */
    private static List<JStmt> pointsInOrder(LoweringContext cx, int[] tile, JExpr.Local[] tileStart, JExpr.Local[] tileEnd,
                                             Optional<LaneStrips> strips, List<JStmt> before, boolean raggedTiles) {
        int last = cx.last;
        cx.columnsFrom(tileStart[last]);
        List<JStmt> point = pointAlongRow(cx);
        List<JStmt> tileBody = new ArrayList<>(cx.rowBases());
        tileBody.addAll(cx.carries.seed(constant(0)));
        tileBody.add(new JStmt.Loop(cx.coordinate[last], constant(0), raggedTiles ? sub(tileEnd[last], tileStart[last])
                : constant(tile[last]), constant(1), point));
        cx.columnsFrom(null);
        List<JStmt> runTile = tileBody;
        for (int d = last - 1; d >= 0; d--) {
            JExpr rowsFrom = tileStart[d];
            if (d == 0 && strips.isPresent()) {
                before.addAll(strips.get().strips(tileStart[0], tileEnd[0], tileStart[1], tileEnd[1], List.of(), List.of()));
                before.add(new JStmt.Comment("the rows after the last whole strip, one by one"));
                rowsFrom = strips.get().stripsEnd();
            }
            runTile = List.of(new JStmt.Loop(cx.coordinate[d], rowsFrom, tileEnd[d], constant(1), runTile));
        }
        return runTile;
    }

    /**
     * A tile at a size the tiles do not divide: its bounds (cut at the domain's high edges), then the whole tile's form
     * ({@code form}) where the tile is whole, else scalar loops over the tile's points (after {@code westOfShortTile}).
     */
    private static List<JStmt> wholeOrCutShort(LoweringContext cx, int[] tile, JExpr.Local[] tileStart, JExpr.Local[] tileEnd,
                                               List<JStmt> bounds, List<JStmt> form, List<JStmt> westOfShortTile) {
        JExpr whole = null;
        for (int d = 0; d < tile.length; d++) {
            JExpr full = compare(Op.EQ, sub(tileEnd[d], tileStart[d]), constant(tile[d]));
            whole = whole == null ? full : new JExpr.Binary(Op.AND, whole, full);
        }
        List<JStmt> cutShort = new ArrayList<>(westOfShortTile);
        cutShort.addAll(pointsInOrder(cx, tile, tileStart, tileEnd, Optional.empty(), new ArrayList<>(), true));
        List<JStmt> out = new ArrayList<>(bounds);
        out.add(new JStmt.Comment("a whole tile in its form; a tile cut short at the domain's high edge in scalar loops"));
        out.add(new JStmt.If(whole, form, cutShort));
        return out;
    }

    /** One point of a row in scalar code, every actor fired, its west reads from the locals carried along the row. */
    private static List<JStmt> pointAlongRow(LoweringContext cx) {
        cx.carries.carryWestReads();
        cx.carries.readFromLocals(true);
        List<JStmt> point = new ArrayList<>();
        for (int actor : cx.graph.actorOrder()) {
            cx.actors.fire(cx.graph.actor(actor), point);
        }
        point.addAll(cx.carries.advance());
        return point;
    }

    /**
     * A tile of a kernel with a row scan, wider than {@link RowScanTiles} runs: its rows in order, each as a band's row is
     * ({@link RowScanBands}): whole vectors with the west value carried beside the scan, then the columns left one by one
     * (and every column, where a subtraction could wrap). The values west of the tile are in its halo column already.
     */
    private static List<JStmt> rowScans(LoweringContext cx, RowScanBands rows, JExpr.Local[] tileStart, JExpr.Local[] tileEnd) {
        int last = cx.last;
        List<JStmt> point = pointAlongRow(cx);
        RowScanBands.Plain points = (from, to) -> {
            List<JStmt> run = new ArrayList<>(cx.carries.seed(from));
            run.add(new JStmt.Loop(cx.coordinate[last], from, to, constant(1), point));
            return run;
        };
        List<JStmt> out = new ArrayList<>(rows.forgetNorth());
        out.addAll(rows.columns(tileStart[last], tileEnd[last]));
        List<JStmt> row = new ArrayList<>(cx.rowBases());
        row.addAll(rows.row(points));
        out.add(new JStmt.Loop(cx.coordinate[0], tileStart[0], tileEnd[0], constant(1), row));
        return out;
    }

    /** The form a whole tile takes (the lanes' forms where the kernel and the tile allow), made on {@code cx}. */
    private static TileForm form(LoweringContext cx, DataParallelPlan plan, VectorWidth width, boolean dynamic) {
        int[] tileShape = plan.tile();
        // a kernel that reads sequences or looks up tables takes lanes along rows only: the row scans
        boolean alongRows = StripMapping.readsAlongRowsOnly(plan.graph());
        LaneVectors.Choice lanes = LaneVectors.choose(cx, width, true, alongRows, (k, skew) -> alongRows
                ? RowScanTiles.against(plan.graph(), k, tileShape).map(reason -> "its sequences and lookups run in lanes along"
                        + " rows only, in a row scan, and " + reason)
                : dynamic ? TileForm.onlyOneTile(plan, k, skew) : shapeAgainst(plan, k, skew));
        return TileForm.of(cx, plan, lanes, !dynamic);
    }

    /** Why the tile takes neither lanes across tiles nor one skewed strip of {@code k} lanes, or empty when it takes one. */
    private static Optional<String> tileLanesAgainst(DataParallelPlan plan, int k, int skew) {
        Optional<String> across = TileGroupLanes.against(plan.graph(), k, plan.tile());
        return across.isEmpty() ? Optional.empty()
                : TileLanes.shapeAgainst(k, skew, plan.tile()[0], plan.tile()[1]).map(reason -> across.get() + "; " + reason
                        + rowScanHint(plan, k));
    }

    /**
     * Why the tiles take no lanes of k lanes with this skew (the forms of {@link TileForm}, in its order), or empty
     * when they take some: a row scan, strips where they pay, lanes across tiles, or one skewed strip of a tile.
     */
    private static Optional<String> shapeAgainst(DataParallelPlan plan, int k, int skew) {
        int[] tile = plan.tile();
        if (RowScanTiles.against(plan.graph(), k, tile).isEmpty() || TileForm.stripsPay(tile, k, skew)) {
            return Optional.empty();
        }
        if (TileForm.holdsBlock(tile, k, skew)) {
            // a tile that holds a skewed block is wider than k, so only lanes across tiles could still take it, and they never do
            return TileGroupLanes.against(plan.graph(), k, tile).map(reason -> "skewed strips lose to scalar loops in tiles at most "
                    + TileForm.STRIP_MIN_VECTORS + " vectors wide (" + TileForm.STRIP_MIN_VECTORS * k + " columns), and these are " + tile[1] + "; " + reason);
        }
        return tileLanesAgainst(plan, k, skew);
    }

    /**
     * Where a tile narrower than the lanes keeps the kernel from its row scan, the tile k wide that runs one (a reader's
     * next try), else nothing; a tile at least k wide that reaches here has no row scan in any width.
     */
    private static String rowScanHint(DataParallelPlan plan, int k) {
        int[] tile = plan.tile();
        if (tile.length != 2 || tile[1] >= k || RowScanTiles.against(plan.graph(), k, new int[] {tile[0], k}).isPresent()) {
            return "";
        }
        return "; tiles " + k + " columns wide run a row scan (data-parallel:" + tile[0] + "x" + k + ")";
    }

    /**
     * With blocks of columns: the values west of the tile, from the west block's last columns into this block's halo
     * columns, for every state field read to the west, the tile's rows and the rows above it that the halo holds. They
     * are final there: the west block's tiles of these rows ran on earlier block-diagonals (where a tile is narrower than
     * the halo, the farther columns come from the west block's own halo, which its tile of the same rows copied the same
     * way). West of the first block the halo holds the boundary, and nothing is copied. Inputs are never written, and
     * their halo columns are copies already.
     */
    private static List<JStmt> westHalo(LoweringContext cx, int columns, JExpr tileColumn, JExpr.Local[] tileStart, JExpr.Local[] tileEnd) {
        List<JStmt> copies = new ArrayList<>();
        JExpr.Local haloRow = null;
        for (IrField field : cx.graph.fields()) {
            int f = field.id();
            int west = field.haloLow()[1];
            if (!field.isState() || west == 0) {
                continue;
            }
            if (haloRow == null) {
                haloRow = cx.local("haloRow", JType.INT);
            }
            // the storage index of row haloRow, column tileStart[1] - c (LoweringContext.rowBases with the block's origin)
            JExpr rowStart = add(add(cx.layout.blockOrigin(f), constant(west)), mul(add(haloRow, constant(field.haloLow()[0])), cx.stride[f][0]));
            List<JStmt> row = new ArrayList<>();
            for (int c = 1; c <= west; c++) {
                JExpr here = add(rowStart, sub(tileStart[1], constant(c)));
                row.add(new JStmt.Store(cx.array[f], here, new JExpr.ArrayLoad(cx.array[f], add(here, sub(constant(columns), cx.layout.blockStride(f))))));
            }
            copies.add(new JStmt.Loop(haloRow, sub(tileStart[0], constant(field.haloLow()[0])), tileEnd[0], constant(1), row));
        }
        if (copies.isEmpty()) {
            return copies;
        }
        List<JStmt> guarded = new ArrayList<>();
        guarded.add(new JStmt.Comment("the values west of the tile, from the west block into this block's halo columns"));
        guarded.add(new JStmt.If(compare(Op.GT, tileColumn, constant(0)), copies, List.of()));
        return guarded;
    }

    private static List<JStmt> concat(List<JStmt> first, List<JStmt> second) {
        List<JStmt> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }
}
