package dev.finegrain.compiler.backend.jvm.lanes;

import dev.finegrain.compiler.backend.jvm.code.JExpr.Binary.Op;
import dev.finegrain.compiler.backend.jvm.code.JExpr.LaneOp;
import dev.finegrain.compiler.backend.jvm.code.JExpr;
import dev.finegrain.compiler.backend.jvm.code.JStmt;
import dev.finegrain.compiler.backend.jvm.code.JType;
import dev.finegrain.compiler.backend.jvm.layout.AlignedStorage;
import dev.finegrain.compiler.backend.jvm.lowering.LoweringContext;
import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.compiler.ir.KernelGraph;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.add;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.compare;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.constant;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.math;

/**
 * A tile of at most {@link #MAX_VECTORS} whole vectors (k lanes each) as its rows in order, each row a vector at a
 * time, for kernels of a {@link WestMaxRecurrence} {@code max(rest, west - gap)}: {@code rest} of a whole vector at
 * once (its north and north-west neighbours are the row above; its inputs one vector load each), then the west
 * dependence as a band's row takes it ({@link RowScanBands}): lane l gives up its distance to the vector's last lane,
 * {@code (k - 1 - l) gap}, log2 k steps take {@code h = max(h, h shifted d lanes up)} for d = 1, 2, 4, ... (lanes below
 * d take their own value), and only then does the vector meet its west value, {@code max(h, west - k gap)}, and get
 * the distances back. A vector is one load per input, one store, and log2 k permute-and-max steps; no transposes and
 * no copies. In a tile one vector wide the row above (where the terms read it) stays in registers; in a wider one
 * each vector loads it (its columns, and one column west), and the next vector's west value is {@code max(h[k - 1],
 * west - k gap)}, so the chain from vector to vector is one subtraction and one max, not the scan. The storage is in
 * blocks of the tile's columns ({@link AlignedStorage}, "Column blocks"), so a tile's rows are one contiguous run of
 * its block.
 *
 * <p>Exactness: as in {@link RowScanBands}, checked per vector. The run checks once that {@code 0 <= gap <= MAX / (k +
 * 1)}, and each row (each vector) that its west value is at least {@code MIN + (2k + 1) gap}; the vector raises its
 * rest terms to at least {@code MIN + k gap} first, which changes no maximum, since lane l's west term {@code west -
 * (l + 1) gap} is above that, and then no subtraction wraps. A vector whose west value is below the floor takes its k
 * cells one by one in the sequential order, exactly as the scalar code would, and so does every vector when the gap is
 * out of range.
 */
public final class RowScanTiles {

    private final LaneVectors v;
    private final LoweringContext cx;
    private final int k;
    private final int field;
    private final WestMaxRecurrence recurrence;
    private final JExpr gap;
    private final JExpr.Local north;
    private final JExpr.Local northWest;
    private final JExpr.Local west;
    private final JExpr.Local westDelta;
    private final JExpr.Local rest;
    private final JExpr.Local cells;
    private final JExpr.Local carry;
    private final JExpr.Local lane;
    private final JExpr.Local scratch;
    private final JExpr.Local gapInRange;
    private final JExpr.Local floor;
    private final JExpr.Local restFloor;
    private final JExpr.Local vectorGap;
    private final JExpr.Local westTerm;
    /** In tiles wider than one vector: the scan's last lane, from which the next vector's west value comes. */
    private final JExpr.Local scanLast;
    private final JExpr.Local tailGaps;
    private final List<JExpr.Local> scanShifts = new ArrayList<>();
    private JExpr columnFrom;
    /** The tile's width, a whole number of vectors. */
    private final int width;
    /** Whether rest reads the row above (north or north-west); a kernel that does not may have no halo row above. */
    private final boolean readsRowAbove;
    /** In tiles wider than one vector: the column of the row's current vector, from the tile's first. */
    private final JExpr.Local vectorColumn;
    private final LaneLookups lookups;

    /**
     * The most vectors a tile's row may hold for this form; a wider tile's rows run as a band's do ({@link RowScanBands}),
     * the west value carried beside the scan (Needleman-Wunsch, one thread: 4 vectors 10.93 against 11.78 ms, 16 vectors
     * 11.63 against 6.35 ms; docs/jvm-backend.md, "Strips in tiles against scalar tiles").
     */
    static final int MAX_VECTORS = 4;

