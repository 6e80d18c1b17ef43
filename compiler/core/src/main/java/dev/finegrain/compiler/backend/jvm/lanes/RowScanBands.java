package dev.finegrain.compiler.backend.jvm.lanes;

import dev.finegrain.compiler.backend.jvm.code.JExpr.Binary.Op;
import dev.finegrain.compiler.backend.jvm.code.JExpr.LaneOp;
import dev.finegrain.compiler.backend.jvm.code.JExpr;
import dev.finegrain.compiler.backend.jvm.code.JStmt;
import dev.finegrain.compiler.backend.jvm.code.JType;
import dev.finegrain.compiler.backend.jvm.lowering.LoweringContext;
import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.compiler.ir.KernelGraph;

import dev.finegrain.dsl.BinaryOperator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.add;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.compare;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.constant;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.math;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.mul;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.sub;

/**
 * A row of a band, many vectors wide, for kernels of a {@link WestMaxRecurrence} {@code max(rest, west - gap)}: each
 * vector of k columns computes {@code rest} at once (its north and north-west neighbours and its inputs one load each,
 * from the row above and the row itself) and takes from lane l its distance to the vector's last lane, {@code (k - 1 -
 * l) gap}. The west dependence inside the vector is then a plain max scan over the lanes (log2 k shift-and-max steps,
 * no subtraction). Only then does the vector meet the value west of it, a scalar carried from vector to vector, and
 * add the distances back: {@code cells = max(scan, carry - k gap) + (k - 1 - l) gap}, which is {@code max(rest[m] - (l
 * - m) gap)} over the lanes m up to l and {@code carry - (l + 1) gap}; then {@code carry = max(scan[k - 1], carry - k
 * gap)}. The chain from vector to vector is thus one scalar subtraction and max, not the scan; the row streams its
 * loads and stores in storage order, with no transposes.
 *
 * <p>Exactness. The scan regroups the sequential {@code max(x, y) - gap} as {@code max(x - gap, y - gap)}, equal in
 * int and long arithmetic while nothing wraps. It is safe for a vector whose carry is at least the floor {@code MIN +
 * (2k + 1) gap} (with {@code 0 <= gap <= MAX / (k + 1)}, so the floor does not wrap): the vector first raises every
 * rest term to at least {@code F = MIN + k gap}, so no distance taken (at most {@code (k - 1) gap}) wraps, and the
 * west term {@code carry - k gap} is at least {@code MIN + (k + 1) gap}. A raised term, which reaches lane l as at
 * most {@code F - (l - m) gap <= F}, never exceeds lane l's west term {@code carry - (l + 1) gap >= MIN + (2k - l) gap
 * >= F}, so it changes no maximum. Each lane's maximum before the distance is added back is thus exact, and adding it
 * back gives the lane's value, which the sequential recurrence computes without wrapping too (its west terms are at
 * least the same bound), so the addition does not wrap either. Every value is at least its west neighbour's less the
 * gap, so a row of w vector columns whose west value is at least the floor plus {@code w gap} gives every vector such
 * a carry. The run checks that once per row (in unsigned arithmetic, which holds the difference from the floor
 * exactly); a row that fails runs its cells one by one in the sequential order, as the scalar code would, so the
 * vector loop has no check.
 *
 * <p>Where {@code rest} has the term {@code north - gap} (Needleman-Wunsch and Smith-Waterman do), a row below a row
 * that scanned skips the raise: each value of that row is at least its vector's carry less {@code k gap}, so at least
 * {@code MIN + (k + 1) gap}, and every rest term below it at least F already.
 */
public final class RowScanBands implements BandRows {

    private final LaneVectors v;
    private final LoweringContext cx;
    private final int k;
    private final int field;
    private final WestMaxRecurrence recurrence;
    private final JExpr gap;
    private final JExpr.Local rest;
    private final JExpr.Local cells;
    private final JExpr.Local carry;
    private final JExpr.Local scanLast;
    private final JExpr.Local gapInRange;
    private final JExpr.Local carryFloor;
    private final JExpr.Local restFloor;
    private final JExpr.Local vectorGap;
    private final JExpr.Local westTerm;
    private final JExpr.Local tailGaps;
    /** The band's columns, set by {@link #columns}. */
    private JExpr from;
    private JExpr to;
    private final JExpr.Local scanEnd;
    private final List<JExpr.Local> scanShifts = new ArrayList<>();
    /** Whether the row above scanned, where rest has the term north - gap (else null): its values need no raise then. */
    private final JExpr.Local northScanned;
    private final LaneLookups lookups;

    /** Why the kernel's rows take no row scan, or empty when they take one. */
    public static Optional<String> against(KernelGraph graph) {
        if (graph.kernel().rank() != 2) {
            return Optional.of("a row scan runs the rows of a 2D domain, and this one has " + graph.kernel().rank() + " dimensions");
        }
        return WestMaxRecurrence.rowScanAgainst(graph);
    }

