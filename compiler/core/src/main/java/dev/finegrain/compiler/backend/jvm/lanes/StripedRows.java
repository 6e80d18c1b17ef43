package dev.finegrain.compiler.backend.jvm.lanes;

import dev.finegrain.compiler.backend.jvm.code.JExpr.Binary.Op;
import dev.finegrain.compiler.backend.jvm.code.JExpr.LaneOp;
import dev.finegrain.compiler.backend.jvm.code.JExpr;
import dev.finegrain.compiler.backend.jvm.code.JStmt;
import dev.finegrain.compiler.backend.jvm.code.JType;
import dev.finegrain.compiler.backend.jvm.lowering.LoweringContext;
import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.plan.RingFolding;
import dev.finegrain.dsl.Keep;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.add;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.compare;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.constant;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.mul;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.sub;

/**
 * A band's rows in Farrar's striped layout (Farrar, "Striped Smith-Waterman speeds database searches six times over other
 * SIMD implementations"), for a {@link WestMaxRecurrence} {@code max(rest, west - gap)} whose field is folded, so that
 * storage needs only the band's last column (the next band's west values) and the last row. The band keeps two rows of
 * its own, w = k seg cells each (its width rounded up to whole vectors): column {@code l seg + s} of the band lies in
 * lane l of vector s. Vector s's west neighbours are then vector s - 1's, in the same lanes, so one pass over the
 * vectors computes each cell from the row above (north: the same vector; north-west: the vector before, or for vector
 * 0 the row above's last vector shifted up a lane) and from its west neighbour along the lane, with no scan. Lane l's
 * first west term, lane l - 1's last value, is not known in that pass (it starts below every value); the west terms
 * that cross from lane to lane are then carried round again until a vector changes nothing (at most k passes; on
 * alignments they end after a vector or two). Sequences along the row are laid out striped once per band, and a table
 * lookup whose row is the same in every lane (BLOSUM62's row {@code a[i]} by {@code b[j]}) becomes a query profile:
 * the table's rows for each column of the band, striped once per band, one load per vector.
 *
 * <p>Exactness. The passes compute the maximum over the same terms as the sequential recurrence, plus terms that start
 * at {@code NEG = MIN / 2} (in the lane type) and lose a gap a column. With {@code 0 <= gap <= MAX / (4 (w + 1))} and the
 * row's west value at least {@code NEG + (w + 1) gap}, every true value is at least {@code NEG + gap} (a value is at
 * least its west neighbour's less a gap), above every such term, and no west term {@code value - gap} wraps, as every
 * value computed is at least {@code NEG - w gap > MIN + gap}. A row that fails the check runs cell by cell in storage
 * (the row above written back to it first, the row read into the band's layout after), as the scalar code would.
 * The columns past the band's end (in the last lanes of the last vectors) compute values nothing reads: they lie east of
 * every real column.
 */
public final class StripedRows implements BandRows {

    final LaneVectors v;
    private final LoweringContext cx;
    private final int k;
    private final int field;
    private final WestMaxRecurrence recurrence;
    /** The query profile of the value's one table lookup, or null where it has none. */
    private final StripedProfile profile;
    private final JExpr gap;
    private final JExpr negative;
    private final JExpr.Local segments;
    final JExpr.Local width;
    final JExpr.Local columns;
    private final JExpr.Local above;
    private final JExpr.Local current;
    private final JExpr.Local swap;
    private final JExpr.Local stripedLanes;
    private final JExpr.Local north;
    private final JExpr.Local northWest;
    private final JExpr.Local west;
    private final JExpr.Local cells;
    private final JExpr.Local westValue;
    private final JExpr.Local northWestValue;
    private final JExpr.Local rowFloor;
    private final JExpr.Local gapInRange;
    final JExpr.Local at;
    private final JExpr.Local pass;
    final JExpr.Local column;
    /** A read of a sequence along the row and the band's striped copy of its values. */
    private record Copy(IrExpr.Load read, JExpr.Local values) {}

    /** The band's copies, by the read's name. */
    private final Map<String, Copy> copies = new LinkedHashMap<>();
    JExpr from;
    JExpr to;

    /** Whether the rings fold the recurrence's field, so that storage needs only a band's last column and the last row. */
    public static boolean folds(KernelGraph graph, Optional<RingFolding> rings) {
        return rings.filter(folding -> folding.folds(WestMaxRecurrence.field(graph))).isPresent();
    }

