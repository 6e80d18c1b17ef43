package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.gpu.BandMapping;
import dev.finegrain.compiler.backend.gpu.BandMapping.BandEdge;
import dev.finegrain.compiler.backend.gpu.BandMapping.BandRead;
import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.ir.Loads;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Spells the 32 steps of a chunk of a persistent band ({@link SimtBands}), as {@code CudaBandStep} spells them: every
 * lane shuffles in what its reads need from the lanes to its left, resolves each read (its own history, a shuffled
 * value or the edge window) without a branch, and, where its row is in the domain, computes its columns
 * ({@link SimtBandColumns}) into the output ring and publishes what the band to the right waits for; then the history
 * moves on a step. A steady chunk knows that every lane computes. P6 holds "this lane computes" (a lane of one column)
 * or "my row is in the domain" (several) through a step (the expressions take P0, the protocols P5).
 * <p>A steady chunk is spelled as nvcc compiles CUDA's (the H200's SASS of the band kernels): lane tests made once into
 * P1 to P4, the edge window loaded over the shuffled value (no select), the edge published predicated (no branch).
 * <p>A guarded step ({@link dev.finegrain.compiler.backend.gpu.GuardedSteps}) computes every column of every lane as a
 * steady one does, with P6 "my row is in the domain" holding what leaves the lane (its edge, kept values and reduction
 * candidates); a lane above the domain then takes the halo row as its values.
 */
final class SimtBandStep {

    private static final int WARP = GpuTarget.WARP;

    private final SimtAssembler asm;
    private final BandMapping mapping;
    private final KernelGraph graph;
    private final GlobalLayout layout;
    private final SimtBandContext cx;
    private final BandEdge edge;
    private final boolean steady;
    /** A guarded step's chunk ({@link dev.finegrain.compiler.backend.gpu.GuardedSteps}); never a steady one. */
    private final boolean guarded;
    private final SimtBandInputs inputs;
    private final SimtBandFolding folding;
    /**
     * Per sequence along the rows ({@link BandMapping#rowSequences}), the register that holds its value at my row (clamped
     * into the domain in a checked chunk), loaded a step ahead as CUDA's steps load it.
     */
    private final Map<IrField, String> rowAhead = new LinkedHashMap<>();
    /** My point's byte offset in 4-byte fields, moved on a row every step. */
    private String point;
    /** In a steady chunk: per reach across the lanes, the predicate "my lane is left of it", made before the loop. */
    private final Map<Integer, String> leftOfReach = new TreeMap<>();
    /**
     * In a steady chunk: per first lane on the edge (of a column of mine), the predicate "I publish the edge", made before
     * the loop; empty where it is tested per step.
     */
    private final Map<Integer, String> publishesEdge = new TreeMap<>();
    /** Columns each lane owns. */
    private final int lanes;

    SimtBandStep(SimtBandContext cx, boolean steady, boolean guarded, SimtBandInputs inputs, SimtBandFolding folding) {
        if (steady && guarded) {
            throw new IllegalArgumentException("a chunk is steady or guarded, not both");
        }
        this.guarded = guarded;
        this.inputs = inputs;
        this.folding = folding;
        this.asm = cx.asm;
        this.mapping = cx.mapping;
        this.graph = mapping.graph();
        this.layout = cx.layout;
        this.cx = cx;
        this.edge = mapping.edge();
        this.steady = steady;
        this.lanes = mapping.laneColumns();
    }

    /**
     * Steps a pass of a steady chunk's loop, as CUDA's {@code #pragma unroll 8}; the checked loop has one a pass, or
     * {@link dev.finegrain.compiler.backend.gpu.BandFolding#checkedUnroll}; the guarded loop
     * {@link dev.finegrain.compiler.backend.gpu.GuardedSteps#UNROLL}.
     */
    static final int STEADY_UNROLL = 8;

