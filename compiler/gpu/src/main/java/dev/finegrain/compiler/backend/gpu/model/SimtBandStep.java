package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.gpu.BandMapping;
import dev.finegrain.compiler.backend.gpu.BandMapping.BandEdge;
import dev.finegrain.compiler.backend.gpu.BandMapping.BandRead;
import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.ir.Loads;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Spells the 32 steps of a chunk of a persistent band ({@link SimtBands}), as {@code CudaBandStep} spells them: every
 * lane shuffles in what its reads need from the lanes to its left, resolves each read (its own history, a shuffled
 * value or the edge window) without a branch, and, where its row is in the domain, computes its point into the output
 * ring and publishes what the band to the right waits for; then the history moves on a step. A steady chunk knows that
 * every lane computes. P6 holds "this lane computes" through a step (the expressions take P0, the protocols P5).
 * <p>A steady chunk is spelled as nvcc compiles CUDA's (the H200's SASS of the band kernels): lane tests made once into
 * P1 to P4, the edge window loaded over the shuffled value (no select), the edge published predicated (no branch).
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
    private final SimtBandInputs inputs;
    private final SimtBandFolding folding;
    /**
     * In a steady chunk: per sequence along the rows ({@link BandMapping#rowSequences}), the register that holds its value
     * at my row, loaded a step ahead as CUDA's steady steps load it; empty in a checked chunk, which reads it in its step.
     */
    private final Map<IrField, String> rowAhead = new LinkedHashMap<>();
    /** My point's byte offset in 4-byte fields, moved on a row every step. */
    private String point;
    /** In a steady chunk: per reach across the lanes, the predicate "my lane is left of it", made before the loop. */
    private final Map<Integer, String> leftOfReach = new TreeMap<>();
    /** In a steady chunk: the predicate "I publish the edge", made before the loop; null where it is tested per step. */
    private String publishesEdge;

    SimtBandStep(SimtBandContext cx, boolean steady, SimtBandInputs inputs, SimtBandFolding folding) {
        this.inputs = inputs;
        this.folding = folding;
        this.asm = cx.asm;
        this.mapping = cx.mapping;
        this.graph = mapping.graph();
        this.layout = cx.layout;
        this.cx = cx;
        this.edge = mapping.edge();
        this.steady = steady;
    }

    /** Steps a pass of a steady chunk's loop, as CUDA's {@code #pragma unroll 8}; the checked loop has one a pass. */
    static final int STEADY_UNROLL = 8;

    /** The chunk's 32 steps, as a loop whose labels start with {@code stem}. */
    void emitLoop(String stem) {
        asm.section(stem + " steps of a chunk" + (steady ? ": every lane computes a point of the domain" : ""));
        String row = asm.register();
        point = asm.register();
        asm.emit("IADD " + row + ", " + cx.base + ", -" + cx.lane);
        layout.emitPaddedIndex(asm, point, new String[] {row, cx.column});
        asm.emit("SHL " + point + ", " + point + ", 0x2   // my point in every field at step 0; a step adds a row");
        if (steady) {
            hoistLaneTests();
            loadFirstRowsAhead();
        }
        String k = asm.register();
        String loop = asm.label(stem + "_step");
        asm.emit("MOV " + k + ", RZ");
        asm.place(loop);
        for (int unrolled = 0; unrolled < (steady ? STEADY_UNROLL : 1); unrolled++) {
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
     * loop does): a lane left of a read's reach takes the edge window, the edge lanes publish.
     */
    private void hoistLaneTests() {
        List<Integer> reaches = mapping.reads().stream().map(BandRead::columnsBack).filter(c -> c > 0).distinct().sorted().toList();
        if (reaches.size() + (edge.crossed() ? 1 : 0) > LANE_TEST_PREDICATES.size()) {
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
        if (edge.crossed()) {
            publishesEdge = free.removeFirst();
            asm.emit("ISETP.GE.AND " + publishesEdge + ", PT, " + cx.lane + ", " + SimtAssembler.immediate(WARP - edge.columns())
                    + ", PT   // on the edge");
            if (edge.readyWords()) {
                asm.emit("ISETP.LT.AND " + publishesEdge + ", PT, " + cx.band + ", " + SimtAssembler.immediate(mapping.bands() - 1)
                        + ", " + publishesEdge);
            }
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
            asm.emit("ISETP.LT.AND P6, PT, " + i + ", " + SimtAssembler.immediate(mapping.rows()) + ", P6");
            asm.emit("ISETP.LT.AND P6, PT, " + j + ", " + SimtAssembler.immediate(mapping.columns()) + ", P6   // I compute");
        }
        Map<IrField, String> nextRows = loadNextRowsAhead(i);
        Map<List<Integer>, String> staged = loadStagedInputs(i);
        Map<BandRead, String> resolved = new HashMap<>();
        // what comes from the lanes to the left, shuffled by every lane before any branch
        Map<Source, String> shuffled = new HashMap<>();
        for (BandRead read : mapping.reads()) {
            Source from = Source.of(read);
            if (read.columnsBack() > 0 && !shuffled.containsKey(from)) {
                String source = cx.history.get(read.field())[read.stepsBack() - 1];
                String value = asm.register(read.field().type());
                asm.emit("SHFL.UP " + value + ", " + source + ", " + SimtAssembler.immediate(read.columnsBack()) + "   // "
                        + text(read) + " from lane l-" + read.columnsBack());
                if (SimtAssembler.isWide(read.field().type())) {
                    asm.emit("SHFL.UP " + SimtAssembler.high(value) + ", " + SimtAssembler.high(source) + ", "
                            + SimtAssembler.immediate(read.columnsBack()));
                }
                shuffled.put(from, value);
            }
        }
        if (hoisted()) {
            // the lanes left of a read's reach load the edge window over what the shuffle brought them
            for (BandRead read : mapping.reads()) {
                if (read.columnsBack() > 0) {
                    String value = shuffled.get(Source.of(read));
                    String at = edgeWindowAddress(read, k);
                    asm.emit(leftOfReach.get(read.columnsBack()), "LDS" + SimtAssembler.width(read.field().type()) + " " + value
                            + ", " + SimtAssembler.address(at, 0) + "   // " + text(read) + " for the lanes left of lane "
                            + read.columnsBack() + ": the left band's edge");
                    resolved.put(read, value);
                } else if (!read.samePoint()) {
                    resolved.put(read, cx.history.get(read.field())[read.rowsBack() - 1]);
                }
            }
        } else {
            // every edge window load is started before the first select waits for one, as nvcc orders them
            Map<BandRead, String> fromEdge = new HashMap<>();
            for (BandRead read : mapping.reads()) {
                if (read.columnsBack() > 0) {
                    fromEdge.put(read, loadEdgeWindow(read, k));
                }
            }
            for (BandRead read : mapping.reads()) {
                if (!read.samePoint()) {
                    resolved.put(read, resolve(read, fromEdge.get(read), shuffled.get(Source.of(read))));
                }
            }
        }
        for (IrField field : steady ? List.<IrField>of() : cx.fieldsWithHistory()) {
            asm.emit("MOV" + SimtAssembler.width(field.type()) + " " + cx.own.get(field) + ", RZ");
        }
        String outside = asm.label("outside");
        String joined = asm.label("joined");
        if (!steady) {
            asm.emit("!P6", "BRA " + outside);
        }
        Map<IrField, String> values = compute(i, j, pointExpressions(i, j, resolved, staged));
        if (!steady) {
            asm.emit("BRA " + joined);
            asm.place(outside);
            aboveTheDomain(i, j);
            asm.place(joined);
        }
        shiftHistory(values);
        nextRows.forEach((field, next) -> asm.emit("MOV" + SimtAssembler.width(field.type()) + " " + rowAhead.get(field) + ", " + next));
        if (edge.crossed() && !edge.readyWords()) {
            publishToken(s);
        }
    }

    /**
     * The step's reads of inputs that have rings, loaded from my column of the ring at the step's start, as nvcc starts
     * them under the shuffles: per field and row offset, the register that holds the value. A lane outside the domain
     * loads a slot it does not use.
     */
    private Map<List<Integer>, String> loadStagedInputs(String i) {
        Map<List<Integer>, String> staged = new LinkedHashMap<>();
        for (int actorId : graph.actorOrder()) {
            Loads.forEach(graph.actor(actorId).body(), load -> {
                IrField field = graph.field(load.field());
                List<Integer> key = List.of(field.id(), load.offset()[0]);
                if (!field.isInput() || !mapping.staged(field) || staged.containsKey(key)) {
                    return;
                }
                BandMapping.Ring ring = mapping.inputRings().stream().filter(r -> r.field().equals(field)).findFirst().orElseThrow();
                String row = i;
                if (load.offset()[0] != 0) {
                    row = asm.register();
                    asm.emit("IADD " + row + ", " + i + ", " + SimtAssembler.immediate(load.offset()[0]));
                }
                String value = asm.register(field.type());
                asm.emit("LDS" + SimtAssembler.width(field.type()) + " " + value + ", " + SimtAssembler.address(cx.ringSlot(ring, row), 0)
                        + "   // " + field.name() + "[i" + (load.offset()[0] == 0 ? "" : (load.offset()[0] > 0 ? "+" : "") + load.offset()[0])
                        + ", j] from my ring");
                staged.put(key, value);
            });
        }
        return staged;
    }

    /** Before a steady chunk's steps: each sequence along the rows at my row in the first step (row base - lane). */
    private void loadFirstRowsAhead() {
        for (IrField field : mapping.rowSequences()) {
            String current = asm.register(field.type());
            String address = asm.register();
            asm.emit("IADD " + address + ", " + cx.base + ", -" + cx.lane);
            asm.emit("SHL " + address + ", " + address + ", " + SimtAssembler.immediate(SimtAssembler.isWide(field.type()) ? 3 : 2));
            asm.emit(SimtExpressions.READ_ONLY_LOAD + SimtAssembler.width(field.type()) + " " + current + ", " + SimtAssembler.address(address, layout.fieldByte(field.id()))
                    + "   // sequence '" + field.name() + "' at my row, loaded a step ahead from here on");
            rowAhead.put(field, current);
        }
    }

    /** At a steady step's start: each sequence along the rows at my next row (clamped to the last), for the step after. */
    private Map<IrField, String> loadNextRowsAhead(String i) {
        Map<IrField, String> next = new LinkedHashMap<>();
        for (IrField field : steady ? mapping.rowSequences() : List.<IrField>of()) {
            String row = asm.register();
            asm.emit("IADD " + row + ", " + i + ", 0x1");
            asm.emit("ISETP.GT.AND P0, PT, " + row + ", " + SimtAssembler.immediate(mapping.rows() - 1) + ", PT");
            asm.emit("P0", "MOV32I " + row + ", " + SimtAssembler.immediate(mapping.rows() - 1));
            asm.emit("SHL " + row + ", " + row + ", " + SimtAssembler.immediate(SimtAssembler.isWide(field.type()) ? 3 : 2));
            String value = asm.register(field.type());
            asm.emit(SimtExpressions.READ_ONLY_LOAD + SimtAssembler.width(field.type()) + " " + value + ", " + SimtAssembler.address(row, layout.fieldByte(field.id()))
                    + "   // for my next row, loaded while this step computes");
            next.put(field, value);
        }
        return next;
    }

    /** Whether the steady loop's lane tests were made before it (so this is a steady chunk). */
    private boolean hoisted() {
        return !leftOfReach.isEmpty() || publishesEdge != null;
    }

    /**
     * My point: its actors, the ring and edge stores, my value for the lanes to my right and below. Returns the values
     * the history moves on from: per field with a history, the computed value where a steady step takes it as it is,
     * else the lane's own copy.
     */
    private Map<IrField, String> compute(String i, String j, PointExpressions point) {
        Map<IrField, String> values = new HashMap<>();
        SimtFieldAddress global = point.global();
        SimtExpressions expressions = point.expressions();
        Map<Integer, String> produced = point.produced();
        int firstEdgeLane = WARP - edge.columns();
        expressions.lowerActors(graph, produced, (actor, value) -> {
            IrField field = graph.field(actor.writes());
            String width = SimtAssembler.width(field.type());
            if (folding.folds(field)) {
                folding.store(field, i, j, value, global.at(field.id(), layout.fieldByte(field.id())), steady);
            } else {
                BandMapping.Ring ring = mapping.outputRings().stream().filter(r -> r.field().equals(field)).findFirst().orElseThrow();
                asm.emit("STS" + width + " " + SimtAssembler.address(cx.ringSlot(ring, i), 0) + ", " + value + "   // into my ring");
            }
            if (edge.crossed() && edge.fields().contains(field)) {
                publishEdge(field, i, value, "STG" + width + " " + global.at(field.id(), layout.fieldByte(field.id())) + ", "
                        + value + "   // the edge, which the band to the right reads after the token", firstEdgeLane);
            }
            if (cx.own.get(field) == null) {
                return;
            }
            if (hoisted() && !isHistory(value)) {
                values.put(field, value);
            } else {
                asm.emit("MOV" + width + " " + cx.own.get(field) + ", " + value);
                values.put(field, cx.own.get(field));
            }
        });
        return values;
    }

    /** A point's expressions, the address of its elements in global memory and the values its actors produced. */
    private record PointExpressions(SimtExpressions expressions, SimtFieldAddress global, Map<Integer, String> produced) {}

    /**
     * My point's expressions, reading a state field from {@code resolved} (filled before any actor is lowered), an input
     * from its ring or global memory, a sequence or a table as {@link SimtBandInputs} keeps it.
     */
    private PointExpressions pointExpressions(String i, String j, Map<BandRead, String> resolved, Map<List<Integer>, String> staged) {
        String g = this.point;
        String wide = null;
        if (layout.hasWideFields()) {
            wide = asm.register();
            asm.emit("IADD " + wide + ", " + g + ", " + g);
        }
        SimtFieldAddress global = new SimtFieldAddress(layout, g, wide);
        Map<Integer, String> produced = new HashMap<>();
        SimtExpressions expressions = new SimtExpressions(asm, inputs.operands(rowAhead, new PointOperands(new String[] {i, j}, cx.params, produced, load -> {
            IrField field = graph.field(load.field());
            if (field.isState()) {
                return resolved.get(new BandRead(field, -load.offset()[0], -load.offset()[1]));
            }
            if (mapping.staged(field)) {
                return staged.get(List.of(field.id(), load.offset()[0]));
            }
            String value = asm.register(field.type());
            asm.emit("LDG" + SimtAssembler.width(field.type()) + " " + value + ", "
                    + global.at(load.field(), layout.fieldByte(load.field()) + layout.byteOffset(load.field(), load.offset())));
            return value;
        })), cx.one, layout, mapping.target());
        return new PointExpressions(expressions, global, produced);
    }

    /**
     * The edge lanes publish their value for the band to the right: under the steady loop's hoisted test by predicated
     * instructions, else tested here, a token word's edge by a predicated {@code store}, a ready word behind a branch.
     */
    private void publishEdge(IrField field, String i, String value, String store, int firstEdgeLane) {
        if (publishesEdge != null) {
            if (edge.readyWords()) {
                asm.guarded(publishesEdge, () -> cx.sync.bandPublishValue(cx, field, i, value));
            } else {
                asm.emit(publishesEdge, store);
            }
            return;
        }
        asm.emit("ISETP.GE.AND P0, PT, " + cx.lane + ", " + SimtAssembler.immediate(firstEdgeLane) + ", PT   // on the edge");
        if (!edge.readyWords()) {
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
        return cx.history.values().stream().flatMap(Arrays::stream).anyMatch(register::equals);
    }

    /** A lane above the domain holds its column's halo row as its value, which the lanes below and to the right read. */
    private void aboveTheDomain(String i, String j) {
        List<IrField> fields = cx.fieldsWithHistory();
        if (fields.isEmpty() || cx.haloRows == 0) {
            return;
        }
        asm.comment("above the domain: the halo row, which the lanes below and to the right read as my history");
        asm.emit("ISETP.LT.AND P0, PT, " + i + ", RZ, PT");
        asm.emit("ISETP.GE.AND P0, PT, " + i + ", " + SimtAssembler.immediate(-cx.haloRows) + ", P0");
        asm.emit("ISETP.LT.AND P0, PT, " + j + ", " + SimtAssembler.immediate(mapping.columns()) + ", P0");
        String skip = asm.label("not_above");
        asm.emit("!P0", "BRA " + skip);
        for (IrField field : fields) {
            String[] up = cx.above.get(field);
            String width = SimtAssembler.width(field.type());
            asm.emit("MOV" + width + " " + cx.own.get(field) + ", " + up[up.length - 1]);
            for (int k = up.length - 2; k >= 0; k--) {
                asm.emit("ISETP.EQ.AND P0, PT, " + i + ", " + SimtAssembler.immediate(-1 - k) + ", PT");
                asm.emit("SEL" + width + " " + cx.own.get(field) + ", " + up[k] + ", " + cx.own.get(field) + ", P0");
            }
        }
        asm.place(skip);
    }

    /**
     * Where a read's value comes from: my own history (the same column), or, reaching left, the lane it reaches (a
     * shuffle) and, for the lanes left of that reach, the edge window, which every lane loads at a clamped index and
     * keeps only where its lane needs it, so that the step has no branch.
     */
    private String resolve(BandRead read, String fromEdge, String shuffledValue) {
        IrField field = read.field();
        if (read.columnsBack() == 0) {
            return cx.history.get(field)[read.rowsBack() - 1];
        }
        String value = asm.register(field.type());
        asm.emit("ISETP.LT.AND P0, PT, " + cx.lane + ", " + SimtAssembler.immediate(read.columnsBack()) + ", PT");
        asm.emit("SEL" + SimtAssembler.width(field.type()) + " " + value + ", " + fromEdge + ", " + shuffledValue + ", P0   // "
                + text(read) + ": the left band's edge, or lane l-" + read.columnsBack());
        return value;
    }

    /** A read across the lanes: its value in the edge window at step {@code k}, which the lanes left of its reach take. */
    private String loadEdgeWindow(BandRead read, String k) {
        IrField field = read.field();
        String at = edgeWindowAddress(read, k);
        String fromEdge = asm.register(field.type());
        asm.emit("LDS" + SimtAssembler.width(field.type()) + " " + fromEdge + ", " + SimtAssembler.address(at, 0));
        return fromEdge;
    }

    /** The address of a read's value in the edge window at step {@code k}. */
    private String edgeWindowAddress(BandRead read, String k) {
        String at = asm.register();
        asm.emit("IMAD " + at + ", " + k + ", " + SimtAssembler.immediate(GpuTarget.elementBytes(read.field().type())) + ", "
                + cx.edgeReads.get(read));
        return at;
    }

    /** The history moves on a step: each field's oldest value drops out and {@code values}' newest comes in. */
    private void shiftHistory(Map<IrField, String> values) {
        for (IrField field : cx.fieldsWithHistory()) {
            String[] back = cx.history.get(field);
            String width = SimtAssembler.width(field.type());
            for (int k = back.length - 1; k > 0; k--) {
                asm.emit("MOV" + width + " " + back[k] + ", " + back[k - 1]);
            }
            asm.emit("MOV" + width + " " + back[0] + ", " + values.get(field));
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

    /** What a read across the lanes shuffles: lane l - lanesBack's value of the field stepsBack steps ago; reads of one source share a shuffle. */
    private record Source(IrField field, int lanesBack, int stepsBack) {
        static Source of(BandRead read) {
            return new Source(read.field(), read.columnsBack(), read.stepsBack());
        }
    }

    private static String text(BandRead read) {
        return read.field().name() + "[i-" + read.rowsBack() + ", j-" + read.columnsBack() + "]";
    }
}