    /** Whether the kernel keeps the recurrence's field in part (its last row, its final value, ...), which rings may fold. */
    public static boolean keptInPart(KernelGraph graph) {
        return graph.kernel().keep(graph.field(WestMaxRecurrence.field(graph)).name()) != Keep.ALL;
    }

    /**
     * Why a band's rows cannot run striped under {@code rings} (spsc-ring's, or none under {@code mechanism}): the kernel
     * must be of the striped shape ({@link #against(KernelGraph)}) and its field folded, its reductions then streamed
     * from the striped rows.
     */
    public static Optional<String> against(KernelGraph graph, Optional<RingFolding> rings, String mechanism) {
        Optional<String> shape = against(graph);
        if (shape.isPresent() || folds(graph, rings)) {
            return shape;
        }
        String name = graph.field(WestMaxRecurrence.field(graph)).name();
        if (rings.isPresent()) {
            String why = rings.get().keptWhole().stream().filter(reason -> reason.startsWith(name + " ")).findFirst()
                    .orElse(name + " is kept whole");
            return Optional.of("a striped row writes storage only at a band's last column, and spsc-ring keeps '" + name
                    + "' whole here (" + why + ")");
        }
        return Optional.of(mechanism + " keeps '" + name + "' whole, and a striped row writes storage only at a band's last"
                + " column; spsc-ring folds it into a ring of rows, which runs striped");
    }

    /**
     * Why the kernel's folded rows cannot run striped, or empty: beyond a row scan's shape ({@link RowScanBands#against}),
     * its rest reads no input over the whole domain (a lane would gather it) and at most one table lookup, which becomes a
     * query profile ({@link StripedProfile#against}).
     */
    public static Optional<String> against(KernelGraph graph) {
        Optional<String> scan = RowScanBands.against(graph);
        if (scan.isPresent()) {
            return scan;
        }
        // lanes along a row take at most one lookup a cell (StripMapping), so the value has at most one
        IrExpr rest = WestMaxRecurrence.of(graph).recurrence().orElseThrow().rest();
        return matrixReadAgainst(graph, rest).or(() -> Optional.ofNullable(LaneLookups.find(rest))
                .flatMap(lookup -> StripedProfile.against(graph, lookup)));
    }

    private static Optional<String> matrixReadAgainst(KernelGraph graph, IrExpr expr) {
        if (expr instanceof IrExpr.Load load && graph.field(load.field()).isInput() && !graph.field(load.field()).isSequence()) {
            return Optional.of("a striped row reads sequences and tables, and '" + graph.field(load.field()).name()
                    + "' spans the domain, which its lanes would gather");
        }
        return StripMapping.children(expr).stream().map(child -> matrixReadAgainst(graph, child)).flatMap(Optional::stream).findFirst();
    }

    public StripedRows(LaneVectors lanes) {
        this.v = lanes;
        this.cx = lanes.cx;
        this.k = lanes.k;
        this.field = WestMaxRecurrence.field(cx.graph);
        this.recurrence = WestMaxRecurrence.of(cx.graph).recurrence().orElseThrow();
        String name = cx.graph.field(field).name();
        JType row = JType.arrayOf(v.lane);
        gap = v.scalar(recurrence.gap());
        negative = v.longLanes() ? JExpr.Const.ofLong(Long.MIN_VALUE / 2) : constant(Integer.MIN_VALUE / 2);
        segments = cx.local("stripeSegments", JType.INT);
        width = cx.local("stripeWidth", JType.INT);
        columns = cx.local("bandColumns", JType.INT);
        above = cx.local(name + "StripedAbove", row);
        current = cx.local(name + "Striped", row);
        swap = cx.local(name + "StripedSwap", row);
        stripedLanes = cx.local("stripedLanes", v.vector);
        north = cx.local(name + "North", v.vector);
        northWest = cx.local(name + "NorthWest", v.vector);
        west = cx.local(name + "WestTerms", v.vector);
        cells = cx.local(name + "Cells", v.vector);
        westValue = cx.local(name + "WestOfBand", v.lane);
        northWestValue = cx.local(name + "NorthWestOfBand", v.lane);
        rowFloor = cx.local("stripedRowFloor", v.lane);
        gapInRange = cx.local("stripedGapInRange", JType.BOOLEAN);
        at = cx.local("stripeAt", JType.INT);
        pass = cx.local("westPass", JType.INT);
        column = cx.local("bandColumn", JType.INT);
        IrExpr.Lookup lookup = LaneLookups.find(recurrence.rest());
        this.profile = lookup == null ? null : new StripedProfile(this, lookup);
        collectCopies(recurrence.rest());
        v.declareShiftUp();
    }