    /** The chunk's 32 steps, as a loop whose labels start with {@code stem}. */
    void emitLoop(String stem) {
        asm.section(stem + " steps of a chunk" + (steady ? ": every lane computes a point of the domain"
                : guarded ? ": every lane computes; what leaves it is tested against its row" : ""));
        String row = asm.register();
        point = asm.register();
        asm.emit("IADD " + row + ", " + cx.base + ", -" + cx.lane);
        layout.emitPaddedIndex(asm, point, new String[] {row, cx.column});
        asm.emit("SHL " + point + ", " + point + ", 0x2   // my point in every field at step 0; a step adds a row");
        if (steady) {
            hoistLaneTests();
        }
        loadFirstRowsAhead();
        String k = asm.register();
        String loop = asm.label(stem + "_step");
        asm.emit("MOV " + k + ", RZ");
        asm.place(loop);
        int passes = steady ? STEADY_UNROLL : guarded ? dev.finegrain.compiler.backend.gpu.GuardedSteps.UNROLL
                : mapping.folding().checkedUnroll(graph);
        for (int unrolled = 0; unrolled < passes; unrolled++) {
            int stepRegisters = asm.mark();
            step(k);
            asm.release(stepRegisters);   // a step's values die with it; the next step reuses their registers
            asm.emit("IADD " + point + ", " + point + ", " + SimtAssembler.immediate(4L * layout.extent(1)));
            asm.emit("IADD " + k + ", " + k + ", 0x1");
        }
        asm.emit("ISETP.LT.AND P0, PT, " + k + ", 0x20, PT");
        asm.emit("P0", "BRA " + loop);
    }

    /** Free for the steady loop's lane tests: the step's code takes P0 (expressions), P5 (protocols) and P6. */
    private static final List<String> LANE_TEST_PREDICATES = List.of("P1", "P2", "P3", "P4");

    /**
     * The steady loop's lane tests, once before it, where the predicates suffice (else each step tests, as the checked
     * loop does): a lane left of a read's reach (in lanes) takes the edge window, the edge lanes publish.
     */
    private void hoistLaneTests() {
        java.util.SortedSet<Integer> reaches = new java.util.TreeSet<>();
        java.util.SortedSet<Integer> edgeLanes = new java.util.TreeSet<>();
        for (int c = 0; c < lanes; c++) {
            for (BandRead read : mapping.reads()) {
                if (cx.lanesBack(read, c) > 0) {
                    reaches.add(cx.lanesBack(read, c));
                }
            }
            if (edge.crossed() && cx.firstEdgeLane(c) < WARP) {
                edgeLanes.add(cx.firstEdgeLane(c));
            }
        }
        if (reaches.size() + edgeLanes.size() > LANE_TEST_PREDICATES.size()) {
            return;
        }
        List<String> free = new ArrayList<>(LANE_TEST_PREDICATES);
        asm.comment("the lane tests of every steady step, made once");
        for (int reach : reaches) {
            String predicate = free.removeFirst();
            asm.emit("ISETP.LT.AND " + predicate + ", PT, " + cx.lane + ", " + SimtAssembler.immediate(reach) + ", PT   // left of a"
                    + " reach of " + reach + ": the left band's edge");
            leftOfReach.put(reach, predicate);
        }
        for (int first : edgeLanes) {
            String predicate = free.removeFirst();
            asm.emit("ISETP.GE.AND " + predicate + ", PT, " + cx.lane + ", " + SimtAssembler.immediate(first) + ", PT   // on the edge");
            if (edge.readyWords() || mapping.raggedBand().runsAsFull()) {
                // no band reads the last band's edge (and where it runs as a full one, its edge columns may lie right of the domain)
                asm.emit("ISETP.LT.AND " + predicate + ", PT, " + cx.band + ", " + SimtAssembler.immediate(mapping.bands() - 1)
                        + ", " + predicate);
            }
            publishesEdge.put(first, predicate);
        }
    }