    /**
     * Why tiles of {@code tile} in the kernel take no row scan, or empty when they take one: this form where the tile is
     * at most {@link #MAX_VECTORS} whole vectors wide ({@link #fits}), the band's ({@link RowScanBands}) where it is wider.
     */
    public static Optional<String> against(KernelGraph graph, int lanes, int[] tile) {
        if (tile.length != 2 || tile[1] < lanes) {
            return Optional.of("a row scan needs tiles at least as wide as the " + lanes + " lanes, and these are "
                    + tile[tile.length - 1] + " wide");
        }
        return WestMaxRecurrence.rowScanAgainst(graph);
    }

    /** Whether a tile {@code width} columns wide runs in this form: whole vectors, at most {@link #MAX_VECTORS} of them. */
    static boolean fits(int width, int lanes) {
        return width % lanes == 0 && width / lanes <= MAX_VECTORS;
    }

    RowScanTiles(LaneVectors lanes, int width) {
        this.v = lanes;
        this.cx = lanes.cx;
        this.k = lanes.k;
        this.width = width;
        this.field = WestMaxRecurrence.field(cx.graph);
        this.recurrence = WestMaxRecurrence.of(cx.graph).recurrence().orElseThrow();
        String name = cx.graph.field(field).name();
        this.readsRowAbove = readsRowAbove(recurrence.rest(), field);
        v.declareShiftUp();
        cx.layout.alignRowsInColumnBlocks(k, width);
        vectorColumn = width > k ? cx.local("vectorColumn", JType.INT) : null;
        north = cx.local(name + "North", v.vector);
        northWest = cx.local(name + "NorthWest", v.vector);
        west = cx.local(name + "West", v.lane);
        westDelta = cx.local(name + "WestDelta", JType.INT);
        rest = cx.local(name + "Rest", v.vector);
        cells = cx.local(name + "Cells", v.vector);
        carry = cx.local(name + "Carry", v.lane);
        lane = cx.local("lane", JType.INT);
        scratch = cx.local("rowScratch", JType.arrayOf(v.lane));
        gapInRange = cx.local("scanGapInRange", JType.BOOLEAN);
        floor = cx.local("scanFloor", v.lane);
        restFloor = cx.local("restFloor", v.vector);
        vectorGap = cx.local("vectorGap", v.lane);
        westTerm = cx.local(name + "WestTerm", v.lane);
        scanLast = vectorColumn == null ? null : cx.local(name + "ScanLast", v.lane);
        tailGaps = cx.local("tailGaps", v.vector);
        lookups = new LaneLookups(v, recurrence.rest());
        gap = v.scalar(recurrence.gap());
        List<JStmt> prologue = cx.prologue;
        String unit = width == k ? "row" : "vector";
        prologue.add(new JStmt.Comment("the row scan is exact while no subtraction wraps: 0 <= gap <= MAX / " + (k + 1)
                + ", and a " + unit + "'s west value at least MIN + " + (2 * k + 1) + " gap (else the " + unit + " runs cell by cell)"));
        prologue.add(new JStmt.Assign(gapInRange, v.gapAtMostMaxOver(gap, k + 1)));
        prologue.add(new JStmt.Assign(vectorGap, new JExpr.Binary(Op.MUL, v.laneConstant(k), gap)));
        prologue.add(new JStmt.Assign(restFloor, new JExpr.Broadcast(v.species, add(v.laneMinimum(), vectorGap))));
        prologue.add(new JStmt.Assign(floor, add(add(add(v.laneMinimum(), vectorGap), vectorGap), gap)));
        prologue.add(new JStmt.Assign(tailGaps, v.tailGaps(gap)));
        scanShifts.addAll(v.scanShifts());
        prologue.add(new JStmt.Assign(scratch, new JExpr.NewArrayOfLength(v.lane, constant(k))));
    }

