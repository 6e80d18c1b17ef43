package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.gpu.CopyBox;
import dev.finegrain.compiler.backend.gpu.DataParallelMapping;
import dev.finegrain.compiler.backend.gpu.GlobalReads;
import dev.finegrain.compiler.backend.gpu.TileGeometry;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;

import java.util.List;

/**
 * Spells the copy of a {@link DataParallelMapping}'s tile into shared memory in the model ISA, as CUDA's
 * {@code CudaDataParallel} copies it: the fields a block fetches whole in rounds over every word of the tile, the
 * fields it fetches in part ({@link DataParallelMapping#copies}) in a loop over each box.
 */
final class SimtTileCopy {

    private final KernelGraph graph;
    private final DataParallelMapping mapping;
    private final GlobalLayout layout;
    private final TileGeometry tile;
    private final int lanes;
    private final SimtAssembler asm;
    private final int[] dataBase;
    private final String lane;
    private final String[] origin;

    /** {@code lane}: the lane's index register; {@code origin}: the tile's first interior point, per dimension. */
    SimtTileCopy(DataParallelMapping mapping, GlobalLayout layout, SimtAssembler asm, String lane, String[] origin) {
        this.graph = mapping.graph();
        this.mapping = mapping;
        this.layout = layout;
        this.tile = mapping.tile();
        this.lanes = mapping.lanes();
        this.asm = asm;
        this.dataBase = mapping.dataBase();
        this.lane = lane;
        this.origin = origin;
    }

    /**
     * The copy: the fields a block fetches whole in rounds over the tile, then each box of a field it fetches in part;
     * where the copy is asynchronous, every lane waits for its copies once at the end (DEPBAR).
     */
    void emit() {
        List<IrField> whole = GlobalReads.stagedFields(graph).stream().filter(mapping::copiesWhole).toList();
        asm.section((whole.size() == GlobalReads.stagedFields(graph).size() ? "copy the tile and its halo of every field"
                : "copy the words of each field the tile reads before it writes them") + " into shared memory, "
                + (whole.isEmpty() ? "a word per lane and round" : mapping.copyUnroll() + " words per lane and round")
                + (mapping.asyncCopy() ? ", by asynchronous copies (LDGSTS), waited for once" : ""));
        if (!whole.isEmpty()) {
            emitWholeCopy(whole);
        }
        for (IrField field : GlobalReads.stagedFields(graph)) {
            if (!mapping.copiesWhole(field)) {
                for (CopyBox box : mapping.copies().get(field.id())) {
                    int mark = asm.mark();
                    emitBoxCopy(field, box);
                    asm.release(mark);   // a box's registers live only in its loop, as a compiler's allocator reuses them
                }
            }
        }
        if (mapping.asyncCopy()) {
            asm.emit("DEPBAR   // every copy of this lane has landed; the barrier makes them every lane's");
        }
    }