    private void step(String k) {
        String lane = cx.lane;
        String j = cx.column;
        String s = asm.register();
        String i = asm.register();
        asm.emit("IADD " + s + ", " + cx.base + ", " + k);
        asm.emit("IADD " + i + ", " + s + ", -" + lane + "   // my row in this step");
        if (!steady) {
            asm.emit("ISETP.GE.AND P6, PT, " + i + ", RZ, PT");
            if (guarded) {
                asm.emit("ISETP.LT.AND P6, PT, " + i + ", " + SimtAssembler.immediate(mapping.rows()) + ", P6   // my row is in the domain:"
                        + " only then does what I compute leave me");
            } else if (lanes == 1) {
                asm.emit("ISETP.LT.AND P6, PT, " + i + ", " + SimtAssembler.immediate(mapping.rows()) + ", P6");
                asm.emit("ISETP.LT.AND P6, PT, " + j + ", " + SimtAssembler.immediate(mapping.columns()) + ", P6   // I compute");
            } else {
                asm.emit("ISETP.LT.AND P6, PT, " + i + ", " + SimtAssembler.immediate(mapping.rows()) + ", P6   // my row is in the domain");
            }
        }
        Map<IrField, String> nextRows = loadNextRowsAhead(i);
        Map<List<Integer>, String> staged = loadStagedInputs(i);
        // what comes from the lanes to the left, shuffled by every lane before any branch
        Map<Source, String> shuffled = new HashMap<>();
        for (int c = 0; c < lanes; c++) {
            for (BandRead read : mapping.reads()) {
                Source from = Source.of(read, c, cx);
                if (from.lanesBack() > 0 && !shuffled.containsKey(from)) {
                    String source = cx.history.get(read.field())[from.column()][from.stepsBack() - 1];
                    String value = asm.register(read.field().type());
                    asm.emit("SHFL.UP " + value + ", " + source + ", " + SimtAssembler.immediate(from.lanesBack()) + "   // "
                            + text(read) + " from lane l-" + from.lanesBack() + (lanes == 1 ? "" : "'s column " + from.column()));
                    if (SimtAssembler.isWide(read.field().type())) {
                        asm.emit("SHFL.UP " + SimtAssembler.high(value) + ", " + SimtAssembler.high(source) + ", "
                                + SimtAssembler.immediate(from.lanesBack()));
                    }
                    shuffled.put(from, value);
                }
            }
        }
        List<Map<BandRead, String>> resolved = new ArrayList<>();
        for (int c = 0; c < lanes; c++) {
            resolved.add(new HashMap<>());
        }
        if (hoisted()) {
            // the lanes left of a read's reach load the edge window over what the shuffle brought them
            java.util.Set<Source> loadedOver = new java.util.HashSet<>();
            for (int c = 0; c < lanes; c++) {
                for (BandRead read : mapping.reads()) {
                    int reach = cx.lanesBack(read, c);
                    if (reach > 0) {
                        Source from = Source.of(read, c, cx);
                        String value = shuffled.get(from);
                        if (loadedOver.add(from)) {   // reads of one source reach one point: one load serves them
                            String at = edgeWindowAddress(read, c, k);
                            asm.emit(leftOfReach.get(reach), "LDS" + SimtAssembler.width(read.field().type()) + " " + value
                                    + ", " + SimtAssembler.address(at, 0) + "   // " + text(read) + " for the lanes left of lane "
                                    + reach + ": the left band's edge");
                        }
                        resolved.get(c).put(read, value);
                    } else if (read.rowsBack() > 0) {
                        resolved.get(c).put(read, cx.history.get(read.field())[c - read.columnsBack()][read.rowsBack() - 1]);
                    }
                }
            }
        } else {
            // every edge window load is started before the first select waits for one, as nvcc orders them
            Map<SimtBandContext.ColumnRead, String> fromEdge = new HashMap<>();
            for (int c = 0; c < lanes; c++) {
                for (BandRead read : mapping.reads()) {
                    if (cx.lanesBack(read, c) > 0) {
                        fromEdge.put(new SimtBandContext.ColumnRead(read, c), loadEdgeWindow(read, c, k));
                    }
                }
            }
            for (int c = 0; c < lanes; c++) {
                for (BandRead read : mapping.reads()) {
                    if (cx.lanesBack(read, c) > 0 || read.rowsBack() > 0) {
                        resolved.get(c).put(read, resolve(read, c, fromEdge.get(new SimtBandContext.ColumnRead(read, c)),
                                shuffled.get(Source.of(read, c, cx))));
                    }
                }
            }
        }
        for (IrField field : steady || guarded ? List.<IrField>of() : cx.fieldsWithHistory()) {
            for (int c = 0; c < lanes; c++) {
                asm.emit("MOV" + SimtAssembler.width(field.type()) + " " + cx.own.get(field)[c] + ", RZ");
            }
        }
        folding.stepStart(steady || guarded);
        String outside = asm.label("outside");
        String joined = asm.label("joined");
        boolean checked = !steady && !guarded;
        if (checked) {
            asm.emit("!P6", "BRA " + outside);
        }
        List<Map<IrField, String>> values = new SimtBandColumns(cx, steady, guarded, inputs, folding, rowAhead, point, publishesEdge, hoisted())
                .computeColumns(i, resolved, staged, joined);
        if (checked) {
            asm.emit("BRA " + joined);
            asm.place(outside);
            aboveTheDomain(i, j);
            asm.place(joined);
        } else if (guarded) {
            aboveTheDomain(i, j);   // over what the lane computed there
        }
        if (folding.takesSteps()) {
            // a lane meets a point in a step that is not steady where it computes (P6; a lane of several columns: its row
            // is in the domain and so is its first column); in a steady one it has met one already: the band is full and
            // its first chunk, which is never steady, gave every lane row 0. Lanes outside took nothing: none beats.
            String seen = null;
            if (!steady) {
                seen = "P6";
                if (lanes > 1 && mapping.columns() % mapping.bandWidth() != 0) {
                    asm.emit("ISETP.LT.AND P1, PT, " + j + ", " + SimtAssembler.immediate(mapping.columns()) + ", P6   // my first column is in the domain");
                    seen = "P1";
                }
            }
            folding.stepEnd(i, seen, guarded ? "P6" : null);
        }
        shiftHistory(values);
        nextRows.forEach((field, next) -> asm.emit("MOV" + SimtAssembler.width(field.type()) + " " + rowAhead.get(field) + ", " + next));
        if (edge.crossed() && !edge.readyWords()) {
            publishToken(s);
        }
    }