    /** The summary line {@code show --java} adds. */
    String summary() {
        boolean oneVector = width == k;
        String unit = oneVector ? "row" : "vector";
        String row = oneVector ? "one vector of " + k + " cells" : width / k + " vectors of " + k + " cells, each vector's last lane"
                + " the next one's west value";
        String above = oneVector ? "the row above (held in registers)" : "the row above (loaded, one vector and one column west)";
        return " Row scan: a tile's row is " + row + "; the value is max(terms, west - gap), so " + (oneVector ? "the row" : "a vector")
                + " computes its terms at once from " + above + " and one load per input, takes from each lane its gaps to the"
                + " last lane, scans them in " + Integer.numberOfTrailingZeros(k) + " shift-and-max steps, and then meets its west"
                + " value; a " + unit + " whose west value lies within " + (2 * k + 1) + " gaps of the minimum, or every " + unit
                + " when the gap is below 0 or above MAX / " + (k + 1) + ", runs cell by cell.";
    }

    /**
     * The tile in column {@code tileColumn} whose first row and column are {@code tileStart}, rows to {@code tileEnd[0]}.
     * Its rows lie in the block of its columns; the values west of them are the last column of the block to the west
     * (the block's own halo column only west of the first block, where it holds the boundary), read there, so no tile
     * writes outside its own block.
     */
    public List<JStmt> tile(JExpr tileColumn, JExpr.Local[] tileStart, JExpr.Local[] tileEnd) {
        List<JStmt> body = new ArrayList<>(cx.layout.blockOrigins(tileColumn, tileStart[1]));
        columnFrom = tileStart[1];
        cx.columnsFrom(columnFrom);
        body.add(new JStmt.Assign(cx.coordinate[0], tileStart[0]));
        body.addAll(cx.rowBases());
        body.add(new JStmt.Comment("the column west of the tile: the west block's last, or the halo west of the first block"));
        body.add(new JStmt.Assign(westDelta, add(cx.delta(field, new int[] {0, -1}), LoweringContext.mul(
                math("min", JType.INT, tileColumn, constant(1)), LoweringContext.sub(constant(width), cx.layout.blockStride(field))))));
        if (vectorColumn == null && readsRowAbove) {
            body.add(new JStmt.Comment("the row above the tile"));
            body.add(new JStmt.Assign(north, rowVector(field, new int[] {-1, 0})));
            body.add(new JStmt.Assign(northWest, v.shiftedUp(north, new JExpr.ArrayLoad(cx.array[field],
                    add(add(cx.rowBase[field], cx.delta(field, new int[] {-1, 0})), westDelta)))));
        }
        List<JStmt> perRow = new ArrayList<>(cx.rowBases());
        perRow.add(new JStmt.Assign(west, new JExpr.ArrayLoad(cx.array[field], add(cx.rowBase[field], westDelta))));
        perRow.addAll(lookups.beforeRow(this::read, this::indexVector));
        List<JStmt> perVector = new ArrayList<>();
        if (vectorColumn != null && readsRowAbove) {
            // the row above from storage (its tile wrote it, or the north tile): the vector's columns, and one column west,
            // which west of the first vector is the west block's
            JExpr rowAbove = add(cx.rowBase[field], cx.delta(field, new int[] {-1, 0}));
            perVector.add(new JStmt.Assign(north, new JExpr.VectorLoad(v.species, cx.array[field], add(rowAbove, vectorColumn))));
            perVector.add(new JStmt.If(compare(Op.EQ, vectorColumn, constant(0)),
                    List.of(new JStmt.Assign(northWest, v.shiftedUp(north, new JExpr.ArrayLoad(cx.array[field], add(rowAbove, westDelta))))),
                    List.of(new JStmt.Assign(northWest, new JExpr.VectorLoad(v.species, cx.array[field],
                            add(rowAbove, LoweringContext.sub(vectorColumn, constant(1))))))));
        }
        perVector.addAll(lookups.assign(rest, recurrence.rest(), this::read, this::indexVector));
        List<JStmt> scan = new ArrayList<>();
        scan.add(new JStmt.Assign(cells, new JExpr.Lanewise(LaneOp.SUB, new JExpr.Lanewise(LaneOp.MAX, rest, restFloor), tailGaps)));
        for (JExpr.Local shift : scanShifts) {
            scan.add(new JStmt.Assign(cells, new JExpr.Lanewise(LaneOp.MAX, cells, new JExpr.Rearrange(shift, cells))));
        }
        if (vectorColumn != null) {
            scan.add(new JStmt.Assign(scanLast, new JExpr.LaneValue(cells, k - 1)));
        }
        scan.add(new JStmt.Assign(westTerm, new JExpr.Binary(Op.SUB, west, vectorGap)));
        scan.add(new JStmt.Assign(cells, new JExpr.Lanewise(LaneOp.ADD,
                new JExpr.Lanewise(LaneOp.MAX, cells, new JExpr.Broadcast(v.species, westTerm)), tailGaps)));
        if (vectorColumn != null) {
            scan.add(new JStmt.Comment("the next vector's west value, this one's last lane, from the scan and the west term alone"));
            scan.add(new JStmt.Assign(carry, math("max", v.lane, scanLast, westTerm)));
        }
        List<JStmt> cellByCell = new ArrayList<>();
        cellByCell.add(new JStmt.VectorStore(rest, scratch, constant(0)));
        cellByCell.add(new JStmt.Assign(carry, west));
        cellByCell.add(new JStmt.Loop(lane, constant(0), constant(k), constant(1), List.of(
                new JStmt.Assign(carry, math("max", v.lane, new JExpr.ArrayLoad(scratch, lane), new JExpr.Binary(Op.SUB, carry, gap))),
                new JStmt.Store(scratch, lane, carry))));
        cellByCell.add(new JStmt.Assign(cells, new JExpr.VectorLoad(v.species, scratch, constant(0))));
        JExpr noWrap = new JExpr.Binary(Op.AND, gapInRange, compare(Op.GE, west, floor));
        perVector.add(new JStmt.Comment("the west dependence: a max-plus scan over the lanes, or cell by cell where a subtraction could wrap"));
        perVector.add(new JStmt.If(noWrap, scan, cellByCell));
        if (vectorColumn == null) {
            perRow.addAll(perVector);
            perRow.add(new JStmt.VectorStore(cells, cx.array[field], cx.rowBase[field]));
            if (readsRowAbove) {
                perRow.add(new JStmt.Assign(northWest, v.shiftedUp(cells, west)));
                perRow.add(new JStmt.Assign(north, cells));
            }
        } else {
            perVector.add(new JStmt.VectorStore(cells, cx.array[field], add(cx.rowBase[field], vectorColumn)));
            perVector.add(new JStmt.Assign(west, carry));
            perRow.add(new JStmt.Loop(vectorColumn, constant(0), constant(width), constant(k), perVector));
        }
        body.add(new JStmt.Loop(cx.coordinate[0], tileStart[0], tileEnd[0], constant(1), perRow));
        cx.columnsFrom(null);
        return body;
    }