    private void collectCopies(IrExpr expr) {
        if (expr instanceof IrExpr.Load load && cx.graph.field(load.field()).isSequence() && cx.graph.field(load.field()).spans()[1]) {
            copies.computeIfAbsent(v.accessKey(load.field(), load.offset()), name -> new Copy(load, cx.local(name + "Striped",
                    JType.arrayOf(v.lane))));
        }
        StripMapping.children(expr).forEach(this::collectCopies);
    }

    @Override
    public String summary() {
        String name = cx.graph.field(field).name();
        return " Striped rows: spsc-ring folds '" + name + "' (kept as " + cx.graph.kernel().keep(name) + "), so a band keeps its"
                + " rows in " + k + "-lane vectors of its own, in Farrar's striped layout: column l·seg + s of the band in lane l of"
                + " vector s, seg being the band's columns over " + k + ", rounded up. A vector takes its north and north-west"
                + " neighbours" + (profile == null ? "" : " and its score (from a query profile: the table's rows at the band's"
                + " columns, laid out once per band)") + " with one load each and its west term along the lane; the west terms"
                + " that cross from lane to lane are carried round again until a vector changes nothing. Storage gets only each"
                + " row's last column (the next band's west values) and the last row. A row runs cell by cell where a west term"
                + " could wrap: a gap below 0 or above MAX / (4 (w + 1)), or a west value within (w + 1) gaps of MIN / 2, w being"
                + " seg·" + k + ".";
    }

    /** Where column {@code c} of the band (from 0) lies in its striped rows: lane c / seg of vector c % seg. */
    JExpr striped(JExpr c) {
        return add(mul(new JExpr.Binary(Op.REM, c, segments), constant(k)), new JExpr.Binary(Op.DIV, c, segments));
    }

    /** Once per band: its layout, its striped sequences and profile, and the row above its first (row -1, from storage). */
    @Override
    public List<JStmt> columns(JExpr from, JExpr to) {
        this.from = from;
        this.to = to;
        JExpr.Local x = cx.coordinate[cx.last];
        List<JStmt> band = new ArrayList<>();
        band.add(new JStmt.Assign(columns, sub(to, from)));
        band.add(new JStmt.Assign(segments, LoweringContext.math("ceilDiv", JType.INT, columns, constant(k))));
        band.add(new JStmt.Assign(width, mul(segments, constant(k))));
        band.add(new JStmt.Assign(above, new JExpr.NewArrayOfLength(v.lane, width)));
        band.add(new JStmt.Assign(current, new JExpr.NewArrayOfLength(v.lane, width)));
        band.add(new JStmt.Assign(stripedLanes, new JExpr.Lanewise(LaneOp.MUL, v.laneIndex(), v.broadcastInt(segments))));
        JExpr widthInLanes = v.longLanes() ? new JExpr.Convert(add(width, constant(1)), JType.LONG) : add(width, constant(1));
        JExpr most = v.longLanes() ? JExpr.Const.ofLong(Long.MAX_VALUE / 4) : constant(Integer.MAX_VALUE / 4);
        band.add(new JStmt.Comment("exact while 0 <= gap <= MAX / (4 (w + 1)) and a row's west value is at least MIN / 2 + (w + 1) gap"));
        band.add(new JStmt.Assign(gapInRange, new JExpr.Binary(Op.AND, compare(Op.GE, gap, v.laneConstant(0)),
                compare(Op.LE, gap, new JExpr.Binary(Op.DIV, most, widthInLanes)))));
        band.add(new JStmt.Assign(rowFloor, new JExpr.Conditional(gapInRange, add(negative, new JExpr.Binary(Op.MUL, widthInLanes, gap)), negative)));
        // the row above the first: row -1 of storage (its boundary), in the ring slots of row 0's bases
        band.add(new JStmt.Assign(cx.coordinate[0], constant(0)));
        band.addAll(cx.rowBases());
        band.add(new JStmt.Comment("the row above the band's first row, striped (each row starts by making the last one the row above)"));
        band.add(overColumns(new JStmt.Store(current, striped(column), cx.value(field, cx.index(field, new int[] {-1, 0})))));
        band.add(new JStmt.Assign(x, from));
        band.add(new JStmt.Assign(northWestValue, v.laneConstant(0)));
        band.add(new JStmt.If(compare(Op.LT, from, to), List.of(
                new JStmt.Assign(northWestValue, cx.value(field, cx.index(field, new int[] {-1, -1})))), List.of()));
        for (Copy copy : copies.values()) {
            band.addAll(stripe(copy.read(), copy.values()));
        }
        if (profile != null) {
            band.addAll(profile.build());
        }
        // a band with no columns (more workers than columns) sets its locals all the same, and its loops run no step
        return band;
    }

