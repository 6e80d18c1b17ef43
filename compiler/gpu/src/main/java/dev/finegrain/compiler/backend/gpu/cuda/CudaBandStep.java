package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.gpu.BandFolding;
import dev.finegrain.compiler.backend.gpu.BandMapping;
import dev.finegrain.compiler.backend.gpu.BandMapping.BandEdge;
import dev.finegrain.compiler.backend.gpu.BandMapping.BandRead;
import dev.finegrain.compiler.backend.gpu.LaneProfile;
import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Spells one step of a persistent band ({@link CudaBands}): every lane shuffles in what its reads need from the lanes
 * to its left, resolves each read (its own registers, a shuffled value or the edge window), and computes its columns
 * left to right where its row is in the domain, storing each value in the output ring and publishing what the band to
 * the right waits for.
 */
final class CudaBandStep {

    private static final String FULL = "0xffffffffu";
    /** A guarded step's test of the lane's row, made once a step. */
    private static final String INSIDE = "inside";
    private static final int WARP = GpuTarget.WARP;

    private final BandMapping mapping;
    private final KernelGraph graph;
    private final CudaFields fields;
    private final CudaWriter out;
    private final CudaSync sync;
    private final CudaBandContext cx;
    private final CudaRowAhead rowAhead;
    private final BandEdge edge;
    /** Columns per lane; at 1 the names and indices are the one-column forms. */
    private final int lanes;
    private final int width;
    /** The profiled lookups whose row is the same in all of a lane's columns, in the actors' order ({@link #profileRows}). */
    private final List<IrExpr.Lookup> rowLookups;
    private final CudaBandHaloRow haloRow;
    private final CudaBandFoldedStores foldedStores;

    CudaBandStep(CudaBandContext cx, CudaFields fields, CudaSync sync, CudaRowAhead rowAhead) {
        this.cx = cx;
        this.mapping = cx.mapping;
        this.graph = mapping.graph();
        this.fields = fields;
        this.out = cx.out;
        this.sync = sync;
        this.rowAhead = rowAhead;
        this.edge = mapping.edge();
        this.lanes = mapping.laneColumns();
        this.width = mapping.bandWidth();
        this.rowLookups = mapping.rowLookups();
        this.haloRow = new CudaBandHaloRow(cx, fields);
        this.foldedStores = new CudaBandFoldedStores(cx);
    }

    private java.util.Optional<LaneProfile> profileOf(IrExpr.Lookup lookup) {
        return LaneProfile.of(mapping.profiles(), graph, mapping.laneSequences(), lookup);
    }

    /**
     * The forms of a step. Every form but the checked one computes every column of every lane without a test of its
     * row; those whose lanes may lie outside the domain guard what leaves a lane.
     */
    enum Form {
        /** Every lane computes a point of the domain. */
        STEADY,
        /** A test of the lane's row (and column) around what it computes. */
        CHECKED,
        /** A peeled first chunk's step ({@link dev.finegrain.compiler.backend.gpu.FirstChunk}): rows may lie above the domain. */
        PEELED_FIRST,
        /** A guarded step ({@link dev.finegrain.compiler.backend.gpu.GuardedSteps}): rows may lie above or below the domain. */
        GUARDED;

        /** Whether every lane computes every column, untested. */
        boolean untested() {
            return this != CHECKED;
        }

        /** Whether a lane's row may lie outside the domain where it reads a row's sequence or table row: loaded at the row clamped into it. */
        boolean clampsRows() {
            return this == CHECKED || this == GUARDED;
        }

        /** Whether a lane's row may lie above the domain, where it takes the halo row after computing. */
        boolean rowsAbove() {
            return this == PEELED_FIRST || this == GUARDED;
        }
    }

    /**
     * One step; a steady one knows that every lane computes a point of the domain. A lane that owns several columns
     * computes them left to right, every actor of a column before the next column.
     */
    void step(boolean steady) {
        step(steady ? Form.STEADY : Form.CHECKED);
    }

    /**
     * One step of a band's first chunk peeled in the steady form ({@link dev.finegrain.compiler.backend.gpu.FirstChunk}):
     * every lane computes its columns, publishes nothing above the domain, and there takes the halo row as its values.
     */
    void firstStep() {
        step(Form.PEELED_FIRST);
    }

    /**
     * One guarded step ({@link dev.finegrain.compiler.backend.gpu.GuardedSteps}): every lane computes its columns; its
     * edge values, kept values and reduction candidates leave it only where its row is in the domain, and above it the
     * lane takes the halo row as its values.
     */
    void guardedStep() {
        step(Form.GUARDED);
    }

