package dev.finegrain.compiler.backend.jvm.lanes;

import dev.finegrain.compiler.backend.jvm.code.JExpr;
import dev.finegrain.compiler.backend.jvm.code.JStmt;
import dev.finegrain.compiler.backend.jvm.code.JType;
import dev.finegrain.compiler.backend.jvm.lowering.LoweringContext;
import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.TableSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.add;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.constant;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.mul;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.sub;

/**
 * A striped row's query profile (Farrar's, for {@link StripedRows}): a table lookup whose row is the same in every lane
 * and whose element each lane's column picks (BLOSUM62's row {@code a[i]} by {@code b[j]}) is laid out once per band as
 * every row of the table at the band's columns, striped; a row then reads its scores with one vector load a vector, from
 * the table row its own indices pick.
 */
final class StripedProfile {

    /** The most rows of a table's query profile: each takes a band's width of the field's values. */
    static final int MOST_ROWS = 256;

    private final StripedRows rows;
    private final LaneVectors v;
    private final LoweringContext cx;
    private final IrExpr.Lookup lookup;
    private final TableSpec table;
    private final JExpr.Local profile;
    private final JExpr.Local base;
    private final JExpr.Local columnIndex;
    private final JExpr.Local key;

    /**
     * Why the lookup cannot become a query profile, or empty: every index but the last must read no column and the last
     * no row, over a table of at most {@value #MOST_ROWS} rows of the field's type.
     */
    static Optional<String> against(KernelGraph graph, IrExpr.Lookup lookup) {
        TableSpec table = graph.kernel().tables().get(lookup.table());
        int last = lookup.indices().size() - 1;
        if (lookup.indices().subList(0, last).stream().anyMatch(index -> reads(graph, index, 1))
                || reads(graph, lookup.indices().get(last), 0)) {
            return Optional.of("a striped row's query profile takes a row of table '" + table.name() + "' from the row's indices"
                    + " and the element from the column's, and this lookup's indices mix them");
        }
        if (rowsOf(table) > MOST_ROWS) {
            return Optional.of("a striped row's query profile holds a band's width per row of table '" + table.name()
                    + "', at most " + MOST_ROWS + " rows, and it has " + rowsOf(table));
        }
        if (lookup.type() != graph.field(WestMaxRecurrence.field(graph)).type()) {
            return Optional.of("a striped row's query profile holds the field's type, and table '" + table.name() + "' is " + lookup.type());
        }
        return Optional.empty();
    }

    /** Whether the expression depends on dimension {@code dimension}: its index, a field spanning it, or state. */
    private static boolean reads(KernelGraph graph, IrExpr expr, int dimension) {
        return switch (expr) {
            case IrExpr.IndexVar index -> index.dimension() == dimension;
            case IrExpr.Load load -> graph.field(load.field()).isState() || graph.field(load.field()).spans()[dimension];
            default -> StripMapping.children(expr).stream().anyMatch(child -> reads(graph, child, dimension));
        };
    }

    /** The table's rows: the product of every extent but the last. */
    private static long rowsOf(TableSpec table) {
        long rows = 1;
        for (int axis = 0; axis < table.extents().size() - 1; axis++) {
            rows *= table.extents().get(axis);
        }
        return rows;
    }

    StripedProfile(StripedRows rows, IrExpr.Lookup lookup) {
        this.rows = rows;
        this.v = rows.v;
        this.cx = rows.v.cx;
        this.lookup = lookup;
        this.table = cx.graph.kernel().tables().get(lookup.table());
        profile = cx.local(table.name() + "Profile", JType.arrayOf(v.lane));
        base = cx.local("profileBase", JType.INT);
        columnIndex = cx.local("profileColumnIndex", JType.arrayOf(JType.INT));
        key = cx.local("profileRow", JType.INT);
    }

    /**
     * Once per band: for every row of the table, the elements the band's columns look up, striped. The first row's table
     * row is checked first and the columns' indices then column by column in order, as the scalar code checks its first
     * row's points, each index in axis order (the first outside stops the run); the indices are computed in lanes and
     * gathered row by row, the columns past the band's end taking its last column's.
     */
    List<JStmt> build() {
        int last = table.extents().size() - 1;
        int extent = table.extents().get(last);
        long tableRows = rowsOf(table);
        JExpr width = rows.width;
        JExpr at = rows.at;
        JExpr.Local column = rows.column;
        List<JStmt> out = new ArrayList<>();
        out.add(new JStmt.Comment("table '" + table.name() + "': its query profile, its " + tableRows + " rows at the band's columns, striped"));
        out.add(new JStmt.If(LoweringContext.compare(dev.finegrain.compiler.backend.jvm.code.JExpr.Binary.Op.LT, rows.from, rows.to), row(),
                List.of()));
        out.add(new JStmt.Assign(columnIndex, new JExpr.NewArrayOfLength(JType.INT, width)));
        JExpr index = LaneExpressions.lower(lookup.indices().get(last), rows::read, rows::indexVector, v::uniform);
        out.add(new JStmt.Loop(rows.at, constant(0), width, constant(v.k), List.of(new JStmt.VectorStore(index, columnIndex, at))));
        out.add(new JStmt.Loop(column, constant(0), rows.columns, constant(1), List.of(new JStmt.Evaluate(LoweringContext.runtime(
                "TableIndex", "check", JType.INT, List.of(JType.INT, JType.INT, JType.INT, JType.INT),
                new JExpr.ArrayLoad(columnIndex, rows.striped(column)), constant(extent), constant(lookup.table()), constant(last))))));
        out.add(new JStmt.Loop(column, rows.columns, width, constant(1), List.of(new JStmt.Store(columnIndex, rows.striped(column),
                new JExpr.ArrayLoad(columnIndex, rows.striped(sub(rows.columns, constant(1))))))));
        // multiplyExact: a band too wide for one array of its profile stops the run rather than wrapping
        out.add(new JStmt.Assign(profile, new JExpr.NewArrayOfLength(v.lane, LoweringContext.math("multiplyExact", JType.INT,
                constant((int) tableRows), width))));
        out.add(new JStmt.Loop(key, constant(0), constant((int) tableRows), constant(1), List.of(new JStmt.Loop(rows.at, constant(0), width,
                constant(v.k), List.of(new JStmt.VectorStore(new JExpr.VectorGather(v.species, cx.table[lookup.table()],
                        mul(key, constant(extent)), columnIndex, at), profile, add(mul(key, width), at)))))));
        out.add(new JStmt.Assign(cx.coordinate[cx.last], rows.from));
        return out;
    }

    /** Before a row's vectors: the profile's row it reads, from the lookup's indices but the last, checked as its first point checks them. */
    List<JStmt> row() {
        int last = table.extents().size() - 1;
        JExpr row = constant(0);
        for (int axis = 0; axis < last; axis++) {
            JExpr index = LaneExpressions.lower(lookup.indices().get(axis), rows::read, rows::indexVector, v::uniform);
            JExpr checked = LoweringContext.runtime("TableIndex", "check", JType.INT, List.of(JType.INT, JType.INT, JType.INT, JType.INT),
                    new JExpr.LaneValue(index, 0), constant(table.extents().get(axis)), constant(lookup.table()), constant(axis));
            row = axis == 0 ? checked : add(mul(row, constant(table.extents().get(axis))), checked);
        }
        return List.of(new JStmt.Assign(base, mul(row, rows.width)));
    }

    /** The lookup's values for the vector at the row's current offset. */
    JExpr vector() {
        return new JExpr.VectorLoad(v.species, profile, add(base, rows.at));
    }
}