    /**
     * The read's values at the band's columns, striped; the columns past the band's end repeat its last one, so that
     * whatever their lanes compute from them stays inside every table.
     */
    private List<JStmt> stripe(IrExpr.Load read, JExpr.Local copy) {
        IrField sequence = cx.graph.field(read.field());
        JExpr.Local x = cx.coordinate[cx.last];
        List<JStmt> out = new ArrayList<>();
        out.add(new JStmt.Assign(copy, new JExpr.NewArrayOfLength(v.lane, width)));
        List<JStmt> perColumn = new ArrayList<>();
        JExpr clamped = add(from, LoweringContext.math("min", JType.INT, column, sub(columns, constant(1))));
        JExpr value = cx.value(sequence.id(), add(clamped, constant(sequence.haloLow()[1] + read.offset()[1])));
        perColumn.add(new JStmt.Store(copy, striped(column), value.type().equals(v.lane) ? value : new JExpr.Convert(value, v.lane)));
        out.add(new JStmt.Comment("'" + sequence.name() + "' at the band's columns, striped"));
        out.add(new JStmt.Loop(column, constant(0), width, constant(1), perColumn));
        out.add(new JStmt.Assign(x, from));
        return out;
    }

    @Override
    public List<JStmt> row(RowScanBands.Plain plain) {
        JExpr.Local x = cx.coordinate[cx.last];
        List<JStmt> row = new ArrayList<>();
        row.add(new JStmt.Assign(swap, above));
        row.add(new JStmt.Assign(above, current));
        row.add(new JStmt.Assign(current, swap));
        row.add(new JStmt.Assign(x, from));
        row.add(new JStmt.Assign(westValue, cx.value(field, cx.index(field, new int[] {0, -1}))));
        List<JStmt> vectors = new ArrayList<>();
        if (profile != null) {
            vectors.addAll(profile.row());
        }
        vectors.addAll(firstPass());
        vectors.addAll(westPasses());
        row.add(new JStmt.Comment("the row in lanes while no west term can wrap, else cell by cell"));
        row.add(new JStmt.If(new JExpr.Binary(Op.AND, gapInRange, compare(Op.GE, westValue, rowFloor)), vectors, cellByCell(plain)));
        row.add(new JStmt.Assign(northWestValue, westValue));
        row.add(new JStmt.Comment("the band's last column into storage, where the band to the east reads its west values"));
        row.add(new JStmt.Assign(x, sub(to, constant(1))));
        row.add(new JStmt.Store(cx.array[field], cx.index(field, new int[] {0, 0}), new JExpr.ArrayLoad(current, striped(sub(columns, constant(1))))));
        row.add(new JStmt.If(compare(Op.EQ, cx.coordinate[0], sub(cx.size[0], constant(1))), unstripe(current, 0), List.of()));
        return List.of(new JStmt.If(compare(Op.LT, from, to), row, List.of()));
    }

    /**
     * Where the band's current row lies once {@link #row} has run, until the next row: column c of the band's {@code
     * columns} at {@code values[(c % segments) k + c / segments]}.
     */
    public record Layout(int field, JExpr.Local values, int lanes, JExpr.Local segments, JExpr.Local columns) {}

    public Layout layout() {
        return new Layout(field, current, k, segments, columns);
    }