    private void step(Form form) {
        boolean steady = form.untested();
        boolean rowsAbove = form.rowsAbove();
        boolean guarded = form == Form.GUARDED;
        out.line("const int s = base + k;");
        out.line("const int i = s - lane;   // my row in this step");
        rowAhead.loadNext(!form.clampsRows());
        if (guarded) {
            out.line("const bool " + INSIDE + " = (unsigned) i < " + mapping.rows() + "u;   // my row is in the domain: only then does what I"
                    + " compute leave me");
        }
        if (!steady && lanes == 1) {
            out.line("const bool computes = i >= 0 && i < " + mapping.rows() + " && j < " + mapping.columns() + ";");
        }
        List<BandRead> reads = mapping.reads();
        // what comes from the lanes to the left, shuffled by every lane before any branch
        Map<Source, String> shuffled = new HashMap<>();
        for (int c = 0; c < lanes; c++) {
            for (BandRead read : reads) {
                if (read.columnsBack() > c) {
                    Source from = Source.of(read, c, lanes);
                    if (!shuffled.containsKey(from)) {
                        String name = out.temporary("u");
                        out.line("const " + cx.type(read.field()) + " " + name + " = __shfl_up_sync(" + FULL + ", "
                                + cx.history(read.field(), from.column(), from.stepsBack() - 1) + ", " + from.lanesBack() + ");   // "
                                + text(read) + " from lane l-" + from.lanesBack() + (lanes == 1 ? "" : "'s column " + from.column()));
                        shuffled.put(from, name);
                    }
                }
            }
        }
        // every read resolved by every lane without a branch: the boundary rows come through the history (lanes above
        // the domain hold its halo there) and the boundary columns through band 0's edge window
        List<Map<BandRead, String>> resolved = new ArrayList<>();
        for (int c = 0; c < lanes; c++) {
            Map<BandRead, String> atColumn = new HashMap<>();
            for (BandRead read : reads) {
                if (!read.samePoint()) {
                    atColumn.put(read, resolve(read, c, shuffled));
                }
            }
            resolved.add(atColumn);
        }
        // the staged inputs, loaded by every lane before anything waits on them (the ring index is always valid)
        List<Map<StagedRead, String>> stagedInputs = new ArrayList<>();
        for (int c = 0; c < lanes; c++) {
            Map<StagedRead, String> atColumn = new HashMap<>();
            for (BandMapping.Ring ring : mapping.inputRings()) {
                for (int back = ring.lowestRowBack(); back <= ring.highestRowBack(); back++) {
                    String name = out.temporary("in");
                    out.line("const " + cx.type(ring.field()) + " " + name + " = " + CudaBandContext.ring(ring.field(), "in") + "["
                            + cx.ringSlot(ring, "(i - " + back + ")", c) + "];   // " + ring.field().name() + "[i-" + back + ", j"
                            + (c == 0 ? "" : "+" + c) + "]");
                    atColumn.put(new StagedRead(ring.field(), back), name);
                }
            }
            stagedInputs.add(atColumn);
        }
        for (IrField field : cx.stateFieldsWithHistory()) {
            for (int c = 0; c < lanes; c++) {
                out.line(cx.type(field) + " " + cx.own(field, c) + " = 0;   // my value of " + field.name() + " in this step"
                        + (lanes == 1 ? "" : ", column " + c));
            }
        }
        List<CudaReductions> onceAStep = stepReductions();
        onceAStep.forEach(reduction -> reduction.stepStart(out, lanes));
        Map<IrExpr.Lookup, CudaProfileRow> profileRows = profileRows(!form.clampsRows(), resolved.getFirst(), stagedInputs.getFirst());
        boolean rowTest = !steady && lanes > 1;
        if (rowTest) {
            out.open("if (i >= 0 && i < " + mapping.rows() + ")");
            out.comment("my row is in the domain: every column of mine (one test a step, so that the columns' loads are scheduled together)");
        }
        for (int c = 0; c < lanes; c++) {
            column(c, form, resolved.get(c), stagedInputs.get(c), profileRows);
        }
        // a lane meets a point in a step that is not steady where its row is in the domain and its first column is; in
        // a steady one it has met one already: the band is full and its first chunk, checked (or peeled, where no
        // reduction is: FirstChunk), gave every lane row 0
        String seen = guarded ? INSIDE + (partialBand() ? " && " + cx.column(0) + " < " + mapping.columns() : "")
                : steady ? null : lanes == 1 ? "computes" : partialBand() ? cx.column(0) + " < " + mapping.columns() : "true";
        onceAStep.forEach(reduction -> reduction.stepEnd(out, lanes, seen, guarded ? INSIDE : null));
        if (rowTest) {
            haloRow.elseForRow();
            out.close();
        }
        if (rowsAbove) {
            haloRow.overwriteAbove();
        }
        shiftHistory();
        rowAhead.advance();
        if (edge.crossed() && !edge.readyWords()) {
            publishToken();
        }
    }

