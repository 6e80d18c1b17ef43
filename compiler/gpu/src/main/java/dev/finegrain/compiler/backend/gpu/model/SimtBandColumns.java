package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.gpu.BandMapping;
import dev.finegrain.compiler.backend.gpu.BandMapping.BandEdge;
import dev.finegrain.compiler.backend.gpu.BandMapping.BandRead;
import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A band step's columns ({@link SimtBandStep}): my point in each of my columns, left to right, every actor of a column
 * before the next, its value stored into the output ring or, for a folded field, where the kept box holds it and into
 * the running reductions ({@link SimtBandFolding}), and published on the band's edge where the column is one of the
 * band's last. Where a lane owns several columns, what each column can compute before the one to its left has (its
 * lookups, then all that does not read this step's values) is issued for every column first, as nvcc schedules it.
 */
final class SimtBandColumns {

    private static final int WARP = GpuTarget.WARP;

    private final SimtBandContext cx;
    private final SimtAssembler asm;
    private final BandMapping mapping;
    private final KernelGraph graph;
    private final GlobalLayout layout;
    private final BandEdge edge;
    private final boolean steady;
    /** A guarded step: every column computes, as in a steady one, and P6 ("my row is in the domain") holds what leaves the lane. */
    private final boolean guarded;
    private final SimtBandInputs inputs;
    private final SimtBandFolding folding;
    private final int lanes;
    /** The step's sequences along the rows held a step ahead ({@link SimtBandStep}), by field. */
    private final Map<IrField, String> rowAhead;
    /** My point's byte offset in 4-byte fields at this step. */
    private final String point;
    /** The steady loop's hoisted "I publish the edge" predicates, by first edge lane; empty where tested per step. */
    private final Map<Integer, String> publishesEdge;
    /** Whether the steady loop's lane tests were made before it. */
    private final boolean hoisted;

    SimtBandColumns(SimtBandContext cx, boolean steady, boolean guarded, SimtBandInputs inputs, SimtBandFolding folding, Map<IrField, String> rowAhead,
                    String point, Map<Integer, String> publishesEdge, boolean hoisted) {
        this.guarded = guarded;
        this.cx = cx;
        this.asm = cx.asm;
        this.mapping = cx.mapping;
        this.graph = mapping.graph();
        this.layout = cx.layout;
        this.edge = mapping.edge();
        this.steady = steady;
        this.inputs = inputs;
        this.folding = folding;
        this.lanes = mapping.laneColumns();
        this.rowAhead = rowAhead;
        this.point = point;
        this.publishesEdge = publishesEdge;
        this.hoisted = hoisted;
    }

    /**
     * Past this many registers in use after a column of a lane of several columns, the column's temporaries are freed for
     * the next (the model ISA has 255; a column's expressions take a few dozen).
     */
    private static final int REGISTERS_RUNNING_SHORT = 160;

    /**
     * My columns, left to right, every actor of a column before the next column. In a chunk that is not steady, where a
     * lane owns several columns and the last band is narrower, a column right of the domain ends the lane's columns
     * (every column after it lies further right): the lane jumps to {@code joined}. Returns, per column, the values the
     * history moves on from.
     */
    List<Map<IrField, String>> computeColumns(String i, List<Map<BandRead, String>> resolved, Map<List<Integer>, String> staged,
                                                      String joined) {
        List<Map<IrField, String>> values = new ArrayList<>();
        StepAddresses addresses = new StepAddresses();
        Map<dev.finegrain.compiler.ir.IrExpr.Lookup, String> checkedRows = new java.util.IdentityHashMap<>();
        if (lanes == 1 && guarded && mapping.rowLookupsReadTheRow()) {
            checkRowsOnce(i, checkedRows);   // at my row clamped into the domain, which a guarded step's row may lie outside
        }
        if (lanes > 1) {
            // what the columns share is made before them, as each column's own registers are freed after it
            checkRowsOnce(i, checkedRows);
            if (layout.hasWideFields()) {
                addresses.wide = asm.register();
                asm.emit("IADD " + addresses.wide + ", " + point + ", " + point);
            }
            for (BandMapping.Ring ring : mapping.outputRings()) {
                addresses.ringSlots.put(ring.field(), cx.ringSlot(ring, i));
            }
        }
        // where a lane owns several columns, what reads no state (a lookup in a query profile, an input's arithmetic) is
        // issued for every column before any column computes, as nvcc schedules the columns' loads together; one column
        // at a time would wait for each column's loads in turn
        List<ColumnExpressions> early = new ArrayList<>();
        if (lanes > 1 && (steady || guarded)) {
            for (int c = 0; c < lanes; c++) {
                early.add(columnExpressions(c, i, addresses, resolved.get(c), staged, checkedRows));
            }
            // first every column's loads of what no state decides (its lookups), then what this step's own columns do
            // not decide, column by column
            for (int c = 0; c < lanes; c++) {
                for (int actorId : graph.actorOrder()) {
                    early.get(c).expressions().precomputeAvailable(graph.actor(actorId).body(), load -> graph.field(load.field()).isState());
                }
            }
            for (int c = 0; c < lanes; c++) {
                int myColumn = c;
                for (int actorId : graph.actorOrder()) {
                    // pending: a value this step computes, in this column (an earlier actor) or one of mine to its left
                    early.get(c).expressions().precomputeAvailable(graph.actor(actorId).body(), load -> graph.field(load.field()).isState()
                            && load.offset()[0] == 0 && -load.offset()[1] <= myColumn);
                }
            }
        }
        for (int c = 0; c < lanes; c++) {
            if (!steady && lanes > 1 && mapping.raggedBand().checksEachColumn()) {
                asm.emit("ISETP.GE.AND P0, PT, " + cx.columns[c] + ", " + SimtAssembler.immediate(mapping.columns()) + ", PT");
                asm.emit("P0", "BRA " + joined + "   // this column and those right of it lie outside the domain");
            }
            for (BandRead read : mapping.reads()) {
                if (read.rowsBack() == 0 && read.columnsBack() > 0 && read.columnsBack() <= c) {
                    // computed earlier in this step, by my column to the left
                    resolved.get(c).put(read, values.get(c - read.columnsBack()).get(read.field()));
                }
            }
            int columnRegisters = asm.mark();
            Map<IrField, String> computed = early.isEmpty() ? compute(c, i, addresses, resolved.get(c), staged, checkedRows)
                    : compute(c, i, addresses, early.get(c));
            if (lanes > 1 && asm.mark() > REGISTERS_RUNNING_SHORT) {
                // registers run short: the column's values into its own registers, so that its temporaries are free for
                // the next column (a copy a register allocator makes only then: below it the values stay where computed)
                for (Map.Entry<IrField, String> value : computed.entrySet()) {
                    String own = cx.own.get(value.getKey())[c];
                    if (!value.getValue().equals(own)) {
                        asm.emit("MOV" + SimtAssembler.width(value.getKey().type()) + " " + own + ", " + value.getValue());
                        value.setValue(own);
                    }
                }
                asm.release(columnRegisters);
            }
            values.add(computed);
        }
        return values;
    }

