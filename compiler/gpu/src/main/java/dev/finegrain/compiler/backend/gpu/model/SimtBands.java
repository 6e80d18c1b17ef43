package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.gpu.BandFolding;
import dev.finegrain.compiler.backend.gpu.BandMapping;
import dev.finegrain.compiler.backend.gpu.EdgeRing;
import dev.finegrain.compiler.backend.gpu.BandMapping.BandEdge;
import dev.finegrain.compiler.backend.gpu.BandMapping.BandRead;
import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.plan.DataflowPlan;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Spells a {@link BandMapping} in the model ISA as {@code CudaBands} spells it in CUDA: each warp walks its bands chunk
 * by chunk (32 steps), waiting at a chunk's start for the left band's edge and copying it into its window in shared
 * memory; in each step every lane shuffles in (SHFL.UP) what its reads need from the lanes to its left, the lanes whose
 * row is in the domain compute their point into the output ring and publish what the band to the right waits for, and
 * after the chunk the rows it finished go to global memory. The edge's tokens are the mechanism's {@link SimtSync} band
 * protocol. Inputs read in the lane's own column come from the mapping's input rings, copied a chunk ahead by
 * asynchronous copies (LDGSTS, waited for by DEPBAR at the next chunk's start) where the profile has them; other inputs
 * are read from global memory in the step, and so are sequences along the rows, which CUDA's steady steps load a step
 * ahead ({@link BandMapping#rowSequences}): the same values, a cost the model does not spell yet.
 */
final class SimtBands {

    private static final int WARP = GpuTarget.WARP;

    private final BandMapping mapping;
    private final KernelGraph graph;
    private final SimtAssembler asm = new SimtAssembler();
    private final SimtBandContext cx;
    private final BandEdge edge;
    private final int haloRows;
    private final SimtBandInputs inputs;
    private final SimtBandFolding folding;
    /** My warp's rings, and per edge field my warp's window, in shared memory. */
    private String warpRings;
    private final Map<IrField, String> windows = new LinkedHashMap<>();
    /** The window's first row and the last row a chunk reads. */
    private String wb;
    private String last;
    /** A ring's edge: the band to the right's free counter, as last read. */
    private String room;

    private SimtBands(BandMapping mapping, GlobalLayout layout) {
        this.mapping = mapping;
        this.graph = mapping.graph();
        this.cx = new SimtBandContext(asm, mapping, layout);
        this.edge = mapping.edge();
        this.haloRows = cx.haloRows;
        this.inputs = new SimtBandInputs(cx);
        this.folding = new SimtBandFolding(cx);
    }

    /**
     * What of lock-dataflow:persistent the model ISA does not spell yet for this kernel and plan, if anything (at any
     * size): each a decision of the mapping whose spelling it would lose.
     */
    static Optional<String> unsupported(DataflowPlan plan) {
        int columns = plan.lockChoices().laneColumns().orElse(1);
        return columns == 1 ? Optional.empty() : Optional.of("the GPU model spells lock-dataflow:persistent with one column a lane;"
                + " kernel '" + plan.graph().name() + "' maps to lanes of " + columns + " columns here; run it on the cuda backend,"
                + " or use lock-dataflow:persistent (one column a lane) on the model");
    }

    static SimtKernel emit(BandMapping mapping, GlobalLayout layout) {
        return new SimtBands(mapping, layout).emit();
    }

    /** Shared memory of a block: the warps' rings, then per edge field the warps' windows. */
    private int windowBytes(IrField field) {
        return edge.columns() * edge.windowRows() * GpuTarget.elementBytes(field.type());
    }

    private int sharedBytes() {
        int bytes = mapping.warpsPerBlock() * mapping.warpSharedBytes();
        for (IrField field : edge.crossed() ? edge.fields() : List.<IrField>of()) {
            bytes += mapping.warpsPerBlock() * windowBytes(field);
        }
        return bytes + inputs.stagedTableBytes();
    }

    private SimtKernel emit() {
        asm.section(graph.name() + ": " + mapping.launchPlan());
        String tid = prologue();
        String bandLoop = "band";
        asm.place(bandLoop);
        asm.emit("ISETP.GE.AND P0, PT, " + cx.band + ", " + SimtAssembler.immediate(mapping.bands()) + ", PT");
        asm.emit("P0", "BRA end");
        bandStart();
        asm.place("chunk");
        asm.emit("ISETP.GE.AND P0, PT, " + cx.base + ", " + SimtAssembler.immediate(mapping.stepsPerBand()) + ", PT");
        asm.emit("P0", "BRA band_done");
        stageNextChunk();
        chunkEdge();
        waitForRoom();
        asm.comment("a chunk whose every lane has a row of the domain in every step, in a band of full width, needs no checks");
        asm.emit("ISETP.GE.AND P0, PT, " + cx.base + ", 0x20, PT");
        asm.emit("ISETP.LT.AND P0, PT, " + cx.base + ", " + SimtAssembler.immediate(mapping.rows() - 31) + ", P0");
        asm.emit("ISETP.LT.AND P0, PT, " + cx.band + ", " + SimtAssembler.immediate(mapping.columns() / WARP) + ", P0");
        folding.steadyTests(cx.base);
        asm.emit("!P0", "BRA checked_steps");
        new SimtBandStep(cx, true, inputs, folding).emitLoop("steady");
        asm.emit("BRA steps_done");
        asm.place("checked_steps");
        new SimtBandStep(cx, false, inputs, folding).emitLoop("checked");
        asm.place("steps_done");
        writeFinishedRows();
        asm.emit("IADD " + cx.base + ", " + cx.base + ", 0x20");
        asm.emit("BRA chunk");
        asm.place("band_done");
        folding.bandEnd();
        asm.emit("IADD " + cx.band + ", " + cx.band + ", " + SimtAssembler.immediate((long) mapping.blocks() * mapping.warpsPerBlock()));
        asm.emit("BRA " + bandLoop);
        asm.place("end");
        asm.emit("EXIT");
        if (mapping.blocksPerLaunch().size() > 1) {
            asm.place("combine");
            folding.combineLaunch(tid);
        }
        int shared = sharedBytes();
        return new SimtKernel(asm.text(), mapping.launchPlan(), mapping.threadsPerBlock(), mapping.blocksPerLaunch(), shared, 0, -1,
                new SimtKernel.Resources(0, shared, 0, 0, 0, asm.registersUsed()));
    }

    /** The prologue; returns the register that holds my thread's index in the block. */
    private String prologue() {
        asm.section("prologue: my lane, warp and first band; the params; my warp's rings and windows in shared memory");
        String tid = asm.register();
        asm.emit("S2R " + tid + ", SR_TID.X");
        if (mapping.blocksPerLaunch().size() > 1) {
            String launch = asm.register();
            asm.emit("LDG " + launch + ", [" + SimtAssembler.immediate(GlobalLayout.LAUNCH_INDEX_BYTE) + "]");
            asm.emit("ISETP.NE.AND P0, PT, " + launch + ", RZ, PT");
            asm.emit("P0", "BRA combine   // the second launch combines the bands' reductions");
        }
        cx.lane = asm.register();
        asm.emit("LOP.AND " + cx.lane + ", " + tid + ", 0x1f");
        String warp = asm.register();
        asm.emit("SHR.U32 " + warp + ", " + tid + ", 0x5");
        String block = asm.register();
        asm.emit("S2R " + block + ", SR_CTAID.X");
        cx.band = asm.register();
        asm.emit("IMAD " + cx.band + ", " + block + ", " + SimtAssembler.immediate(mapping.warpsPerBlock()) + ", " + warp);
        cx.one = asm.constant(1);
        cx.params.putAll(SimtParams.load(asm, graph, cx.layout));
        warpRings = asm.register();
        asm.emit("IMUL " + warpRings + ", " + warp + ", " + SimtAssembler.immediate(mapping.warpSharedBytes()) + "   // my warp's rings");
        int next = mapping.warpsPerBlock() * mapping.warpSharedBytes();
        for (IrField field : edge.crossed() ? edge.fields() : List.<IrField>of()) {
            String window = asm.register();
            asm.emit("IMUL " + window + ", " + warp + ", " + SimtAssembler.immediate(windowBytes(field)));
            asm.emit("IADD " + window + ", " + window + ", " + SimtAssembler.immediate(next) + "   // my warp's window of "
                    + field.name() + ": [edge column][row]");
            windows.put(field, window);
            next += mapping.warpsPerBlock() * windowBytes(field);
        }
        inputs.declare(warpRings);
        folding.declare();
        precomputeAddresses();
        for (IrField field : graph.fields()) {
            int depth = mapping.history()[field.id()];
            if (depth > 0) {
                String[] back = new String[depth];
                for (int k = 0; k < depth; k++) {
                    back[k] = asm.register(field.type());
                }
                cx.history.put(field, back);
                String[] up = new String[haloRows];
                for (int k = 0; k < haloRows; k++) {
                    up[k] = asm.register(field.type());
                }
                cx.above.put(field, up);
                cx.own.put(field, asm.register(field.type()));
            }
        }
        cx.column = asm.register();
        cx.base = asm.register();
        wb = asm.register();
        last = asm.register();
        cx.seen = asm.register();
        room = edge.ring() ? asm.register() : null;
        inputs.stageTables(tid, sharedBytes() - inputs.stagedTableBytes());
        return tid;
    }

    /**
     * What every step's addresses share, computed once as nvcc's strength reduction would: for each read across the
     * edge, its window element at step 0 (column min(lane + columns - back, columns - 1), row lookback - rowsBack -
     * min(lane, back - 1): the lanes that use it read rows 0 to the window's last, the others a row in range too), and
     * my column's element in each ring's row 0, input rings and output rings.
     */
    private void precomputeAddresses() {
        for (BandRead read : mapping.reads()) {
            if (read.columnsBack() == 0 || cx.edgeReads.containsKey(read)) {
                continue;
            }
            int bytes = GpuTarget.elementBytes(read.field().type());
            String slot = asm.register();
            String row = asm.register();
            String at = asm.register();
            asm.emit("IADD " + slot + ", " + cx.lane + ", " + SimtAssembler.immediate(edge.columns() - read.columnsBack()));
            asm.emit("ISETP.GT.AND P0, PT, " + slot + ", " + SimtAssembler.immediate(edge.columns() - 1) + ", PT");
            asm.emit("P0", "MOV32I " + slot + ", " + SimtAssembler.immediate(edge.columns() - 1));
            asm.emit("ISETP.GT.AND P0, PT, " + cx.lane + ", " + SimtAssembler.immediate(read.columnsBack() - 1) + ", PT");
            asm.emit("SEL " + row + ", " + cx.lane + ", " + SimtAssembler.immediate(read.columnsBack() - 1) + ", !P0");
            asm.emit("IADD " + row + ", RZ, -" + row);
            asm.emit("IADD " + row + ", " + row + ", " + SimtAssembler.immediate(edge.lookbackRows() - read.rowsBack()));
            asm.emit("IMAD " + at + ", " + slot + ", " + SimtAssembler.immediate(edge.windowRows()) + ", " + row);
            asm.emit("IMAD " + at + ", " + at + ", " + SimtAssembler.immediate(bytes) + ", " + windows.get(read.field()) + "   // "
                    + read.field().name() + "[i-" + read.rowsBack() + ", j-" + read.columnsBack() + "] in the window at step 0");
            cx.edgeReads.put(read, at);
        }
        for (BandMapping.Ring ring : rings()) {
            String at = asm.register();
            asm.emit("IMAD " + at + ", " + cx.lane + ", " + SimtAssembler.immediate(GpuTarget.elementBytes(ring.field().type())) + ", " + warpRings);
            asm.emit("IADD " + at + ", " + at + ", " + SimtAssembler.immediate(ring.offsetBytes()) + "   // my column of "
                    + ring.field().name() + "'s ring, row 0");
            cx.ringColumns.put(ring.field(), at);
        }
    }

    /**
     * A band's start: my column; my values 1 to depth steps back, which before the first step are the halo rows above
     * (row -1 - k - lane), 0 beyond the halo; my column's halo rows, which the first chunk's steps hand on as my values.
     */
    private void bandStart() {
        asm.section("a band: my column, my history before its first step, my column's halo rows");
        String j = cx.column;
        asm.emit("IMAD " + j + ", " + cx.band + ", " + SimtAssembler.immediate(WARP) + ", " + cx.lane + "   // my column");
        asm.emit("ISETP.LT.AND P1, PT, " + j + ", " + SimtAssembler.immediate(mapping.columns()) + ", PT");
        for (Map.Entry<IrField, String[]> entry : cx.history.entrySet()) {
            IrField field = entry.getKey();
            String[] back = entry.getValue();
            for (int k = 0; k < back.length; k++) {
                String row = asm.register();
                asm.emit("IADD " + row + ", RZ, -" + cx.lane);
                asm.emit("IADD " + row + ", " + row + ", " + SimtAssembler.immediate(-1 - k));
                asm.emit("ISETP.GE.AND P2, PT, " + row + ", " + SimtAssembler.immediate(-haloRows) + ", P1");
                asm.emit("MOV" + SimtAssembler.width(field.type()) + " " + back[k] + ", RZ");
                asm.emit("P2", "LDG" + SimtAssembler.width(field.type()) + " " + back[k] + ", "
                        + SimtAssembler.address(cx.fieldAddress(field, row, j), 0));
            }
            String[] up = cx.above.get(field);
            for (int k = 0; k < up.length; k++) {
                String row = asm.constant(-1 - k);
                asm.emit("MOV" + SimtAssembler.width(field.type()) + " " + up[k] + ", RZ");
                asm.emit("P1", "LDG" + SimtAssembler.width(field.type()) + " " + up[k] + ", "
                        + SimtAssembler.address(cx.fieldAddress(field, row, j), 0));
            }
        }
        if (edge.crossed() && edge.readyWords()) {
            String slot = asm.register();
            asm.emit("IADD " + slot + ", " + cx.lane + ", " + SimtAssembler.immediate(edge.columns() - WARP) + "   // my edge slot, if I have one");
            for (IrField field : edge.fields()) {
                cx.myReadyWords.put(field, cx.readyWordAddress(field, 0, slot, "RZ"));
            }
        }
        inputs.bandStart();
        folding.bandStart();
        if (room != null) {
            asm.emit("MOV " + room + ", RZ   // the band to the right's free counter, as last read");
        }
        asm.emit("MOV " + cx.seen + ", RZ   // tokens of the band to the left already waited for");
        asm.emit("MOV " + cx.base + ", RZ");
        for (BandMapping.Ring ring : mapping.inputRings()) {
            asm.comment("the first chunk's rows of input " + ring.field().name() + ", copied into my ring while the warp goes on");
            stage(ring, -31 - ring.highestRowBack(), 31 - ring.lowestRowBack());
        }
    }

    /** The input rings, then the output rings: each gets my column's address in its row 0. */
    private List<BandMapping.Ring> rings() {
        return java.util.stream.Stream.concat(mapping.inputRings().stream(), mapping.outputRings().stream()).toList();
    }

    /**
     * At a chunk's start, where inputs have rings: wait until this chunk's input rows have landed (each lane copied and
     * reads its own column, so no lane waits for another), then start the copies of the next chunk's new rows.
     */
    private void stageNextChunk() {
        if (mapping.inputRings().isEmpty()) {
            return;
        }
        asm.section("a chunk: its input rows have landed; the next chunk's are copied while this one computes");
        asm.emit("DEPBAR   // this chunk's input rows have landed (each lane copies and reads its own column)");
        for (BandMapping.Ring ring : mapping.inputRings()) {
            String from = asm.register();
            asm.emit("IADD " + from + ", " + cx.base + ", " + SimtAssembler.immediate(32 - ring.lowestRowBack()));
            stage(ring, from, 31);
        }
    }

    /** Copies rows {@code first} to {@code last} of my column of an input ring's field, clamped to the padded field. */
    private void stage(BandMapping.Ring ring, int first, int last) {
        String from = asm.register();
        asm.emit("MOV32I " + from + ", " + SimtAssembler.immediate(first));
        stage(ring, from, last - first);
    }

    /**
     * Starts the copies of rows {@code from} (a register) to {@code from + span} of my column of an input ring's field,
     * clamped to the padded field's rows; a lane right of the domain copies nothing.
     */
    private void stage(BandMapping.Ring ring, String from, int span) {
        IrField field = ring.field();
        String r = asm.register();
        String to = asm.register();
        String at = asm.register();
        String done = asm.label("copied");
        int low = -cx.layout.haloLow()[0];
        int high = mapping.rows() - 1 + cx.layout.haloHigh()[0];
        asm.emit("ISETP.GE.AND P0, PT, " + cx.column + ", " + SimtAssembler.immediate(mapping.columns()) + ", PT");
        asm.emit("P0", "BRA " + done);
        asm.emit("MOV " + r + ", " + from);
        asm.emit("ISETP.LT.AND P0, PT, " + from + ", " + SimtAssembler.immediate(low) + ", PT");
        asm.emit("P0", "MOV32I " + r + ", " + SimtAssembler.immediate(low));
        asm.emit("IADD " + to + ", " + from + ", " + SimtAssembler.immediate(span));
        asm.emit("ISETP.GT.AND P0, PT, " + to + ", " + SimtAssembler.immediate(high) + ", PT");
        asm.emit("P0", "MOV32I " + to + ", " + SimtAssembler.immediate(high));
        String global = cx.fieldAddress(field, r, cx.column);
        asm.emit("MOV " + at + ", " + global + "   // my column of " + field.name() + " at the first row copied");
        long pitch = (long) cx.layout.extent(1) * GpuTarget.elementBytes(field.type());
        rowLoop(r, to, "copy_row", (row, k) -> {
            String slot = cx.ringSlot(ring, row);
            asm.emit("LDGSTS" + SimtAssembler.width(field.type()) + " " + SimtAssembler.address(slot, 0) + ", "
                    + SimtAssembler.address(at, k * pitch));
        }, rows -> asm.emit("IADD " + at + ", " + at + ", " + SimtAssembler.immediate(rows * pitch)));
        asm.place(done);
    }

    /** Rows a pass of a row loop's main part, as nvcc unrolls the bands' simple row loops (their SASS: four a pass). */
    static final int ROWS_A_PASS = 4;

    /**
     * Rows {@code r} to {@code to} (registers; {@code r} moves on) as nvcc compiles a simple loop over them: passes of
     * {@link #ROWS_A_PASS} rows while that many remain, then a row a pass. {@code row} spells a row of a pass given
     * the register that holds it and its place k in the pass (row r + k); {@code advance} moves the loop's addresses on
     * by so many rows after each pass. Labels start with {@code stem}.
     */
    private void rowLoop(String r, String to, String stem, java.util.function.ObjIntConsumer<String> row,
                         java.util.function.LongConsumer advance) {
        String passes = asm.label(stem + "s");
        String rest = asm.label(stem);
        String done = asm.label(stem + "s_done");
        String lastOfPass = asm.register();
        asm.place(passes);
        asm.emit("IADD " + lastOfPass + ", " + r + ", " + SimtAssembler.immediate(ROWS_A_PASS - 1));
        asm.emit("ISETP.GT.AND P0, PT, " + lastOfPass + ", " + to + ", PT");
        asm.emit("P0", "BRA " + rest);
        for (int k = 0; k < ROWS_A_PASS; k++) {
            int rowRegisters = asm.mark();
            String rowK = r;
            if (k > 0) {
                rowK = asm.register();
                asm.emit("IADD " + rowK + ", " + r + ", " + SimtAssembler.immediate(k));
            }
            row.accept(rowK, k);
            asm.release(rowRegisters);
        }
        advance.accept(ROWS_A_PASS);
        asm.emit("IADD " + r + ", " + r + ", " + SimtAssembler.immediate(ROWS_A_PASS));
        asm.emit("BRA " + passes);
        asm.place(rest);
        asm.emit("ISETP.GT.AND P0, PT, " + r + ", " + to + ", PT");
        asm.emit("P0", "BRA " + done);
        int rowRegisters = asm.mark();
        row.accept(r, 0);
        asm.release(rowRegisters);
        advance.accept(1);
        asm.emit("IADD " + r + ", " + r + ", 0x1");
        asm.emit("BRA " + rest);
        asm.place(done);
    }

    /**
     * At a chunk's start: the window of the left band's edge columns for the rows the chunk reads. Rows above the
     * domain and, for band 0, the columns left of it are the field's halo; the rest waits for the left band's tokens.
     */
    private void chunkEdge() {
        if (!edge.crossed()) {
            return;
        }
        asm.section("a chunk: the left band's edge, rows wb to last, into my warp's window");
        asm.emit("IADD " + wb + ", " + cx.base + ", " + SimtAssembler.immediate(-edge.lookbackRows()) + "   // the window's first row");
        int carried = edge.carriedRows();
        Map<IrField, String> carriedValues = new LinkedHashMap<>();
        for (IrField field : carried > 0 ? edge.fields() : List.<IrField>of()) {
            String value = asm.register(field.type());
            forEachCarriedCell(field, (at, from) -> asm.emit("P0", "LDS" + SimtAssembler.width(field.type()) + " " + value + ", "
                    + SimtAssembler.address(windows.get(field), from) + "   // the last window's last rows, this one's first"));
            carriedValues.put(field, value);
        }
        asm.emit("WARPSYNC   // every lane has read the last chunk's window before it is overwritten");
        asm.emit("IADD " + last + ", " + cx.base + ", 0x1f");
        asm.emit("ISETP.GT.AND P0, PT, " + last + ", " + SimtAssembler.immediate(mapping.rows() - 1) + ", PT");
        asm.emit("P0", "MOV32I " + last + ", " + SimtAssembler.immediate(mapping.rows() - 1) + "   // the last row this chunk reads");
        if (!edge.readyWords()) {
            asm.emit("ISETP.EQ.AND P0, PT, " + cx.band + ", RZ, PT");
            asm.emit("P0", "BRA waited");
            cx.sync.bandWait(cx, last);
            asm.place("waited");
        }
        String start = null;   // the window's first row to load: 0 at a band's start, else the first one not carried
        if (carried > 0) {
            start = asm.register();
            asm.emit("MOV " + start + ", RZ");
            asm.emit("ISETP.GT.AND P1, PT, " + cx.base + ", RZ, PT");
            asm.emit("P1", "MOV32I " + start + ", " + SimtAssembler.immediate(carried));
            for (IrField field : edge.fields()) {
                forEachCarriedCell(field, (at, from) -> asm.emit("P0", "STS" + SimtAssembler.width(field.type()) + " "
                        + SimtAssembler.address(windows.get(field), at) + ", " + carriedValues.get(field)), "P1");
            }
        }
        for (IrField field : edge.fields()) {
            int bytes = GpuTarget.elementBytes(field.type());
            for (int slot = 0; slot < edge.columns(); slot++) {
                for (int first = 0; first < edge.windowRows(); first += WARP) {
                    String x = asm.register();
                    String row = asm.register();
                    String value = asm.register(field.type());
                    String skip = asm.label("window_done");
                    String halo = asm.label("window_halo");
                    String store = asm.label("window_store");
                    asm.emit("IADD " + x + ", " + cx.lane + ", " + SimtAssembler.immediate(first));
                    if (start != null) {
                        asm.emit("IADD " + x + ", " + x + ", " + start);
                    }
                    asm.emit("IADD " + row + ", " + wb + ", " + x);
                    asm.emit("ISETP.GE.AND P0, PT, " + x + ", " + SimtAssembler.immediate(edge.windowRows()) + ", PT");
                    asm.emit("ISETP.LT.OR P0, PT, " + row + ", " + SimtAssembler.immediate(-haloRows) + ", P0");
                    asm.emit("ISETP.GT.OR P0, PT, " + row + ", " + last + ", P0");
                    asm.emit("P0", "BRA " + skip);
                    asm.emit("ISETP.EQ.AND P0, PT, " + cx.band + ", RZ, PT");
                    asm.emit("ISETP.LT.OR P0, PT, " + row + ", RZ, P0");
                    asm.emit("P0", "BRA " + halo);
                    cx.sync.bandLoadEdge(cx, field, row, slot, value);
                    asm.emit("BRA " + store);
                    asm.place(halo);
                    asm.emit("LDG" + SimtAssembler.width(field.type()) + " " + value + ", "
                            + SimtAssembler.address(cx.leftEdgeAddress(field, row, slot), 0) + "   // the halo");
                    asm.place(store);
                    String at = asm.register();
                    asm.emit("IMAD " + at + ", " + x + ", " + SimtAssembler.immediate(bytes) + ", " + windows.get(field));
                    asm.emit("STS" + SimtAssembler.width(field.type()) + " " + SimtAssembler.address(at, (long) slot * edge.windowRows() * bytes)
                            + ", " + value);
                    asm.place(skip);
                }
            }
        }
        asm.emit("WARPSYNC   // the window is complete before any lane reads it");
        if (edge.ring()) {
            publishFreed();
        }
    }

    /**
     * A ring's free counter: lane 0 says, every {@link EdgeRing#FREE_EVERY_CHUNKS} chunks and in the last, that the rows
     * before the next chunk's window are copied for good, so the band to the left may write over them (a release).
     */
    private void publishFreed() {
        int every = EdgeRing.FREE_EVERY_CHUNKS * WARP;
        String skip = asm.label("freed");
        String low = asm.register();
        asm.emit("LOP.AND " + low + ", " + cx.base + ", " + SimtAssembler.immediate(every - 1));
        asm.emit("ISETP.EQ.AND P0, PT, " + low + ", " + SimtAssembler.immediate(every - WARP) + ", PT");
        asm.emit("ISETP.GE.OR P0, PT, " + cx.base + ", " + SimtAssembler.immediate(mapping.stepsPerBand() - WARP) + ", P0");
        asm.emit("ISETP.EQ.AND P0, PT, " + cx.lane + ", RZ, P0");
        asm.emit("ISETP.GT.AND P0, PT, " + cx.band + ", RZ, P0");
        asm.emit("!P0", "BRA " + skip);
        String freed = asm.register();
        String at = asm.register();
        asm.emit("IADD " + freed + ", " + cx.base + ", " + SimtAssembler.immediate(WARP - edge.lookbackRows()));
        asm.emit("IMAD " + at + ", " + cx.band + ", 0x4, " + asm.constant(cx.layout.scratchByte() + mapping.freeCountersAt()));
        asm.emit("MEMBAR.GL   // the window's copies, then the counter (a release)");
        asm.emit("STG " + SimtAssembler.address(at, 0) + ", " + freed + "   // my free counter: the left band may write over the rows before it");
        asm.place(skip);
    }

    /**
     * A ring's other direction: before a chunk whose rows (up to base + 31) would go into the slots of rows a lap
     * earlier, the warp waits until the band to its right has copied those (its free counter); lane 0 reads the counter
     * and the warp meets, so every lane's stores come after the read.
     */
    private void waitForRoom() {
        if (!edge.ring()) {
            return;
        }
        asm.section("a chunk of a ring's edge: room for its rows, a lap after the band to the right copied them");
        String needed = asm.register();
        String skip = asm.label("room");
        String spin = asm.label("room_spin");
        String read = asm.label("room_read");
        asm.emit("IADD " + needed + ", " + cx.base + ", " + SimtAssembler.immediate(-(edge.ringRows() - WARP)));
        asm.emit("ISETP.GT.AND P0, PT, " + needed + ", " + room + ", PT");
        asm.emit("ISETP.LT.AND P0, PT, " + cx.band + ", " + SimtAssembler.immediate(mapping.bands() - 1) + ", P0");
        asm.emit("!P0", "BRA " + skip);
        asm.emit("ISETP.NE.AND P0, PT, " + cx.lane + ", RZ, PT");
        asm.emit("P0", "BRA " + read);
        String at = asm.register();
        asm.emit("IMAD " + at + ", " + cx.band + ", 0x4, " + asm.constant(cx.layout.scratchByte() + mapping.freeCountersAt() + 4));
        asm.place(spin);
        asm.emit("LDG " + room + ", " + SimtAssembler.address(at, 0) + "   // the right band's free counter (acquire)");
        asm.emit("ISETP.LT.AND P0, PT, " + room + ", " + needed + ", PT");
        asm.emit("P0", "BRA " + spin);
        asm.place(read);
        asm.emit("WARPSYNC   // every lane's stores after the read");
        asm.emit("SHFL.IDX " + room + ", " + room + ", RZ");
        asm.place(skip);
    }

    private void forEachCarriedCell(IrField field, java.util.function.BiConsumer<Long, Long> access) {
        forEachCarriedCell(field, access, "PT");
    }

    /**
     * The window cells a chunk keeps from the last one ({@link BandEdge#carriedRows}), lane k the k-th: {@code access}
     * gets the cell's byte offset in the window and that of the last window's cell it comes from, with P0 set for the
     * lane that holds it (and {@code also} holds).
     */
    private void forEachCarriedCell(IrField field, java.util.function.BiConsumer<Long, Long> access, String also) {
        int carried = edge.carriedRows();
        int bytes = GpuTarget.elementBytes(field.type());
        for (int cell = 0; cell < edge.columns() * carried; cell++) {
            long slot = (long) (cell / carried) * edge.windowRows();
            asm.emit("ISETP.EQ.AND P0, PT, " + cx.lane + ", " + SimtAssembler.immediate(cell) + ", " + also);
            access.accept((slot + cell % carried) * bytes, (slot + WARP + cell % carried) * bytes);
        }
    }

    /** After a chunk: the rows whose last lane finished in it go from my ring to global memory, my column each. */
    private void writeFinishedRows() {
        if (mapping.outputRings().isEmpty()) {
            return;   // every state field is folded
        }
        asm.section("after a chunk: the rows it finished, from my ring to global memory");
        String r = asm.register();
        String to = asm.register();
        asm.emit("ISETP.GE.AND P0, PT, " + cx.column + ", " + SimtAssembler.immediate(mapping.columns()) + ", PT");
        asm.emit("P0", "BRA rows_done");
        asm.emit("IADD " + r + ", " + cx.base + ", -0x1f");
        asm.emit("ISETP.LT.AND P0, PT, " + r + ", RZ, PT");
        asm.emit("P0", "MOV " + r + ", RZ");
        asm.emit("ISETP.GT.AND P0, PT, " + cx.base + ", " + SimtAssembler.immediate(mapping.rows() - 1) + ", PT");
        asm.emit("SEL " + to + ", " + cx.base + ", " + SimtAssembler.immediate(mapping.rows() - 1) + ", !P0");
        rowLoop(r, to, "row", (row, k) -> {
            for (BandMapping.Ring ring : mapping.outputRings()) {
                IrField field = ring.field();
                String value = asm.register(field.type());
                asm.emit("LDS" + SimtAssembler.width(field.type()) + " " + value + ", " + SimtAssembler.address(cx.ringSlot(ring, row), 0));
                asm.emit("STG" + SimtAssembler.width(field.type()) + " " + SimtAssembler.address(cx.fieldAddress(field, row, cx.column), 0) + ", " + value);
            }
        }, rows -> { });
        asm.place("rows_done");
    }
}