    /**
     * The row of each query profile the lane's columns read, when its index is the same in all of them (a sequence along
     * the rows): loaded and checked once a step, before the columns, instead of once a column inside its test. In a step
     * that is not steady the lane's row may lie outside the domain, so the index is taken at the row clamped into it (the
     * sequences' registers hold them so; an index that reads the row itself clamps it here): a row every band computes
     * in its first column, whose check the run makes there anyway. (Loading a chunk's rows once,
     * lane x taking row base + x, and handing each step's row over by two shuffles measured 7 % slower on an H200:
     * needleman-wunsch-seq 65536², four columns a lane, 14.75 against 13.79 ms.)
     */
    private Map<IrExpr.Lookup, CudaProfileRow> profileRows(boolean steady, Map<BandRead, String> resolved, Map<StagedRead, String> stagedInputs) {
        Map<IrExpr.Lookup, CudaProfileRow> rows = new java.util.IdentityHashMap<>();
        if (rowLookups.isEmpty()) {
            return rows;
        }
        String row = "i";
        if (!steady && mapping.rowLookupsReadTheRow()) {
            row = "ic";
            out.line("const int ic = min(max(i, 0), " + (mapping.rows() - 1) + ");   // my row, clamped into the domain");
        }
        CudaExpressions expressions = new CudaExpressions(out, graph, operands(0, steady, row, resolved, new HashMap<>(), stagedInputs, Map.of()),
                fields.sizes(), "error", cx.mapping.target());
        for (IrExpr.Lookup lookup : rowLookups) {
            LaneProfile profile = profileOf(lookup).orElseThrow();
            String checked = expressions.checkedIndex(lookup, profile.otherAxis());
            String name = out.temporary("k");
            out.line("const int " + name + " = " + checked + ";   // the row of '"
                    + graph.kernel().tables().get(lookup.table()).name() + "' every column of mine reads in this step");
            rows.put(lookup, CudaProfileRow.load(cx, profile, name));
        }
        return rows;
    }

    /** My column {@code c} in one step: its actors, its stores, and what it publishes to the band on the right. */
    private void column(int c, Form form, Map<BandRead, String> resolved, Map<StagedRead, String> stagedInputs,
                        Map<IrExpr.Lookup, CudaProfileRow> profileRows) {
        boolean steady = form.untested();
        // what leaves the lane where its row may lie outside the domain: held by a test of the row
        String rowGuard = form == Form.GUARDED ? " && " + INSIDE : form == Form.PEELED_FIRST ? " && i >= 0" : "";
        if (!steady && lanes == 1) {
            out.open("if (computes)");
        } else if (!steady && mapping.raggedBand().checksEachColumn()) {
            out.open("if (" + cx.column(c) + " < " + mapping.columns() + ")");
        } else if (lanes > 1) {
            out.open("/* column " + c + " */");
        }
        out.line("[[maybe_unused]] const long long g = " + fields.index(new String[] {"i", cx.column(c)}) + ";   // my point in every field");
        Map<Integer, String> produced = new HashMap<>();
        CudaExpressions expressions = new CudaExpressions(out, graph, operands(c, steady, "i", resolved, produced, stagedInputs, profileRows), fields.sizes(),
                "error", cx.mapping.target());
        // the band's last edge.columns() columns are what the band to the right reads
        String onEdge = lanes == 1 ? "lane >= " + (WARP - edge.columns()) : "lane * " + lanes + " + " + c + " >= " + (width - edge.columns());
        String edgeSlot = lanes == 1 ? "lane - " + (WARP - edge.columns()) : "lane * " + lanes + " + " + c + " - " + (width - edge.columns());
        expressions.lowerActors(produced, (actor, value) -> {
            IrField field = graph.field(actor.writes());
            if (mapping.folding().folds(field)) {
                foldedStores.store(field, c, steady, form == Form.GUARDED ? INSIDE : null, value, onEdge, edgeSlot);
            } else {
                BandMapping.Ring ring = mapping.outputRings().stream().filter(r -> r.field().equals(field)).findFirst().orElseThrow();
                out.line(CudaBandContext.ring(field, "out") + "[" + cx.ringSlot(ring, "i", c) + "] = " + value + ";");
                if (edge.crossed() && !edge.readyWords() && edge.fields().contains(field)) {
                    out.line("if (" + onEdge + rowGuard + ") f." + CudaNames.member(field.name()) + "[g] = " + value
                            + ";   // the edge, which the band to the right reads after the token");
                }
            }
            if (mapping.history()[field.id()] > 0) {
                out.line(cx.own(field, c) + " = " + value + ";");
            }
            // one predicated store, where some lane holds an edge column in my column c: a branch around a store with a
            // compiler barrier cost a band 15 % (needleman-wunsch-seq 65536², eight columns: 9.85 against 8.38 ms on an
            // H200) to 23 % (smith-waterman-seq, four columns: 15.68 against 12.08 ms)
            if (edge.readyWords() && edge.fields().contains(field) && (WARP - 1) * lanes + c >= width - edge.columns()) {
                sync.bandPublishValue(cx, field, onEdge + " && band < " + (mapping.bands() - 1) + rowGuard, edgeSlot, value);
            }
        });
        if (!steady && lanes == 1) {
            haloRow.elseForColumn(c);
        }
        if (!steady || lanes > 1) {
            out.close();
        }
    }