    /**
     * Where a lane owns several columns: each profiled lookup's other index that is the same in all of them, lowered and
     * checked once a step before the columns, as CUDA's step checks it, at the row clamped into the domain in a step that
     * is not steady (the lane's row may lie outside; the clamped row is one every band checks anyway; the sequences'
     * registers hold theirs at it, and an index that reads the row itself clamps it here).
     */
    private void checkRowsOnce(String i, Map<dev.finegrain.compiler.ir.IrExpr.Lookup, String> checkedRows) {
        List<dev.finegrain.compiler.ir.IrExpr.Lookup> lookups = mapping.rowLookups();
        if (lookups.isEmpty()) {
            return;
        }
        String row = i;
        if (!steady && mapping.rowLookupsReadTheRow()) {
            row = asm.register();
            cx.clampRow(row, i, true);
        }
        SimtExpressions expressions = new SimtExpressions(asm, inputs.operands(0, rowAhead, checkedRows, new PointOperands(
                new String[] {row, cx.column}, cx.params, new HashMap<>(), load -> {
                    throw new IllegalStateException("a row's profiled index reads only sequences along the rows: " + load);
                })), cx.one, layout, mapping.target());
        for (dev.finegrain.compiler.ir.IrExpr.Lookup lookup : lookups) {
            checkedRows.computeIfAbsent(lookup, unused -> expressions.tables().checkedIndex(lookup, inputs.otherAxis(lookup)));
        }
    }

    /** What a step's columns share of their addresses: the 8-byte point offset and each ring's slot at my row, made once. */
    private static final class StepAddresses {
        String wide;
        final Map<IrField, String> ringSlots = new HashMap<>();
    }

    /**
     * My point in column {@code c}: its actors, the ring and edge stores, my value for the lanes to my right and below.
     * Returns the values the history moves on from: per field with a history, the computed value where a steady step
     * takes it as it is, else the lane's own copy.
     */
    private Map<IrField, String> compute(int c, String i, StepAddresses addresses, Map<BandRead, String> resolved,
                                         Map<List<Integer>, String> staged, Map<dev.finegrain.compiler.ir.IrExpr.Lookup, String> checkedRows) {
        return compute(c, i, addresses, columnExpressions(c, i, addresses, resolved, staged, checkedRows));
    }

    /** A column's expressions, the values its actors produced, and its point's address in global memory. */
    private record ColumnExpressions(SimtExpressions expressions, Map<Integer, String> produced, SimtFieldAddress global) {}