    /** Every vector from the row above and its west term along the lane; lane 0's first west term is the band's west value. */
    private List<JStmt> firstPass() {
        List<JStmt> out = new ArrayList<>();
        out.add(new JStmt.Assign(northWest, v.shiftedUp(new JExpr.VectorLoad(v.species, above, mul(sub(segments, constant(1)), constant(k))),
                northWestValue)));
        out.add(new JStmt.Assign(west, v.shiftedUp(new JExpr.Broadcast(v.species, negative), sub(westValue, gap))));
        List<JStmt> vector = new ArrayList<>();
        vector.add(new JStmt.Assign(north, new JExpr.VectorLoad(v.species, above, at)));
        JExpr rest = LaneExpressions.lower(recurrence.rest(), this::read, this::indexVector, v::uniform,
                l -> profile.vector());
        vector.add(new JStmt.Assign(cells, new JExpr.Lanewise(LaneOp.MAX, rest, west)));
        vector.add(new JStmt.VectorStore(cells, current, at));
        vector.add(new JStmt.Assign(west, new JExpr.Lanewise(LaneOp.SUB, cells, v.uniform(recurrence.gap()))));
        vector.add(new JStmt.Assign(northWest, north));
        out.add(new JStmt.Loop(at, constant(0), width, constant(k), vector));
        return out;
    }

    /**
     * Each lane's last west term carried into the next lane's first vector and on along the row, pass after pass, until
     * a vector where no lane's carried term beats its value: from there on the row is what the last pass left.
     */
    private List<JStmt> westPasses() {
        List<JStmt> vector = new ArrayList<>();
        vector.add(new JStmt.Assign(cells, new JExpr.VectorLoad(v.species, current, at)));
        List<JStmt> raise = List.of(
                new JStmt.Assign(cells, new JExpr.Lanewise(LaneOp.MAX, cells, west)),
                new JStmt.VectorStore(cells, current, at),
                new JStmt.Assign(west, new JExpr.Lanewise(LaneOp.SUB, cells, v.uniform(recurrence.gap()))));
        List<JStmt> done = List.of(new JStmt.Assign(at, width), new JStmt.Assign(pass, constant(k)));
        vector.add(new JStmt.If(new JExpr.InvokeVirtual(new JExpr.LaneCompare(Op.GT, west, cells), "anyTrue", List.of(), JType.BOOLEAN,
                List.of()), raise, done));
        List<JStmt> onePass = new ArrayList<>();
        onePass.add(new JStmt.Assign(west, v.shiftedUp(west, negative)));
        onePass.add(new JStmt.Loop(at, constant(0), width, constant(k), vector));
        return List.of(new JStmt.Comment("the west terms that cross from lane to lane, carried round until a vector keeps its values"),
                new JStmt.Loop(pass, constant(0), constant(k), constant(1), onePass));
    }

    /**
     * A row the lanes cannot take: the row above written back to storage, the row run by the scalar points, and read
     * into the band's layout.
     */
    private List<JStmt> cellByCell(RowScanBands.Plain plain) {
        List<JStmt> out = new ArrayList<>(unstripe(above, -1));
        out.addAll(plain.points(from, to));
        out.add(overColumns(new JStmt.Store(current, striped(column), cx.value(field, cx.index(field, new int[] {0, 0})))));
        return out;
    }

    /** The band's cells of the striped row {@code row} into storage's row {@code dy} from the current one. */
    private List<JStmt> unstripe(JExpr.Local row, int dy) {
        return List.of(overColumns(new JStmt.Store(cx.array[field], cx.index(field, new int[] {dy, 0}),
                new JExpr.ArrayLoad(row, striped(column)))));
    }

    /** {@code perColumn} at each of the band's columns in storage, {@code column} counting them from 0. */
    private JStmt overColumns(JStmt perColumn) {
        JExpr.Local x = cx.coordinate[cx.last];
        return new JStmt.Loop(x, from, to, constant(1), List.of(new JStmt.Assign(column, sub(x, from)), perColumn));
    }

    /** A read in lanes: the north and north-west vectors, a striped sequence along the row, or a sequence along the rows. */
    JExpr read(IrExpr.Load load) {
        IrField read = cx.graph.field(load.field());
        if (load.field() == field) {
            return load.offset()[1] == 0 ? north : northWest;
        }
        if (read.spans()[1]) {
            return new JExpr.VectorLoad(v.species, copies.get(v.accessKey(load.field(), load.offset())).values(), at);
        }
        return v.sequenceAlongRow(load, cx.absoluteCoordinate(cx.last));
    }

    /** The row in every lane, or each lane's column: the band's first column plus l seg + s. */
    JExpr indexVector(int dimension) {
        if (dimension == 0) {
            return v.broadcastInt(cx.coordinate[0]);
        }
        return new JExpr.Lanewise(LaneOp.ADD, v.broadcastInt(add(from, new JExpr.Binary(Op.DIV, at, constant(k)))), stripedLanes);
    }
}