    /** Whether the last band is narrower than the others, so that a lane's columns may lie right of the domain. */
    private boolean partialBand() {
        return mapping.columns() % width != 0;
    }

    /** The lane's reductions taken once a step ({@link BandFolding#takenOnceAStep}). */
    private List<CudaReductions> stepReductions() {
        return mapping.folding().reductions().stream()
                .map(reduction -> new CudaReductions(reduction, graph.field(reduction.field()).type(), CudaReductions.LANE))
                .filter(CudaReductions::onceAStep).toList();
    }

    /**
     * How many of a lane's last values of a field its column keeps in the CUDA spelling: as far back as a read of this
     * lane's columns to its right, or of a lane to its right through a shuffle, reaches into it (0: the column keeps
     * none). The mapping's {@link BandMapping#history()} is the most over the columns; declaring only these spares
     * nvcc's warnings of values set and never read.
     */
    static int historyDepth(BandMapping mapping, IrField field, int column) {
        int lanes = mapping.laneColumns();
        int depth = 0;
        for (BandRead read : mapping.reads()) {
            if (!read.field().equals(field) || read.samePoint()) {
                continue;
            }
            for (int c = 0; c < lanes; c++) {
                if (read.columnsBack() <= c) {
                    depth = c - read.columnsBack() == column ? Math.max(depth, read.rowsBack()) : depth;
                } else {
                    Source from = Source.of(read, c, lanes);
                    depth = from.column() == column ? Math.max(depth, from.stepsBack()) : depth;
                }
            }
        }
        return depth;
    }

    /**
     * Where a read of {@code field} at my column c finds its value when it reaches left of my first column: lane
     * l - lanesBack's column {@code column}, which that lane computed stepsBack steps ago (lanes one row apart); reads
     * with the same source share one shuffle.
     */
    private record Source(IrField field, int lanesBack, int column, int stepsBack) {
        static Source of(BandRead read, int c, int lanes) {
            int lanesBack = Math.ceilDiv(read.columnsBack() - c, lanes);
            return new Source(read.field(), lanesBack, c - read.columnsBack() + lanesBack * lanes, read.rowsBack() + lanesBack);
        }
    }

    /** An input read from its ring, {@code rowsBack} rows above my row, in my own column. */
    private record StagedRead(IrField field, int rowsBack) {}

    private static String text(BandRead read) {
        return read.field().name() + "[i-" + read.rowsBack() + ", j-" + read.columnsBack() + "]";
    }