    /**
     * The fields a block fetches whole: word k = row * width + column for k = lane, lane + lanes, ...; the mapping's
     * copy unroll of words per lane and round, every load issued before the first store, so the loads overlap as a
     * compiler's unrolled copy loop makes them; or, where the mapping copies asynchronously, each word an LDGSTS (a 0
     * stored outside the padded fields). A round's last words may fall past the tile, into each array's padding.
     */
    private void emitWholeCopy(List<IrField> copied) {
        String row = asm.register();
        String column = asm.register();
        String word = asm.register();
        String plane = graph.rank() == 3 ? asm.register() : null;
        if (plane != null) {
            asm.comment("word = lane: plane, row and column of the copy (" + tile.rows() + " rows of " + tile.width()
                    + " words a plane)");
            String divisor = asm.constant(tile.width());
            asm.emit("IREM " + column + ", " + lane + ", " + divisor);
            asm.emit("IDIV " + row + ", " + lane + ", " + divisor);
            asm.emit("MOV32I " + divisor + ", " + SimtAssembler.immediate(tile.rows()));
            asm.emit("IDIV " + plane + ", " + row + ", " + divisor);
            asm.emit("IREM " + row + ", " + row + ", " + divisor);
        } else {
            asm.emit("MOV " + row + ", RZ");
            asm.emit("MOV " + column + ", " + lane);
        }
        asm.emit("MOV " + word + ", " + lane);
        // the copy as a box of planes (3D), rows and columns; a 1D copy is one row
        String[] coordinates = plane != null ? new String[] {plane, row, column} : new String[] {row, column};
        CopyBox copy = plane != null ? CopyBox.whole(tile) : new CopyBox(new int[2], new int[] {tile.rows(), tile.width()});
        String coordinate = asm.register();
        String[] shared = new String[mapping.copyUnroll()];
        String[][] values = new String[mapping.copyUnroll()][graph.fields().size()];
        String[] global = new String[mapping.copyUnroll()];
        SimtFieldAddress[] sharedAt = new SimtFieldAddress[mapping.copyUnroll()];
        SimtFieldAddress[] globalAt = new SimtFieldAddress[mapping.copyUnroll()];
        for (int u = 0; u < mapping.copyUnroll(); u++) {
            shared[u] = asm.register();
            global[u] = asm.register();
            for (IrField field : mapping.asyncCopy() ? List.<IrField>of() : copied) {
                values[u][field.id()] = asm.register(field.type());   // an asynchronous copy holds no word in a register
            }
            sharedAt[u] = new SimtFieldAddress(layout, shared[u], layout.hasWideFields() ? asm.register() : null);
            globalAt[u] = new SimtFieldAddress(layout, global[u], layout.hasWideFields() ? asm.register() : null);
        }
        asm.place("copy");
        asm.emit("ISETP.GE.AND P0, PT, " + word + ", " + SimtAssembler.immediate(tile.words()) + ", PT");
        asm.emit("P0", "BRA copied");
        int last = graph.rank() - 1;
        for (int u = 0; u < mapping.copyUnroll(); u++) {
            asm.comment("word " + u + " of the round: P1 says it lies in the padded fields");
            if (graph.rank() == 3) {
                emitCopyAddress3d(global[u], coordinate, plane, row, column);
            } else if (graph.rank() == 2) {
                asm.emit("IADD " + global[u] + ", " + origin[0] + ", " + row);
                asm.emit("ISETP.LT.AND P1, PT, " + global[u] + ", "
                        + SimtAssembler.immediate(layout.extent(0)) + ", PT");
                asm.emit("IMAD " + global[u] + ", " + global[u] + ", " + SimtAssembler.immediate(layout.extent(1)) + ", "
                        + origin[1]);
                asm.emit("IADD " + global[u] + ", " + global[u] + ", " + column);
            } else {
                asm.emit("IADD " + global[u] + ", " + origin[0] + ", " + column);
            }
            asm.emit("IADD " + coordinate + ", " + origin[last] + ", " + column);
            asm.emit("ISETP.LT.AND P1, PT, " + coordinate + ", "
                    + SimtAssembler.immediate(layout.extent(last))
                    + ", " + (graph.rank() >= 2 ? "P1" : "PT"));
            asm.emit("SHL " + global[u] + ", " + global[u] + ", 0x2");
            asm.emit("SHL " + shared[u] + ", " + word + ", 0x2");
            sharedAt[u].emitWide(asm);
            globalAt[u].emitWide(asm);
            for (IrField field : copied) {
                String width = SimtAssembler.width(field.type());
                if (mapping.asyncCopy()) {
                    // CUDA's cp.async with a source size of 0 outside: a copy in flight, or a 0 stored at once
                    String sharedWord = sharedAt[u].at(field.id(), dataBase[field.id()]);
                    asm.emit("P1", "LDGSTS" + width + " " + sharedWord + ", " + globalAt[u].at(field.id(), layout.fieldByte(field.id())));
                    asm.emit("!P1", "STS" + width + " " + sharedWord + ", RZ");
                    continue;
                }
                String value = values[u][field.id()];
                asm.emit("MOV" + width + " " + value + ", RZ");
                asm.emit("P1", "LDG" + width + " " + value + ", " + globalAt[u].at(field.id(), layout.fieldByte(field.id())));
            }
            asm.emit("IADD " + word + ", " + word + ", " + SimtAssembler.immediate(lanes));
            emitNextInBox(coordinates, copy);
        }
        for (int u = 0; u < (mapping.asyncCopy() ? 0 : mapping.copyUnroll()); u++) {
            for (IrField field : copied) {
                asm.emit("STS" + SimtAssembler.width(field.type()) + " " + sharedAt[u].at(field.id(), dataBase[field.id()])
                        + ", " + values[u][field.id()]);
            }
        }
        asm.emit("BRA copy");
        asm.place("copied");
    }

