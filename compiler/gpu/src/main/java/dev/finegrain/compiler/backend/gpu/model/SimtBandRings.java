package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.gpu.BandMapping;
import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.IrField;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A persistent band's rings in the model ISA ({@link SimtBands}), as {@code CudaBands} spells them: the input rings'
 * rows copied a chunk ahead by asynchronous copies (LDGSTS, waited for by DEPBAR), and after each chunk the rows it
 * finished written from the output rings to global memory. A lane of one column copies and writes its own column; lanes
 * of several columns copy and write each row together, 32 consecutive columns at a time (coalesced), and meet first.
 * The row loops are spelled as nvcc compiles them ({@link #ROWS_A_PASS}).
 */
final class SimtBandRings {

    private static final int WARP = GpuTarget.WARP;

    private final SimtBandContext cx;
    private final SimtAssembler asm;
    private final BandMapping mapping;
    /** Where a lane owns several columns: per ring's field, the shared address of my lane's element in row 0. */
    private final Map<IrField, String> ringLanes = new LinkedHashMap<>();

    SimtBandRings(SimtBandContext cx) {
        this.cx = cx;
        this.asm = cx.asm;
        this.mapping = cx.mapping;
    }

    /**
     * In the prologue: my first column's element in each ring's row 0, input rings and output rings, in my warp's rings at
     * {@code warpRings} (and, where a lane owns several columns, my lane's element, which the coalesced copies use).
     */
    void declare(String warpRings) {
        for (BandMapping.Ring ring : rings()) {
            int bytes = GpuTarget.elementBytes(ring.field().type());
            String at = asm.register();
            asm.emit("IMAD " + at + ", " + cx.lane + ", " + SimtAssembler.immediate((long) cx.lanes * bytes) + ", " + warpRings);
            asm.emit("IADD " + at + ", " + at + ", " + SimtAssembler.immediate(ring.offsetBytes()) + "   // my " + (cx.lanes == 1 ? "" : "first ")
                    + "column of " + ring.field().name() + "'s ring, row 0");
            cx.ringColumns.put(ring.field(), at);
            if (cx.lanes > 1) {
                String element = asm.register();
                asm.emit("IMAD " + element + ", " + cx.lane + ", " + SimtAssembler.immediate(bytes) + ", " + warpRings);
                asm.emit("IADD " + element + ", " + element + ", " + SimtAssembler.immediate(ring.offsetBytes()) + "   // my lane's"
                        + " element of " + ring.field().name() + "'s ring, row 0 (the coalesced copies)");
                ringLanes.put(ring.field(), element);
            }
        }
    }

    /** The input rings, then the output rings: each gets my column's address in its row 0. */
    List<BandMapping.Ring> rings() {
        return java.util.stream.Stream.concat(mapping.inputRings().stream(), mapping.outputRings().stream()).toList();
    }

    /**
     * At a chunk's start, where inputs have rings: wait until this chunk's input rows have landed (each lane copied and
     * reads its own column, so no lane waits for another), then start the copies of the next chunk's new rows.
     */
    void stageNextChunk() {
        if (mapping.inputRings().isEmpty()) {
            if (cx.lanes > 1) {
                asm.emit("WARPSYNC   // every lane is done with the last chunk's ring rows");
            }
            return;
        }
        asm.section("a chunk: its input rows have landed; the next chunk's are copied while this one computes");
        if (cx.lanes == 1) {
            asm.emit("DEPBAR   // this chunk's input rows have landed (each lane copies and reads its own column)");
        } else {
            asm.emit("DEPBAR   // this chunk's input rows have landed, those this lane copied");
            asm.emit("WARPSYNC   // every lane's copies have landed, and every lane is done with the last chunk's ring rows");
        }
        for (BandMapping.Ring ring : mapping.inputRings()) {
            String from = asm.register();
            asm.emit("IADD " + from + ", " + cx.base + ", " + SimtAssembler.immediate(32 - ring.lowestRowBack()));
            stage(ring, from, 31);
        }
    }

    /** Copies rows {@code first} to {@code last} of my column of an input ring's field, clamped to the padded field. */
    void stage(BandMapping.Ring ring, int first, int last) {
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
        if (cx.lanes > 1) {
            stageCoalesced(ring, from, span);
            return;
        }
        asm.emit("ISETP.GE.AND P0, PT, " + cx.column + ", " + SimtAssembler.immediate(mapping.columns()) + ", PT");
        asm.emit("P0", "BRA " + done);
        clampRows(r, to, from, span);
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

    /**
     * Where a lane owns several columns, the lanes copy each row together, 32 consecutive columns at a time, so that every
     * copy is coalesced: lane l copies the band's columns l, l + 32, ... of rows {@code from} to {@code from + span},
     * clamped to the padded field's rows; a column right of the domain is not copied.
     */
    private void stageCoalesced(BandMapping.Ring ring, String from, int span) {
        IrField field = ring.field();
        int bytes = GpuTarget.elementBytes(field.type());
        String r = asm.register();
        String to = asm.register();
        clampRows(r, to, from, span);
        String column = laneColumn();
        String at = asm.register();
        asm.emit("MOV " + at + ", " + cx.fieldAddress(field, r, column) + "   // my lane's column of " + field.name() + " at the first row copied");
        long pitch = (long) cx.layout.extent(1) * bytes;
        rowLoop(r, to, "copy_row", (row, k) -> {
            String slot = laneSlot(ring, row);
            for (int u = 0; u < cx.lanes; u++) {
                asm.emit("ISETP.LT.AND P2, PT, " + column + ", " + SimtAssembler.immediate(mapping.columns() - (long) WARP * u) + ", PT");
                asm.emit("P2", "LDGSTS" + SimtAssembler.width(field.type()) + " " + SimtAssembler.address(slot, (long) WARP * u * bytes) + ", "
                        + SimtAssembler.address(at, k * pitch + (long) WARP * u * bytes));
            }
        }, rows -> asm.emit("IADD " + at + ", " + at + ", " + SimtAssembler.immediate(rows * pitch)));
    }

    /** Sets rows {@code r} to {@code to} (registers) to {@code from} to {@code from + span}, clamped to the padded field's rows. */
    private void clampRows(String r, String to, String from, int span) {
        int low = -cx.layout.haloLow()[0];
        int high = mapping.rows() - 1 + cx.layout.haloHigh()[0];
        asm.emit("MOV " + r + ", " + from);
        asm.emit("ISETP.LT.AND P0, PT, " + from + ", " + SimtAssembler.immediate(low) + ", PT");
        asm.emit("P0", "MOV32I " + r + ", " + SimtAssembler.immediate(low));
        asm.emit("IADD " + to + ", " + from + ", " + SimtAssembler.immediate(span));
        asm.emit("ISETP.GT.AND P0, PT, " + to + ", " + SimtAssembler.immediate(high) + ", PT");
        asm.emit("P0", "MOV32I " + to + ", " + SimtAssembler.immediate(high));
    }

    /** A fresh register holding the band's column my lane copies first in a coalesced row: band x width + lane. */
    private String laneColumn() {
        String column = asm.register();
        asm.emit("IMAD " + column + ", " + cx.band + ", " + SimtAssembler.immediate(mapping.bandWidth()) + ", " + cx.lane);
        return column;
    }

    /** A fresh register holding the shared address of row {@code row} (a register) of my lane's element in {@code ring}. */
    private String laneSlot(BandMapping.Ring ring, String row) {
        String at = asm.register();
        asm.emit("LOP.AND " + at + ", " + row + ", " + SimtAssembler.immediate(ring.rows() - 1));
        asm.emit("IMAD " + at + ", " + at + ", " + SimtAssembler.immediate((long) ring.stride() * ring.elementBytes())
                + ", " + ringLanes.get(ring.field()));
        return at;
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

    /** After a chunk: the rows whose last lane finished in it go from my ring to global memory, my column each. */
    void writeFinishedRows() {
        if (mapping.outputRings().isEmpty()) {
            return;   // every state field is folded
        }
        if (cx.lanes > 1) {
            writeFinishedRowsCoalesced();
            return;
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

    /**
     * Where a lane owns several columns, the lanes write each finished row together, 32 consecutive columns at a time
     * (coalesced), so each writes values other lanes left in the ring: the warp meets first.
     */
    private void writeFinishedRowsCoalesced() {
        asm.section("after a chunk: the rows it finished, from the warp's ring to global memory, coalesced");
        asm.emit("WARPSYNC   // every lane's values of this chunk are in the ring");
        String r = asm.register();
        String to = asm.register();
        asm.emit("IADD " + r + ", " + cx.base + ", -0x1f");
        asm.emit("ISETP.LT.AND P0, PT, " + r + ", RZ, PT");
        asm.emit("P0", "MOV " + r + ", RZ");
        asm.emit("ISETP.GT.AND P0, PT, " + cx.base + ", " + SimtAssembler.immediate(mapping.rows() - 1) + ", PT");
        asm.emit("SEL " + to + ", " + cx.base + ", " + SimtAssembler.immediate(mapping.rows() - 1) + ", !P0");
        String column = laneColumn();
        rowLoop(r, to, "row", (row, k) -> {
            for (BandMapping.Ring ring : mapping.outputRings()) {
                IrField field = ring.field();
                int bytes = GpuTarget.elementBytes(field.type());
                String slot = laneSlot(ring, row);
                String global = cx.fieldAddress(field, row, column);
                // the row's loads first, then its stores, so that the loads are in flight together
                String[] values = new String[cx.lanes];
                for (int u = 0; u < cx.lanes; u++) {
                    values[u] = asm.register(field.type());
                    asm.emit("LDS" + SimtAssembler.width(field.type()) + " " + values[u] + ", " + SimtAssembler.address(slot, (long) WARP * u * bytes));
                }
                for (int u = 0; u < cx.lanes; u++) {
                    asm.emit("ISETP.LT.AND P2, PT, " + column + ", " + SimtAssembler.immediate(mapping.columns() - (long) WARP * u) + ", PT");
                    asm.emit("P2", "STG" + SimtAssembler.width(field.type()) + " " + SimtAssembler.address(global, (long) WARP * u * bytes) + ", " + values[u]);
                }
            }
        }, rows -> { });
    }
}