    private static boolean readsRowAbove(IrExpr expr, int field) {
        return expr instanceof IrExpr.Load load ? load.field() == field && load.offset()[0] == -1
                : StripMapping.children(expr).stream().anyMatch(child -> readsRowAbove(child, field));
    }

    /** The k cells of the current row of field {@code f} at {@code offset} from the current vector's columns. */
    private JExpr rowVector(int f, int[] offset) {
        JExpr index = add(cx.rowBase[f], cx.delta(f, offset));
        return new JExpr.VectorLoad(v.species, cx.array[f], vectorColumn == null ? index : add(index, vectorColumn));
    }

    private JExpr read(IrExpr.Load load) {
        if (cx.graph.field(load.field()).isSequence()) {
            return v.sequenceAlongRow(load, vectorColumn == null ? columnFrom : add(columnFrom, vectorColumn));
        }
        if (cx.graph.field(load.field()).isInput()) {
            return rowVector(load.field(), load.offset());
        }
        return load.offset()[1] == 0 ? north : northWest;
    }

    /** Lane l's row (the tile's current row) or column (the current vector's first column plus l). */
    private JExpr indexVector(int dimension) {
        if (dimension == 0) {
            return v.broadcastInt(cx.coordinate[0]);
        }
        return new JExpr.Lanewise(LaneOp.ADD, v.broadcastInt(vectorColumn == null ? columnFrom : add(columnFrom, vectorColumn)), v.laneIndex());
    }
}