    /**
     * The copy of one box of a field a block fetches in part (only where the copy is asynchronous): word m = lane,
     * lane + lanes, ... of the box, one a lane and round, its (plane, row, column) in the box split from the lane once
     * and carried on by the lanes' stride, each word an LDGSTS (a 0 stored outside the padded fields).
     */
    private void emitBoxCopy(IrField field, CopyBox box) {
        int rank = graph.rank();
        asm.comment("'" + field.name() + "': words " + box + " of the copy, one a lane and round");
        String[] at = new String[rank];        // the word's coordinates in the box, the last dimension fastest
        String[] base = new String[rank];      // the box's first word in the padded fields, per dimension
        for (int d = 0; d < rank; d++) {
            at[d] = asm.register();
            if (box.start()[d] == 0) {
                base[d] = origin[d];
            } else {
                base[d] = asm.register();
                asm.emit("IADD " + base[d] + ", " + origin[d] + ", " + SimtAssembler.immediate(box.start()[d]));
            }
        }
        emitSplit(at, box);
        String m = asm.register();
        asm.emit("MOV " + m + ", " + lane);
        String global = asm.register();
        String shared = asm.register();
        String coordinate = asm.register();
        SimtFieldAddress sharedAt = new SimtFieldAddress(layout, shared, layout.hasWideFields() ? asm.register() : null);
        SimtFieldAddress globalAt = new SimtFieldAddress(layout, global, layout.hasWideFields() ? asm.register() : null);
        String loop = asm.label("copy");
        String done = asm.label("copied");
        asm.place(loop);
        asm.emit("ISETP.GE.AND P0, PT, " + m + ", " + SimtAssembler.immediate(box.words()) + ", PT");
        asm.emit("P0", "BRA " + done);
        asm.comment("P1 says the word lies in the padded fields");
        asm.emit("IADD " + global + ", " + base[0] + ", " + at[0]);
        asm.emit("ISETP.LT.AND P1, PT, " + global + ", " + SimtAssembler.immediate(layout.extent(0)) + ", PT");
        asm.emit(box.start()[0] == 0 ? "MOV " + shared + ", " + at[0]
                : "IADD " + shared + ", " + at[0] + ", " + SimtAssembler.immediate(box.start()[0]));
        for (int d = 1; d < rank; d++) {
            asm.emit("IADD " + coordinate + ", " + base[d] + ", " + at[d]);
            asm.emit("ISETP.LT.AND P1, PT, " + coordinate + ", " + SimtAssembler.immediate(layout.extent(d)) + ", P1");
            asm.emit("IMAD " + global + ", " + global + ", " + SimtAssembler.immediate(layout.extent(d)) + ", " + coordinate);
            asm.emit("IMAD " + shared + ", " + shared + ", " + SimtAssembler.immediate(tile.copyExtent(d)) + ", " + at[d]);
            if (box.start()[d] != 0) {
                asm.emit("IADD " + shared + ", " + shared + ", " + SimtAssembler.immediate(box.start()[d]));
            }
        }
        asm.emit("SHL " + global + ", " + global + ", 0x2");
        asm.emit("SHL " + shared + ", " + shared + ", 0x2");
        sharedAt.emitWide(asm);
        globalAt.emitWide(asm);
        String width = SimtAssembler.width(field.type());
        String sharedWord = sharedAt.at(field.id(), dataBase[field.id()]);
        asm.emit("P1", "LDGSTS" + width + " " + sharedWord + ", " + globalAt.at(field.id(), layout.fieldByte(field.id())));
        asm.emit("!P1", "STS" + width + " " + sharedWord + ", RZ");
        asm.emit("IADD " + m + ", " + m + ", " + SimtAssembler.immediate(lanes));
        emitNextInBox(at, box);
        asm.emit("BRA " + loop);
        asm.place(done);
    }

