package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.gpu.BandMapping;
import dev.finegrain.compiler.backend.gpu.BandMapping.BandEdge;
import dev.finegrain.compiler.backend.gpu.BandMapping.BandRead;
import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Spells a {@link BandMapping} in the model ISA as {@code CudaBands} spells it in CUDA: each warp walks its bands chunk
 * by chunk (32 steps), waiting at a chunk's start for the left band's edge and copying it into its window in shared
 * memory; in each step every lane shuffles in (SHFL.UP) what its reads need from the lanes to its left, the lanes whose
 * row is in the domain compute their point into the output ring and publish what the band to the right waits for, and
 * after the chunk the rows it finished go to global memory. The edge's tokens are the mechanism's {@link SimtSync} band
 * protocol. Inputs read in the lane's own column come from the mapping's input rings, copied a chunk ahead by
 * asynchronous copies (LDGSTS, waited for by DEPBAR at the next chunk's start) where the profile has them; other inputs
 * are read from global memory in the step; sequences and tables as {@link SimtBandInputs} keeps them; folded fields as
 * {@link SimtBandFolding} stores them. Where the kernel's reductions stream, one program serves both launches: each warp
 * first reads the launch index (a global load CUDA's two kernels do not make) and the second launch's warps combine.
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
    private final SimtBandRings rings;
    /** Set in the prologue, once the window's registers are. */
    private SimtBandEdge edgeCopy;

    private SimtBands(BandMapping mapping, GlobalLayout layout) {
        this.mapping = mapping;
        this.graph = mapping.graph();
        this.cx = new SimtBandContext(asm, mapping, layout);
        this.edge = mapping.edge();
        this.haloRows = cx.haloRows;
        this.inputs = new SimtBandInputs(cx);
        this.folding = new SimtBandFolding(cx);
        this.rings = new SimtBandRings(cx);
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
        rings.stageNextChunk();
        edgeCopy.copy();
        edgeCopy.waitForRoom();
        asm.comment("a chunk whose every lane has a row of the domain in every step, in a band of full width"
                + (mapping.raggedBand().runsAsFull() ? " (or the last band, where its columns right of the domain are harmless)" : "")
                + ", needs no checks");
        asm.emit("ISETP.GE.AND P0, PT, " + cx.base + ", 0x20, PT");
        asm.emit("ISETP.LT.AND P0, PT, " + cx.base + ", " + SimtAssembler.immediate(mapping.rows() - 31) + ", P0");
        if (!mapping.raggedBand().runsAsFull()) {
            asm.emit("ISETP.LT.AND P0, PT, " + cx.band + ", " + SimtAssembler.immediate(mapping.steadyBands()) + ", P0");
        }
        folding.steadyTests(cx.base, cx.band);
        asm.emit("!P0", "BRA checked_steps");
        new SimtBandStep(cx, true, false, inputs, folding).emitLoop("steady");
        asm.emit("BRA steps_done");
        asm.place("checked_steps");
        new SimtBandStep(cx, false, mapping.guardedSteps().guarded(), inputs, folding).emitLoop(mapping.guardedSteps().guarded() ? "guarded" : "checked");
        asm.place("steps_done");
        rings.writeFinishedRows();
        asm.emit("IADD " + cx.base + ", " + cx.base + ", 0x20");
        asm.emit("BRA chunk");
        asm.place("band_done");
        folding.storeKeptRegisters();
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
        folding.declareKeptRegisters();
        precomputeAddresses();
        for (IrField field : graph.fields()) {
            int depth = mapping.history()[field.id()];
            if (depth > 0) {
                String[][] back = new String[cx.lanes][depth];
                String[][] up = new String[cx.lanes][haloRows];
                String[] own = new String[cx.lanes];
                for (int c = 0; c < cx.lanes; c++) {
                    for (int k = 0; k < depth; k++) {
                        back[c][k] = asm.register(field.type());
                    }
                }
                for (int c = 0; c < cx.lanes; c++) {
                    for (int k = 0; k < haloRows; k++) {
                        up[c][k] = asm.register(field.type());
                    }
                }
                for (int c = 0; c < cx.lanes; c++) {
                    own[c] = asm.register(field.type());
                }
                cx.history.put(field, back);
                cx.above.put(field, up);
                cx.own.put(field, own);
            }
        }
        cx.column = asm.register();
        cx.columns[0] = cx.column;
        cx.base = asm.register();
        wb = asm.register();
        last = asm.register();
        cx.seen = asm.register();
        room = edge.ring() ? asm.register() : null;
        edgeCopy = new SimtBandEdge(cx, windows, wb, last, room);
        for (int c = 1; c < cx.lanes; c++) {
            cx.columns[c] = asm.register();
        }
        inputs.stageTables(tid, sharedBytes() - inputs.stagedTableBytes());
        return tid;
    }

    /**
     * What every step's addresses share, computed once as nvcc's strength reduction would: for each read across the
     * edge and column of mine that takes it, its window element at step 0 (column min(lane x lanes + c + columns - back,
     * columns - 1), row lookback - rowsBack - min(lane, reach - 1), the reach in lanes: the lanes that use it read rows 0
     * to the window's last, the others a row in range too), and my first column's element in each ring's row 0, input
     * rings and output rings (where a lane owns several columns, also my lane's element, which the coalesced copies use).
     */
    private void precomputeAddresses() {
        for (int c = 0; c < cx.lanes; c++) {
            for (BandRead read : mapping.reads()) {
                int reach = cx.lanesBack(read, c);
                if (reach == 0) {
                    continue;
                }
                int bytes = GpuTarget.elementBytes(read.field().type());
                String at = asm.register();
                int temporaries = asm.mark();
                String slot = asm.register();
                String row = asm.register();
                int first = c - read.columnsBack() + edge.columns();   // lane 0's slot
                if (cx.lanes == 1) {
                    asm.emit("IADD " + slot + ", " + cx.lane + ", " + SimtAssembler.immediate(first));
                } else {
                    asm.emit("IMUL " + slot + ", " + cx.lane + ", " + SimtAssembler.immediate(cx.lanes));
                    asm.emit("IADD " + slot + ", " + slot + ", " + SimtAssembler.immediate(first));
                }
                asm.emit("ISETP.GT.AND P0, PT, " + slot + ", " + SimtAssembler.immediate(edge.columns() - 1) + ", PT");
                asm.emit("P0", "MOV32I " + slot + ", " + SimtAssembler.immediate(edge.columns() - 1));
                asm.emit("ISETP.GT.AND P0, PT, " + cx.lane + ", " + SimtAssembler.immediate(reach - 1) + ", PT");
                asm.emit("SEL " + row + ", " + cx.lane + ", " + SimtAssembler.immediate(reach - 1) + ", !P0");
                asm.emit("IADD " + row + ", RZ, -" + row);
                asm.emit("IADD " + row + ", " + row + ", " + SimtAssembler.immediate(edge.lookbackRows() - read.rowsBack()));
                asm.emit("IMAD " + at + ", " + slot + ", " + SimtAssembler.immediate(edge.windowRows()) + ", " + row);
                asm.emit("IMAD " + at + ", " + at + ", " + SimtAssembler.immediate(bytes) + ", " + windows.get(read.field()) + "   // "
                        + read.field().name() + "[i-" + read.rowsBack() + ", j-" + read.columnsBack() + "]" + (cx.lanes == 1 ? ""
                        : " of my column " + c) + " in the window at step 0");
                cx.edgeReads.put(new SimtBandContext.ColumnRead(read, c), at);
                asm.release(temporaries);
            }
        }
        rings.declare(warpRings);
    }

    /**
     * A band's start: my columns; my values 1 to depth steps back, which before the first step are the halo rows above
     * (row -1 - k - lane), 0 beyond the halo; my columns' halo rows, which the first chunk's steps hand on as my values.
     */
    private void bandStart() {
        asm.section("a band: my column" + (cx.lanes == 1 ? "" : "s") + ", my history before its first step, my column's halo rows");
        String j = cx.column;
        if (cx.lanes == 1) {
            asm.emit("IMAD " + j + ", " + cx.band + ", " + SimtAssembler.immediate(WARP) + ", " + cx.lane + "   // my column");
        } else {
            asm.emit("IMUL " + j + ", " + cx.lane + ", " + SimtAssembler.immediate(cx.lanes));
            asm.emit("IMAD " + j + ", " + cx.band + ", " + SimtAssembler.immediate(mapping.bandWidth()) + ", " + j + "   // my first"
                    + " column; I own " + cx.lanes + " side by side");
            for (int c = 1; c < cx.lanes; c++) {
                asm.emit("IADD " + cx.columns[c] + ", " + j + ", " + SimtAssembler.immediate(c));
            }
        }
        for (int c = 0; c < cx.lanes; c++) {
            String column = cx.columns[c];
            asm.emit("ISETP.LT.AND P1, PT, " + column + ", " + SimtAssembler.immediate(mapping.columns()) + ", PT");
            for (Map.Entry<IrField, String[][]> entry : cx.history.entrySet()) {
                IrField field = entry.getKey();
                String[] back = entry.getValue()[c];
                for (int k = 0; k < back.length; k++) {
                    String row = asm.register();
                    asm.emit("IADD " + row + ", RZ, -" + cx.lane);
                    asm.emit("IADD " + row + ", " + row + ", " + SimtAssembler.immediate(-1 - k));
                    asm.emit("ISETP.GE.AND P2, PT, " + row + ", " + SimtAssembler.immediate(-haloRows) + ", P1");
                    asm.emit("MOV" + SimtAssembler.width(field.type()) + " " + back[k] + ", RZ");
                    asm.emit("P2", "LDG" + SimtAssembler.width(field.type()) + " " + back[k] + ", "
                            + SimtAssembler.address(cx.fieldAddress(field, row, column), 0));
                }
                String[] up = cx.above.get(field)[c];
                for (int k = 0; k < up.length; k++) {
                    String row = asm.constant(-1 - k);
                    asm.emit("MOV" + SimtAssembler.width(field.type()) + " " + up[k] + ", RZ");
                    asm.emit("P1", "LDG" + SimtAssembler.width(field.type()) + " " + up[k] + ", "
                            + SimtAssembler.address(cx.fieldAddress(field, row, column), 0));
                }
            }
        }
        if (edge.crossed() && edge.readyWords()) {
            for (IrField field : edge.fields()) {
                cx.myReadyWords.put(field, new String[cx.lanes]);
            }
            for (int c = 0; c < cx.lanes; c++) {
                String slot = asm.register();
                int first = edge.columns() - mapping.bandWidth() + c;   // lane 0's column c, counted from the edge's first
                if (cx.lanes == 1) {
                    asm.emit("IADD " + slot + ", " + cx.lane + ", " + SimtAssembler.immediate(first) + "   // my edge slot, if I have one");
                } else {
                    asm.emit("IMUL " + slot + ", " + cx.lane + ", " + SimtAssembler.immediate(cx.lanes));
                    asm.emit("IADD " + slot + ", " + slot + ", " + SimtAssembler.immediate(first) + "   // my column " + c + "'s edge slot, if it has one");
                }
                for (IrField field : edge.fields()) {
                    cx.myReadyWords.get(field)[c] = cx.readyWordAddress(field, 0, slot, "RZ");
                }
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
            rings.stage(ring, -31 - ring.highestRowBack(), 31 - ring.lowestRowBack());
        }
    }

}