    /**
     * My column {@code c}'s expressions: a state field read from {@code resolved} (filled before any actor is lowered),
     * an input from its ring or global memory, a sequence or a table as {@link SimtBandInputs} keeps it.
     */
    private ColumnExpressions columnExpressions(int c, String i, StepAddresses addresses, Map<BandRead, String> resolved,
                                                Map<List<Integer>, String> staged,
                                                Map<dev.finegrain.compiler.ir.IrExpr.Lookup, String> checkedRows) {
        String j = cx.columns[c];
        String g = point;
        if (layout.hasWideFields() && addresses.wide == null) {
            addresses.wide = asm.register();
            asm.emit("IADD " + addresses.wide + ", " + g + ", " + g);
        }
        SimtFieldAddress global = new SimtFieldAddress(layout, g, addresses.wide).right(c);
        Map<Integer, String> produced = new HashMap<>();
        SimtExpressions expressions = new SimtExpressions(asm, inputs.operands(c, rowAhead, checkedRows, new PointOperands(new String[] {i, j},
                cx.params, produced, load -> {
                    IrField field = graph.field(load.field());
                    if (field.isState()) {
                        return resolved.get(new BandRead(field, -load.offset()[0], -load.offset()[1]));
                    }
                    if (mapping.staged(field)) {
                        return staged.get(List.of(field.id(), load.offset()[0], c));
                    }
                    String value = asm.register(field.type());
                    asm.emit("LDG" + SimtAssembler.width(field.type()) + " " + value + ", "
                            + global.at(load.field(), layout.fieldByte(load.field()) + layout.byteOffset(load.field(), load.offset())));
                    return value;
                })), cx.one, layout, mapping.target());
        return new ColumnExpressions(expressions, produced, global);
    }

    /** My point in column {@code c}, lowered with {@code column}'s expressions. */
    private Map<IrField, String> compute(int c, String i, StepAddresses addresses, ColumnExpressions column) {
        Map<IrField, String> values = new HashMap<>();
        String j = cx.columns[c];
        SimtExpressions expressions = column.expressions();
        Map<Integer, String> produced = column.produced();
        SimtFieldAddress global = column.global();
        expressions.lowerActors(graph, produced, (actor, value) -> {
            IrField field = graph.field(actor.writes());
            String width = SimtAssembler.width(field.type());
            if (folding.folds(field)) {
                folding.store(field, c, i, j, value, global.at(field.id(), layout.fieldByte(field.id())), steady || guarded, guarded ? "P6" : null);
            } else {
                BandMapping.Ring ring = mapping.outputRings().stream().filter(r -> r.field().equals(field)).findFirst().orElseThrow();
                String slot = addresses.ringSlots.computeIfAbsent(field, unused -> cx.ringSlot(ring, i));
                asm.emit("STS" + width + " " + SimtAssembler.address(slot, (long) c * GpuTarget.elementBytes(field.type())) + ", " + value
                        + "   // into my ring");
            }
            // a column no lane has on the edge publishes nothing (nvcc folds the test: a lane is below 32)
            if (edge.crossed() && edge.fields().contains(field) && cx.firstEdgeLane(c) < WARP) {
                publishEdge(field, c, i, value, "STG" + width + " " + global.at(field.id(), layout.fieldByte(field.id())) + ", "
                        + value + "   // the edge, which the band to the right reads after the token");
            }
            if (cx.own.get(field) == null) {
                return;
            }
            if (hoisted && !isHistory(value)) {
                values.put(field, value);
            } else {
                asm.emit("MOV" + width + " " + cx.own.get(field)[c] + ", " + value);
                values.put(field, cx.own.get(field)[c]);
            }
        });
        return values;
    }

    /**
     * My column {@code c}'s edge value for the band to the right, where the column is one of the band's last: under the
     * steady loop's hoisted test by predicated instructions, else tested here, a token word's edge by a predicated
     * {@code store}, a ready word behind a branch.
     */
    private void publishEdge(IrField field, int c, String i, String value, String store) {
        int firstEdgeLane = cx.firstEdgeLane(c);
        cx.publishing = c;
        String hoistedTest = publishesEdge.get(firstEdgeLane);
        if (hoistedTest != null) {
            if (edge.readyWords()) {
                asm.guarded(hoistedTest, () -> cx.sync.bandPublishValue(cx, field, i, value));
            } else {
                asm.emit(hoistedTest, store);
            }
            return;
        }
        asm.emit("ISETP.GE.AND P0, PT, " + cx.lane + ", " + SimtAssembler.immediate(firstEdgeLane) + ", " + (guarded ? "P6" : "PT")
                + "   // on the edge" + (guarded ? ", my row in the domain" : ""));
        if (!edge.readyWords()) {
            if (mapping.raggedBand().runsAsFull()) {
                // the last band's edge columns may lie right of the domain, and no band reads its edge
                asm.emit("ISETP.LT.AND P0, PT, " + cx.band + ", " + SimtAssembler.immediate(mapping.bands() - 1) + ", P0");
            }
            asm.emit("P0", store);
            return;
        }
        asm.emit("ISETP.LT.AND P0, PT, " + cx.band + ", " + SimtAssembler.immediate(mapping.bands() - 1) + ", P0");
        String skip = asm.label("published");
        asm.emit("!P0", "BRA " + skip);
        cx.sync.bandPublishValue(cx, field, i, value);
        asm.place(skip);
    }

    /** Whether {@code register} holds a value of some field's history, which moving the history on overwrites. */
    private boolean isHistory(String register) {
        return cx.history.values().stream().flatMap(Arrays::stream).flatMap(Arrays::stream).anyMatch(register::equals);
    }

}