    /**
     * The step's reads of inputs that have rings, loaded from my columns of the ring at the step's start, as nvcc starts
     * them under the shuffles: per field, row offset and column of mine, the register that holds the value. A lane
     * outside the domain loads a slot it does not use.
     */
    private Map<List<Integer>, String> loadStagedInputs(String i) {
        Map<List<Integer>, String> staged = new LinkedHashMap<>();
        for (int actorId : graph.actorOrder()) {
            Loads.forEach(graph.actor(actorId).body(), load -> {
                IrField field = graph.field(load.field());
                if (!field.isInput() || !mapping.staged(field) || staged.containsKey(List.of(field.id(), load.offset()[0], 0))) {
                    return;
                }
                BandMapping.Ring ring = mapping.inputRings().stream().filter(r -> r.field().equals(field)).findFirst().orElseThrow();
                String row = i;
                if (load.offset()[0] != 0) {
                    row = asm.register();
                    asm.emit("IADD " + row + ", " + i + ", " + SimtAssembler.immediate(load.offset()[0]));
                }
                String[] values = new String[lanes];
                for (int c = 0; c < lanes; c++) {
                    values[c] = asm.register(field.type());
                }
                String slot = cx.ringSlot(ring, row);
                for (int c = 0; c < lanes; c++) {
                    asm.emit("LDS" + SimtAssembler.width(field.type()) + " " + values[c] + ", "
                            + SimtAssembler.address(slot, (long) c * GpuTarget.elementBytes(field.type())) + "   // " + field.name() + "[i"
                            + (load.offset()[0] == 0 ? "" : (load.offset()[0] > 0 ? "+" : "") + load.offset()[0]) + ", j"
                            + (c == 0 ? "" : "+" + c) + "] from my ring");
                    staged.put(List.of(field.id(), load.offset()[0], c), values[c]);
                }
            });
        }
        return staged;
    }