    public RowScanBands(LaneVectors lanes) {
        this.v = lanes;
        this.cx = lanes.cx;
        this.k = lanes.k;
        this.field = WestMaxRecurrence.field(cx.graph);
        this.recurrence = WestMaxRecurrence.of(cx.graph).recurrence().orElseThrow();
        String name = cx.graph.field(field).name();
        rest = cx.local(name + "Rest", v.vector);
        cells = cx.local(name + "Cells", v.vector);
        carry = cx.local(name + "Carry", v.lane);
        scanLast = cx.local(name + "ScanLast", v.lane);
        gapInRange = cx.local("scanGapInRange", JType.BOOLEAN);
        carryFloor = cx.local("carryFloor", v.lane);
        restFloor = cx.local("restFloor", v.vector);
        vectorGap = cx.local("vectorGap", v.lane);
        westTerm = cx.local(name + "WestTerm", v.lane);
        tailGaps = cx.local("tailGaps", v.vector);
        scanEnd = cx.local("scanEnd", JType.INT);
        gap = v.scalar(recurrence.gap());
        northScanned = restHasNorthLessGap() ? cx.local("northScanned", JType.BOOLEAN) : null;
        lookups = new LaneLookups(v, recurrence.rest());
        List<JStmt> prologue = cx.prologue;
        prologue.add(new JStmt.Comment("the row scan is exact while no subtraction wraps: 0 <= gap <= MAX / " + (k + 1)
                + ", and every vector's carry at least MIN + " + (2 * k + 1) + " gap (else the row runs cell by cell)"));
        prologue.add(new JStmt.Assign(gapInRange, v.gapAtMostMaxOver(gap, k + 1)));
        prologue.add(new JStmt.Assign(vectorGap, new JExpr.Binary(Op.MUL, v.laneConstant(k), gap)));
        JExpr minimum = v.laneMinimum();
        prologue.add(new JStmt.Assign(restFloor, new JExpr.Broadcast(v.species, add(minimum, vectorGap))));
        prologue.add(new JStmt.Assign(carryFloor, add(add(add(minimum, vectorGap), vectorGap), gap)));
        if (northScanned != null) {
            prologue.add(new JStmt.Assign(northScanned, JExpr.Const.ofBoolean(false)));
        }
        prologue.add(new JStmt.Assign(tailGaps, v.tailGaps(gap)));
        scanShifts.addAll(v.scanShifts());
    }

    @Override
    public String summary() {
        return summary("a band's row");
    }

    /** The summary line, for the rows of {@code what} ("a band's row", "a tile's row"). */
    String summary(String what) {
        return " Row scan: " + what + " runs in vectors of " + k + " cells; the value is max(terms, west - gap), so a vector"
                + " computes its terms at once from one load per neighbour and input, takes from each lane its gaps to the"
                + " vector's last lane, scans them over its lanes in " + Integer.numberOfTrailingZeros(k) + " shift-and-max steps,"
                + " and then meets the value west of it, carried as a scalar from vector to vector; a row whose west value lies within " + (2 * k + 1) + " gaps and one gap per column"
                + " of the minimum, or every row when the gap is below 0 or above MAX / " + (k + 1) + ", runs cell by cell.";
    }

    /**
     * Where a new run of rows starts whose row above another run wrote (a tile's first row): it may not have scanned,
     * so the first row raises its rest terms.
     */
    public List<JStmt> forgetNorth() {
        return northScanned == null ? List.of() : List.of(new JStmt.Assign(northScanned, JExpr.Const.ofBoolean(false)));
    }

    /**
     * Once per band, before its rows: the band's columns, from {@code from} to {@code to}, and where its whole vectors
     * end. Band blocks put the band's first column on a line, so the vectors start there.
     */
    @Override
    public List<JStmt> columns(JExpr from, JExpr to) {
        this.from = from;
        this.to = to;
        return List.of(new JStmt.Assign(scanEnd, add(from, mul(new JExpr.Binary(Op.DIV, sub(to, from), constant(k)), constant(k)))));
    }

