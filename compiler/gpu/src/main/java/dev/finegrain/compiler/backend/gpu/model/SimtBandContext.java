package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.gpu.BandMapping;
import dev.finegrain.compiler.backend.gpu.BandMapping.BandRead;
import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.IrField;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link SimtBands}, its steps ({@link SimtBandStep}) and a mechanism's band-edge protocol ({@link SimtSync#bandWait}
 * and the rest) share, as {@code CudaBandContext} is for CUDA: the assembler, the mapping, the layout, the registers
 * the prologue and the band's loops set, and the addresses of the edge's tokens, ready words and values in global
 * memory. The tokens lie where CUDA's do in the run's scratch memory (after {@link BandMapping#TOKEN_BASE_BYTES}),
 * counted from the layout's scratch words.
 */
final class SimtBandContext {

    final SimtAssembler asm;
    final BandMapping mapping;
    final GlobalLayout layout;
    final SimtSync sync;
    /** Rows of halo above the domain. */
    final int haloRows;
    /** Registers the prologue sets: my lane, the constant 1, the params. */
    String lane;
    String one;
    final Map<Integer, String> params = new HashMap<>();
    /** Registers the band's loops keep: my band, my (first) column, the chunk's first step, the tokens already waited for. */
    String band;
    String column;
    String base;
    String seen;
    /** Columns each lane owns side by side ({@link BandMapping#laneColumns}); a per-column array below has one entry each. */
    final int lanes;
    /** My columns, the first {@link #column}: where a lane owns several, the others' registers, set at a band's start. */
    final String[] columns;
    /**
     * Per state field with history, per column of mine: my values 1, 2, ... steps back, its halo rows above the domain, my
     * value this step ([column][back], [column][row up], [column]).
     */
    final Map<IrField, String[][]> history = new LinkedHashMap<>();
    final Map<IrField, String[][]> above = new LinkedHashMap<>();
    final Map<IrField, String[]> own = new LinkedHashMap<>();
    /**
     * Per read across the edge and column of mine it reaches from, the shared address of its window value at step 0 of a
     * chunk (a step adds an element).
     */
    final Map<ColumnRead, String> edgeReads = new HashMap<>();
    /** Per ring's field (input and output rings), the shared address of my first column in the ring's row 0. */
    final Map<IrField, String> ringColumns = new HashMap<>();
    /** Ready words: per edge field and column of mine, the address of my ready word at row 0 (a row adds 8 bytes). */
    final Map<IrField, String[]> myReadyWords = new HashMap<>();
    /** Per sequence input along the columns and column of mine, its value, read once a band ({@link BandMapping#laneSequences}). */
    final Map<IrField, String[]> laneSequences = new LinkedHashMap<>();
    /** Per query profile and column of mine, the shared address of my entry at the other index 0 ({@code LaneProfile}). */
    final Map<dev.finegrain.compiler.backend.gpu.LaneProfile, String[]> profileLanes = new LinkedHashMap<>();
    /** The column of mine whose value a mechanism's band protocol publishes now ({@link #myReadyWord}). */
    int publishing;

    /** A read of the band, made by my column {@code column}. */
    record ColumnRead(BandRead read, int column) {}
    /** Per lookup table the block stages, where its copy starts in shared memory. */
    final Map<Integer, Integer> stagedTableBytes = new HashMap<>();

    SimtBandContext(SimtAssembler asm, BandMapping mapping, GlobalLayout layout) {
        this.asm = asm;
        this.mapping = mapping;
        this.layout = layout;
        this.sync = SimtSyncs.of(mapping.mechanism().id());
        this.haloRows = layout.haloLow()[0];
        this.lanes = mapping.laneColumns();
        this.columns = new String[lanes];
    }

    /**
     * {@code row} clamped into {@code into}: to the domain's last row and, where {@code fromBelow}, to its first ({@code
     * into} is {@code row} itself unless {@code fromBelow}, whose select writes it). A steady chunk's rows may pass the last row (its last step's next row), never the
     * first; a checked chunk's lanes may lie on either side.
     */
    void clampRow(String into, String row, boolean fromBelow) {
        if (fromBelow) {
            asm.emit("ISETP.LT.AND P0, PT, " + row + ", RZ, PT");
            asm.emit("SEL " + into + ", RZ, " + row + ", P0");
        }
        asm.emit("ISETP.GT.AND P0, PT, " + into + ", " + SimtAssembler.immediate(mapping.rows() - 1) + ", PT");
        asm.emit("P0", "MOV32I " + into + ", " + SimtAssembler.immediate(mapping.rows() - 1) + (fromBelow ? "   // my row, clamped into the domain" : ""));
    }

    /** How many lanes back the lane is whose column a read of my column {@code c} reaches (0: one of my own columns). */
    int lanesBack(BandRead read, int c) {
        return read.columnsBack() <= c ? 0 : Math.ceilDiv(read.columnsBack() - c, lanes);
    }

    /** The first lane whose column {@code c} is one of the band's last edge-columns, which the band to the right reads. */
    int firstEdgeLane(int c) {
        return Math.max(0, Math.ceilDiv(mapping.bandWidth() - mapping.edge().columns() - c, lanes));
    }

    /** The column of the lane {@link #lanesBack} away that a read of my column {@code c} reaches. */
    int reachedColumn(BandRead read, int c) {
        return c - read.columnsBack() + lanesBack(read, c) * lanes;
    }

    /** The state fields whose values a lane keeps for later steps. */
    List<IrField> fieldsWithHistory() {
        return List.copyOf(history.keySet());
    }

    /** A fresh register holding the shared address of row {@code row} (a register) of my column in {@code ring}. */
    String ringSlot(BandMapping.Ring ring, String row) {
        String at = asm.register();
        asm.emit("LOP.AND " + at + ", " + row + ", " + SimtAssembler.immediate(ring.rows() - 1));
        asm.emit("IMAD " + at + ", " + at + ", " + SimtAssembler.immediate((long) ring.stride() * ring.elementBytes())
                + ", " + ringColumns.get(ring.field()));
        return at;
    }

    /**
     * A fresh register holding the token that covers row {@code row} (a register, not negative): the row itself, or its
     * group of {@code groupRows} rows; a power of two is a shift, as nvcc spells a division by one.
     */
    String tokenOf(String row) {
        int group = mapping.edge().groupRows();
        if (group == 1) {
            return row;
        }
        String token = asm.register();
        if (Integer.bitCount(group) == 1) {
            asm.emit("SHR.U32 " + token + ", " + row + ", " + SimtAssembler.immediate(Integer.numberOfTrailingZeros(group)));
        } else {
            asm.emit("IDIV " + token + ", " + row + ", " + asm.constant(group));
        }
        return token;
    }

    /** Sets {@code predicate} where row {@code row} (a register) is the last of its token's group; a power of two masks. */
    void lastRowOfGroup(String predicate, String row) {
        int group = mapping.edge().groupRows();
        String within = asm.register();
        if (Integer.bitCount(group) == 1) {
            asm.emit("LOP.AND " + within + ", " + row + ", " + SimtAssembler.immediate(group - 1));
        } else {
            asm.emit("IREM " + within + ", " + row + ", " + asm.constant(group));
        }
        asm.emit("ISETP.EQ.AND " + predicate + ", PT, " + within + ", " + SimtAssembler.immediate(group - 1) + ", PT");
        asm.emit("ISETP.EQ.OR " + predicate + ", PT, " + row + ", " + SimtAssembler.immediate(mapping.rows() - 1) + ", " + predicate);
    }

    /** Whether each edge value is a word of its own with its ready bit (the mapping's choice), not a token per rows. */
    boolean readyWords() {
        return mapping.edge().readyWords();
    }

    private int tokensByte() {
        return layout.scratchByte() + BandMapping.TOKEN_BASE_BYTES;
    }

    /** Whether the edge is a ring of rows, its tokens and ready words tagged with their lap ({@code EdgeRing}). */
    boolean ring() {
        return mapping.edge().ring();
    }

    /**
     * A fresh register holding the lap of slot number {@code index} (a register, never negative) in a ring of
     * {@code period} slots, counted from 1 (0 is a slot never written): a shift where the period is a power of two.
     */
    private String lap(String index, int period) {
        String lap = asm.register();
        if (Integer.bitCount(period) == 1) {
            asm.emit("SHR.U32 " + lap + ", " + index + ", " + SimtAssembler.immediate(Integer.numberOfTrailingZeros(period)));
        } else {
            asm.emit("IDIV " + lap + ", " + index + ", " + asm.constant(period));
        }
        asm.emit("IADD " + lap + ", " + lap + ", 0x1   // the lap");
        return lap;
    }

    /** What a token word holds once token {@code token} (a register) is published: 1, or in a ring its lap. */
    String tokenValue(String token) {
        return ring() ? lap(token, mapping.edge().tokensPerBand(mapping.rows())) : one;
    }

    /** Tiny-lock's ready tag of a value at row {@code row} (a register), the high word of its ready word: 1, or in a ring its lap. */
    String readyTag(String row) {
        return ring() ? lap(row, mapping.edge().ringRows()) : one;
    }

    /** Where row {@code row} (a register, not negative) lies among the rows the edge holds: itself, or in a ring a fresh register. */
    private String heldRow(String row) {
        if (!ring() || row.equals("RZ")) {
            return row;
        }
        int held = mapping.edge().ringRows();
        String at = asm.register();
        if (Integer.bitCount(held) == 1) {
            asm.emit("LOP.AND " + at + ", " + row + ", " + SimtAssembler.immediate(held - 1));
        } else {
            asm.emit("IREM " + at + ", " + row + ", " + asm.constant(held));
        }
        return at;
    }

    /** A fresh register holding the byte address of token {@code token} (a register) of band {@code band} + {@code bandOffset}. */
    String tokenAddress(int bandOffset, String token) {
        String slot = token;
        if (ring()) {
            slot = asm.register();
            asm.emit("LOP.AND " + slot + ", " + token + ", " + SimtAssembler.immediate(mapping.edge().tokensPerBand(mapping.rows()) - 1)
                    + "   // the token's slot in the ring");
        }
        String address = asm.register();
        asm.emit("IADD " + address + ", " + band + ", " + SimtAssembler.immediate(bandOffset));
        asm.emit("IMAD " + address + ", " + address + ", " + SimtAssembler.immediate(mapping.edge().tokensPerBand(mapping.rows()))
                + ", " + slot);
        asm.emit("SHL " + address + ", " + address + ", 0x2");
        asm.emit("IADD " + address + ", " + address + ", " + SimtAssembler.immediate(tokensByte()));
        return address;
    }

    /**
     * A fresh register holding the byte address of tiny-lock's ready word of edge field {@code field}, band {@code band}
     * + {@code bandOffset}, edge slot {@code slot} (a register), row {@code row} (a register): 8 bytes, the value in the
     * low word and the ready tag in the high one.
     */
    String readyWordAddress(IrField field, int bandOffset, String slot, String row) {
        row = heldRow(row);
        int k = mapping.edge().fields().indexOf(field);
        String address = asm.register();
        asm.emit("IADD " + address + ", " + band + ", " + SimtAssembler.immediate(k * mapping.bands() + bandOffset));
        asm.emit("IMAD " + address + ", " + address + ", " + SimtAssembler.immediate(mapping.edge().columns()) + ", " + slot);
        asm.emit("IMAD " + address + ", " + address + ", " + SimtAssembler.immediate(mapping.edge().heldRows(mapping.rows())) + ", " + row);
        asm.emit("SHL " + address + ", " + address + ", 0x3");
        asm.emit("IADD " + address + ", " + address + ", " + SimtAssembler.immediate(tokensByte()));
        return address;
    }

    /** A fresh register holding the address of my ready word of {@code field} at {@code row} (a register), from its row-0 address. */
    String myReadyWord(IrField field, String row) {
        row = heldRow(row);
        String address = asm.register();
        asm.emit("IMAD " + address + ", " + row + ", 0x8, " + myReadyWords.get(field)[publishing]);
        return address;
    }

    /** A fresh register holding the byte address of {@code field} at ({@code row}, {@code column}), both registers. */
    String fieldAddress(IrField field, String row, String column) {
        String address = asm.register();
        layout.emitPaddedIndex(asm, address, new String[] {row, column});
        asm.emit("SHL " + address + ", " + address + ", " + (GpuTarget.elementBytes(field.type()) == 8 ? "0x3" : "0x2"));
        asm.emit("IADD " + address + ", " + address + ", " + SimtAssembler.immediate(layout.fieldByte(field.id())));
        return address;
    }

    /**
     * A fresh register holding the byte address of the left band's edge value of {@code field} at {@code row} (a
     * register), edge slot {@code slot} (a constant): column {@code width * band - columns + slot}.
     */
    String leftEdgeAddress(IrField field, String row, int slot) {
        String column = asm.register();
        asm.emit("IMUL " + column + ", " + band + ", " + SimtAssembler.immediate(mapping.bandWidth()));
        asm.emit("IADD " + column + ", " + column + ", " + SimtAssembler.immediate(slot - mapping.edge().columns()));
        return fieldAddress(field, row, column);
    }

    /** Copies the left band's edge value with a plain load, for protocols whose token wait has already ordered it. */
    void loadEdgeAfterToken(IrField field, String row, int slot, String target) {
        asm.emit("LDG" + SimtAssembler.width(field.type()) + " " + target + ", " + SimtAssembler.address(leftEdgeAddress(field, row, slot), 0));
    }

    /**
     * The loop of a token-word protocol's wait: each lane takes the left band's tokens not yet {@link #seen}, 32 apart,
     * up to the one that covers row {@code last} (a register); {@code take} spells the wait for one token at the address
     * it is given. Afterwards every token up to that one counts as seen.
     */
    void waitPendingTokens(String last, java.util.function.BiConsumer<String, String> take) {
        String upTo = tokenOf(last);
        String t = asm.register();
        String next = asm.label("token");
        String done = asm.label("tokens_done");
        asm.emit("IADD " + t + ", " + seen + ", " + lane);
        asm.place(next);
        asm.emit("ISETP.GT.AND P5, PT, " + t + ", " + upTo + ", PT");
        asm.emit("P5", "BRA " + done);
        take.accept(tokenAddress(-1, t), t);
        asm.emit("IADD " + t + ", " + t + ", 0x20");
        asm.emit("BRA " + next);
        asm.place(done);
        asm.emit("IADD " + seen + ", " + upTo + ", 0x1");
    }
}