    /**
     * Before a chunk's steps: each sequence along the rows at my row in the first step (row base - lane, clamped into the
     * domain in a checked chunk).
     */
    private void loadFirstRowsAhead() {
        for (IrField field : mapping.rowSequences()) {
            String current = asm.register(field.type());
            String address = asm.register();
            asm.emit("IADD " + address + ", " + cx.base + ", -" + cx.lane);
            if (!steady) {
                cx.clampRow(address, address, true);
            }
            asm.emit("SHL " + address + ", " + address + ", " + SimtAssembler.immediate(SimtAssembler.isWide(field.type()) ? 3 : 2));
            asm.emit(SimtTableReads.READ_ONLY_LOAD + SimtAssembler.width(field.type()) + " " + current + ", " + SimtAssembler.address(address, layout.fieldByte(field.id()))
                    + "   // sequence '" + field.name() + "' at my row, loaded a step ahead from here on");
            rowAhead.put(field, current);
        }
    }

    /** At a step's start: each sequence along the rows at my next row (clamped into the domain), for the step after. */
    private Map<IrField, String> loadNextRowsAhead(String i) {
        Map<IrField, String> next = new LinkedHashMap<>();
        for (IrField field : mapping.rowSequences()) {
            String row = asm.register();
            asm.emit("IADD " + row + ", " + i + ", 0x1");
            cx.clampRow(row, row, !steady);
            asm.emit("SHL " + row + ", " + row + ", " + SimtAssembler.immediate(SimtAssembler.isWide(field.type()) ? 3 : 2));
            String value = asm.register(field.type());
            asm.emit(SimtTableReads.READ_ONLY_LOAD + SimtAssembler.width(field.type()) + " " + value + ", " + SimtAssembler.address(row, layout.fieldByte(field.id()))
                    + "   // for my next row, loaded while this step computes");
            next.put(field, value);
        }
        return next;
    }

    /** Whether the steady loop's lane tests were made before it (so this is a steady chunk). */
    private boolean hoisted() {
        return !leftOfReach.isEmpty() || !publishesEdge.isEmpty();
    }

    /**
     * A lane above the domain holds its columns' halo row as their values, which the lanes below and to the right read.
     * (A column right of the domain holds 0 there, as it loaded no halo: the same value its computing lanes never read.)
     */
    private void aboveTheDomain(String i, String j) {
        List<IrField> fields = cx.fieldsWithHistory();
        if (fields.isEmpty() || cx.haloRows == 0) {
            return;
        }
        asm.comment("above the domain: the halo row, which the lanes below and to the right read as my history");
        asm.emit("ISETP.LT.AND P0, PT, " + i + ", RZ, PT");
        asm.emit("ISETP.GE.AND P0, PT, " + i + ", " + SimtAssembler.immediate(-cx.haloRows) + ", P0");
        if (lanes == 1) {
            asm.emit("ISETP.LT.AND P0, PT, " + j + ", " + SimtAssembler.immediate(mapping.columns()) + ", P0");
        }
        String skip = asm.label("not_above");
        asm.emit("!P0", "BRA " + skip);
        for (IrField field : fields) {
            for (int c = 0; c < lanes; c++) {
                String[] up = cx.above.get(field)[c];
                String own = cx.own.get(field)[c];
                String width = SimtAssembler.width(field.type());
                asm.emit("MOV" + width + " " + own + ", " + up[up.length - 1]);
                for (int k = up.length - 2; k >= 0; k--) {
                    asm.emit("ISETP.EQ.AND P0, PT, " + i + ", " + SimtAssembler.immediate(-1 - k) + ", PT");
                    asm.emit("SEL" + width + " " + own + ", " + up[k] + ", " + own + ", P0");
                }
            }
        }
        asm.place(skip);
    }

    /**
     * Where a read of my column {@code c} finds its value: my own history (the same column, or one of mine to the left),
     * or, reaching past my first column, the lane it reaches (a shuffle) and, for the lanes left of that reach, the edge
     * window, which every lane loads at a clamped index and keeps only where its lane needs it, so that the step has no
     * branch.
     */
    private String resolve(BandRead read, int c, String fromEdge, String shuffledValue) {
        IrField field = read.field();
        int reach = cx.lanesBack(read, c);
        if (reach == 0) {
            return cx.history.get(field)[c - read.columnsBack()][read.rowsBack() - 1];
        }
        String value = asm.register(field.type());
        asm.emit("ISETP.LT.AND P0, PT, " + cx.lane + ", " + SimtAssembler.immediate(reach) + ", PT");
        asm.emit("SEL" + SimtAssembler.width(field.type()) + " " + value + ", " + fromEdge + ", " + shuffledValue + ", P0   // "
                + text(read) + ": the left band's edge, or lane l-" + reach);
        return value;
    }