    /**
     * The current row of the band (row bases set): whole vectors while k columns remain, then {@code plain(a, b)}
     * (the scalar points from a to b) for the rest. Every point the row reads west of the band must be final.
     */
    @Override
    public List<JStmt> row(Plain plain) {
        List<JStmt> out = new ArrayList<>();
        JExpr.Local x = cx.coordinate[cx.last];
        List<JStmt> vectors = new ArrayList<>();
        vectors.add(new JStmt.Assign(x, from));
        vectors.add(new JStmt.Assign(carry, cx.value(field, cx.index(field, new int[] {0, -1}))));
        vectors.addAll(lookups.beforeRow(this::read, this::indexVector));
        List<JStmt> scanned = new ArrayList<>();
        if (northScanned == null) {
            scanned.add(vectorLoop(true));
        } else {
            scanned.add(new JStmt.If(northScanned, List.of(vectorLoop(false)), List.of(vectorLoop(true))));
            scanned.add(new JStmt.Assign(northScanned, JExpr.Const.ofBoolean(true)));
        }
        List<JStmt> cellByCell = new ArrayList<>(plain.points(from, scanEnd));
        if (northScanned != null) {
            cellByCell.add(new JStmt.Assign(northScanned, JExpr.Const.ofBoolean(false)));
        }
        // (carry - carryFloor) / columns >= gap, unsigned: the difference of a carry at least the floor fits exactly
        String boxed = v.longLanes() ? "java/lang/Long" : "java/lang/Integer";
        JExpr columns = sub(scanEnd, from);
        JExpr perColumn = new JExpr.InvokeStatic(boxed, "divideUnsigned", List.of(v.lane, v.lane), v.lane,
                List.of(sub(carry, carryFloor), v.longLanes() ? new JExpr.Convert(columns, JType.LONG) : columns));
        JExpr roomForTheRow = compare(Op.GE, new JExpr.InvokeStatic(boxed, "compareUnsigned", List.of(v.lane, v.lane), JType.INT,
                List.of(perColumn, gap)), constant(0));
        vectors.add(new JStmt.Comment("the row scans when no subtraction can wrap: every vector's carry stays at least MIN + "
                + (2 * k + 1) + " gap"));
        vectors.add(new JStmt.If(new JExpr.Binary(Op.AND, new JExpr.Binary(Op.AND, gapInRange, compare(Op.GE, carry, carryFloor)), roomForTheRow),
                scanned, cellByCell));
        out.add(new JStmt.If(compare(Op.LT, from, scanEnd), vectors, List.of()));
        out.addAll(plain.points(scanEnd, to));
        return out;
    }

    /** The row's vectors from the band's first column to scanEnd, their rest terms raised to at least MIN + k gap or not. */
    private JStmt vectorLoop(boolean raise) {
        List<JStmt> vector = new ArrayList<>();
        vector.addAll(lookups.assign(rest, recurrence.rest(), this::read, this::indexVector));
        vector.add(new JStmt.Comment(raise ? "the west dependence: a max-plus scan over the lanes, then the carry"
                : "the row above scanned, so every rest term is at least MIN + " + k + " gap: the scan needs no raise"));
        vector.add(new JStmt.Assign(cells, new JExpr.Lanewise(LaneOp.SUB,
                raise ? new JExpr.Lanewise(LaneOp.MAX, rest, restFloor) : rest, tailGaps)));
        for (JExpr.Local shift : scanShifts) {
            vector.add(new JStmt.Assign(cells, new JExpr.Lanewise(LaneOp.MAX, cells, new JExpr.Rearrange(shift, cells))));
        }
        vector.add(new JStmt.Assign(scanLast, new JExpr.LaneValue(cells, k - 1)));
        vector.add(new JStmt.Assign(westTerm, new JExpr.Binary(Op.SUB, carry, vectorGap)));
        vector.add(new JStmt.Assign(cells, new JExpr.Lanewise(LaneOp.ADD,
                new JExpr.Lanewise(LaneOp.MAX, cells, new JExpr.Broadcast(v.species, westTerm)), tailGaps)));
        vector.add(new JStmt.Assign(carry, math("max", v.lane, scanLast, westTerm)));
        vector.add(new JStmt.VectorStore(cells, cx.array[field], cx.index(field, new int[] {0, 0})));
        return new JStmt.Loop(cx.coordinate[cx.last], from, scanEnd, constant(k), vector);
    }

    /** Whether one of rest's max terms is the north neighbour less the recurrence's own gap. */
    private boolean restHasNorthLessGap() {
        List<IrExpr> terms = new ArrayList<>();
        WestMaxRecurrence.flattenMax(recurrence.rest(), terms);
        return terms.stream().anyMatch(term -> term instanceof IrExpr.Binary sub && sub.operator() == BinaryOperator.SUB
                && sub.left() instanceof IrExpr.Load load && load.field() == field && Arrays.equals(load.offset(), new int[] {-1, 0})
                && sub.right().equals(recurrence.gap()));
    }

    /** The scalar points of the current row from column {@code from} to {@code to}, as the schedule runs them. */
    public interface Plain {
        List<JStmt> points(JExpr from, JExpr to);
    }

    private JExpr read(IrExpr.Load load) {
        if (cx.graph.field(load.field()).isSequence()) {
            return v.sequenceAlongRow(load, cx.absoluteCoordinate(cx.last));
        }
        return new JExpr.VectorLoad(v.species, cx.array[load.field()], cx.index(load.field(), load.offset()));
    }

    /** Lane l's row (the current row) or column (the vector's first column plus l). */
    private JExpr indexVector(int dimension) {
        if (dimension == 0) {
            return v.broadcastInt(cx.coordinate[0]);
        }
        return new JExpr.Lanewise(LaneOp.ADD, v.broadcastInt(cx.coordinate[cx.last]), v.laneIndex());
    }
}