    /** The lane's word of the box as coordinates: divisions by the box's extents, left out where they are trivial. */
    private void emitSplit(String[] at, CopyBox box) {
        int rank = at.length;
        String rest = lane;
        int bound = lanes;   // rest < bound
        int inner = box.words();
        for (int d = 0; d < rank; d++) {
            inner /= box.extent()[d];
            if (d == rank - 1) {
                asm.emit("MOV " + at[d] + ", " + rest);
            } else if (bound <= inner) {
                asm.emit("MOV " + at[d] + ", RZ");   // every lane's first word lies in the box's first row (or plane)
            } else if (inner == 1) {
                asm.emit("MOV " + at[d] + ", " + rest);   // the box is one word wide below d
                rest = "RZ";
                bound = 1;
            } else {
                String divisor = asm.constant(inner);
                asm.emit("IDIV " + at[d] + ", " + rest + ", " + divisor);
                String remainder = asm.register();
                asm.emit("IREM " + remainder + ", " + rest + ", " + divisor);
                rest = remainder;
                bound = inner;
            }
        }
    }

    /**
     * Moves the coordinates of a word in {@code box} (the last dimension fastest) on by {@code lanes} words: the lanes
     * split by the box's extents, added where not 0, and one carry a dimension from the last outwards.
     */
    private void emitNextInBox(String[] at, CopyBox box) {
        int rank = at.length;
        int[] step = new int[rank];
        int left = lanes;
        for (int d = rank - 1; d >= 0; d--) {
            step[d] = d == 0 ? left : left % box.extent()[d];
            left /= box.extent()[d];
        }
        for (int d = 0; d < rank; d++) {
            if (step[d] != 0) {
                asm.emit("IADD " + at[d] + ", " + at[d] + ", " + SimtAssembler.immediate(step[d]));
            }
        }
        for (int d = rank - 1; d > 0; d--) {
            asm.emit("ISETP.GE.AND P0, PT, " + at[d] + ", " + SimtAssembler.immediate(box.extent()[d]) + ", PT");
            asm.emit("P0", "IADD " + at[d] + ", " + at[d] + ", " + SimtAssembler.immediate(-box.extent()[d]));
            asm.emit("P0", "IADD " + at[d - 1] + ", " + at[d - 1] + ", 0x1");
        }
    }

    /** The padded index of copy word (plane, row, column) in {@code global}; P1 says it lies in the padded fields. */
    private void emitCopyAddress3d(String global, String coordinate, String plane, String row, String column) {
        asm.emit("IADD " + global + ", " + origin[0] + ", " + plane);
        asm.emit("ISETP.LT.AND P1, PT, " + global + ", " + SimtAssembler.immediate(layout.extent(0)) + ", PT");
        asm.emit("IADD " + coordinate + ", " + origin[1] + ", " + row);
        asm.emit("ISETP.LT.AND P1, PT, " + coordinate + ", " + SimtAssembler.immediate(layout.extent(1)) + ", P1");
        asm.emit("IMAD " + global + ", " + global + ", " + SimtAssembler.immediate(layout.extent(1)) + ", " + coordinate);
        asm.emit("IMAD " + global + ", " + global + ", " + SimtAssembler.immediate(layout.extent(2)) + ", " + origin[2]);
        asm.emit("IADD " + global + ", " + global + ", " + column);
    }
}