    /** A read across the lanes: its value in the edge window at step {@code k}, which the lanes left of its reach take. */
    private String loadEdgeWindow(BandRead read, int c, String k) {
        IrField field = read.field();
        String at = edgeWindowAddress(read, c, k);
        String fromEdge = asm.register(field.type());
        asm.emit("LDS" + SimtAssembler.width(field.type()) + " " + fromEdge + ", " + SimtAssembler.address(at, 0));
        return fromEdge;
    }

    /** The address of a read's value (for my column {@code c}) in the edge window at step {@code k}. */
    private String edgeWindowAddress(BandRead read, int c, String k) {
        String at = asm.register();
        asm.emit("IMAD " + at + ", " + k + ", " + SimtAssembler.immediate(GpuTarget.elementBytes(read.field().type())) + ", "
                + cx.edgeReads.get(new SimtBandContext.ColumnRead(read, c)));
        return at;
    }

    /** The history moves on a step: each field's oldest value drops out of each of my columns and {@code values}' comes in. */
    private void shiftHistory(List<Map<IrField, String>> values) {
        for (IrField field : cx.fieldsWithHistory()) {
            String width = SimtAssembler.width(field.type());
            for (int c = 0; c < lanes; c++) {
                String[] back = cx.history.get(field)[c];
                for (int k = back.length - 1; k > 0; k--) {
                    asm.emit("MOV" + width + " " + back[k] + ", " + back[k - 1]);
                }
                String value = values.size() > c ? values.get(c).get(field) : null;
                asm.emit("MOV" + width + " " + back[0] + ", " + (value != null ? value : cx.own.get(field)[c]));
            }
        }
    }

    /** Token words: after lane 31 finished the last row of a group, the warp meets and lane 31 publishes it. */
    private void publishToken(String s) {
        String row = asm.register();
        String skip = asm.label("no_token");
        asm.emit("IADD " + row + ", " + s + ", -0x1f   // the row lane 31, the band's last column, finished in this step");
        asm.emit("ISETP.GE.AND P0, PT, " + row + ", RZ, PT");
        asm.emit("ISETP.LT.AND P0, PT, " + row + ", " + SimtAssembler.immediate(mapping.rows()) + ", P0");
        asm.emit("ISETP.LT.AND P0, PT, " + cx.band + ", " + SimtAssembler.immediate(mapping.bands() - 1) + ", P0");
        if (edge.groupRows() > 1) {
            cx.lastRowOfGroup("P5", row);
            asm.emit("PSETP.AND.AND P0, PT, P0, P5, PT   // the last row of a group");
        }
        asm.emit("!P0", "BRA " + skip);
        asm.emit("WARPSYNC   // every lane's stores before the token");
        asm.emit("ISETP.NE.AND P0, PT, " + cx.lane + ", 0x1f, PT");
        asm.emit("P0", "BRA " + skip);
        cx.sync.bandPublishToken(cx, cx.tokenOf(row));
        asm.place(skip);
    }

    /**
     * What a read of my column c shuffles when it reaches past my first column: lane l - lanesBack's column
     * {@code column}, which that lane computed stepsBack steps ago (lanes one row apart); reads of one source share a shuffle.
     */
    private record Source(IrField field, int lanesBack, int column, int stepsBack) {
        static Source of(BandRead read, int c, SimtBandContext cx) {
            int lanesBack = cx.lanesBack(read, c);
            return new Source(read.field(), lanesBack, cx.reachedColumn(read, c), read.rowsBack() + lanesBack);
        }
    }

    private static String text(BandRead read) {
        return read.field().name() + "[i-" + read.rowsBack() + ", j-" + read.columnsBack() + "]";
    }
}