    /**
     * Where a read's value comes from at my column c: its own history (same column), another of my columns (this
     * step's value or its history), the lane the read reaches (a shuffle), or, for the lanes left of that reach, the
     * edge window; every lane loads the window, at a clamped index, and keeps what its lane needs, so that the step
     * has no branch.
     */
    private String resolve(BandRead read, int c, Map<Source, String> shuffled) {
        String type = cx.type(read.field());
        if (read.columnsBack() <= c && read.rowsBack() == 0) {
            return cx.own(read.field(), c - read.columnsBack());   // computed earlier in this step, by my column to the left
        }
        String name = out.temporary("r");
        if (read.columnsBack() <= c) {
            out.line("const " + type + " " + name + " = " + cx.history(read.field(), c - read.columnsBack(), read.rowsBack() - 1)
                    + ";   // " + text(read) + (read.columnsBack() == 0 ? "" : ": my column " + (c - read.columnsBack())));
            return name;
        }
        Source from = Source.of(read, c, lanes);
        String shuffledName = shuffled.get(from);
        String slot = lanes == 1 ? "min(lane + " + (edge.columns() - read.columnsBack()) + ", " + (edge.columns() - 1) + ")"
                : "min(lane * " + lanes + " + " + (c - read.columnsBack() + edge.columns()) + ", " + (edge.columns() - 1) + ")";
        String row = "min(max(i - " + read.rowsBack() + " - wb, 0), " + (edge.windowRows() - 1) + ")";
        String fromEdge = out.temporary("e");
        out.line("const " + type + " " + fromEdge + " = " + CudaBandContext.window(read.field()) + "[" + cx.windowBuffer() + "][" + slot + "][" + row + "];");
        out.line("const " + type + " " + name + " = lane < " + from.lanesBack() + " ? " + fromEdge + " : " + shuffledName
                + ";   // " + text(read) + ": the left band's edge, or lane l-" + from.lanesBack());
        return name;
    }

    private CudaExpressions.Operands operands(int c, boolean steady, String row, Map<BandRead, String> resolved, Map<Integer, String> produced,
                                              Map<StagedRead, String> stagedInputs, Map<IrExpr.Lookup, CudaProfileRow> profileRows) {
        return new CudaExpressions.Operands() {
            @Override
            public String index(int dimension) {
                return dimension == 0 ? row : cx.column(c);
            }

            @Override
            public String load(IrExpr.Load load) {
                IrField field = graph.field(load.field());
                if (field.isState()) {
                    BandRead read = new BandRead(field, -load.offset()[0], -load.offset()[1]);
                    return read.samePoint() ? produced.get(field.id()) : resolved.get(read);
                }
                if (mapping.staged(field)) {
                    return stagedInputs.get(new StagedRead(field, -load.offset()[0]));
                }
                return "f." + CudaNames.member(field.name()) + "[g + " + fields.offset(load.offset()) + "]";
            }

            @Override
            public java.util.Optional<String> laneSequence(IrExpr.Load load) {
                IrField field = graph.field(load.field());
                if (rowAhead.holds(field)) {
                    return java.util.Optional.of(rowAhead.current(field));
                }
                return mapping.laneSequences().contains(field) && load.offset()[1] == 0
                        ? java.util.Optional.of(cx.laneSequence(field, c)) : java.util.Optional.empty();
            }

            @Override
            public java.util.Optional<String> stagedTable(int table) {
                return mapping.stagesTables() ? java.util.Optional.of(cx.stagedTable(table)) : java.util.Optional.empty();
            }

            @Override
            public java.util.Optional<String> profiled(IrExpr.Lookup lookup, java.util.function.IntFunction<String> checkedHere) {
                CudaProfileRow row = profileRows.get(lookup);
                return profileOf(lookup).map(profile -> row != null ? row.entry(c)
                        : cx.profile(profile) + "[" + profile.element(checkedHere.apply(profile.otherAxis()), lanes, c) + "]");
            }
        };
    }

    private void shiftHistory() {
        for (IrField field : cx.stateFieldsWithHistory()) {
            for (int c = 0; c < lanes; c++) {
                int depth = historyDepth(mapping, field, c);
                if (depth == 0) {
                    continue;
                }
                for (int back = depth - 1; back > 0; back--) {
                    out.line(cx.history(field, c, back) + " = " + cx.history(field, c, back - 1) + ";");
                }
                out.line(cx.history(field, c, 0) + " = " + cx.own(field, c) + ";");
            }
        }
    }

    /** Token words: after lane 31 finished the last row of a group, the warp meets and lane 31 publishes it. */
    private void publishToken() {
        int group = edge.groupRows();
        int rows = mapping.rows();
        out.line("const int lastLaneRow = s - 31;   // the row lane 31, the band's last column, finished in this step");
        out.open("if (band < " + (mapping.bands() - 1) + " && lastLaneRow >= 0 && lastLaneRow < " + rows
                + (group == 1 ? "" : " && ((lastLaneRow + 1) % " + group + " == 0 || lastLaneRow == " + (rows - 1) + ")") + ")");
        out.line("__syncwarp();   // every lane's stores before the token");
        out.open("if (lane == 31)");
        sync.bandPublishToken(cx, group == 1 ? "lastLaneRow" : "lastLaneRow / " + group);
        out.close();
        out.close();
    }
}
