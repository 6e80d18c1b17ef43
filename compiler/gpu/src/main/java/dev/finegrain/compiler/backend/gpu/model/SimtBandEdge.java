package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.gpu.BandMapping;
import dev.finegrain.compiler.backend.gpu.BandMapping.BandEdge;
import dev.finegrain.compiler.backend.gpu.EdgeRing;
import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.IrField;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A persistent band's edge at the start of each chunk in the model ISA ({@link SimtBands}), as {@code CudaBandEdge}
 * spells it: the window of the left band's edge values the chunk reads, waited for through the mechanism's
 * {@link SimtSync} band protocol, the rows the last window already held kept from it, and, where the edge is a ring
 * ({@link EdgeRing}), the free counter a band publishes and the right band's counter it waits on before writing a lap on.
 */
final class SimtBandEdge {

    private static final int WARP = GpuTarget.WARP;

    private final SimtBandContext cx;
    private final SimtAssembler asm;
    private final BandMapping mapping;
    private final BandEdge edge;
    private final int haloRows;
    /** Per edge field, my warp's window in shared memory: [edge column][row]. */
    private final Map<IrField, String> windows;
    /** The window's first row and the last row a chunk reads; a ring's right band's free counter, as last read. */
    private final String wb;
    private final String last;
    private final String room;

    SimtBandEdge(SimtBandContext cx, Map<IrField, String> windows, String wb, String last, String room) {
        this.cx = cx;
        this.asm = cx.asm;
        this.mapping = cx.mapping;
        this.edge = mapping.edge();
        this.haloRows = cx.haloRows;
        this.windows = windows;
        this.wb = wb;
        this.last = last;
        this.room = room;
    }

    /**
     * At a chunk's start: the window of the left band's edge columns for the rows the chunk reads. Rows above the
     * domain and, for band 0, the columns left of it are the field's halo; the rest waits for the left band's tokens.
     */
    void copy() {
        if (!edge.crossed()) {
            return;
        }
        asm.section("a chunk: the left band's edge, rows wb to last, into my warp's window");
        int chunkRegisters = asm.mark();   // the copy's registers die with it: the window holds what it copied
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
                    int loadRegisters = asm.mark();   // a load's registers die with it: the value is in the window
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
                    asm.release(loadRegisters);
                }
            }
        }
        asm.emit("WARPSYNC   // the window is complete before any lane reads it");
        if (edge.ring()) {
            publishFreed();
        }
        asm.release(chunkRegisters);
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
    void waitForRoom() {
        if (!edge.ring()) {
            return;
        }
        asm.section("a chunk of a ring's edge: room for its rows, a lap after the band to the right copied them");
        int roomRegisters = asm.mark();
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
        asm.release(roomRegisters);
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

}
