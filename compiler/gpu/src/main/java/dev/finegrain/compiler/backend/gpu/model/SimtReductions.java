package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.dsl.Reduction;
import dev.finegrain.dsl.ReductionSpec;
import dev.finegrain.dsl.Type;

/**
 * Spells a streamed reduction of a folded field ({@link dev.finegrain.compiler.backend.gpu.BandFolding}) in the model
 * ISA, as {@code CudaReductions} spells it in CUDA: a running value in a register (a pair for a long field) and, for an
 * extreme asked with its point, the point's row-major index in a pair (-1 until a point is seen). A lane meets its
 * points in row-major order, so it replaces its extreme only with a strictly better value; two running reductions
 * combine keeping the better value and, on a tie, the earlier point, so every order of combining gives the oracle's
 * answer. A sum wraps as the field's type does. The running registers are the caller's, handed out once.
 */
final class SimtReductions {

    private final SimtAssembler asm;
    private final ReductionSpec reduction;
    private final Type type;
    private final String value;
    private final String at;

    /** Takes the running registers now: the value's, and the point's pair where the extreme keeps its point. */
    SimtReductions(SimtAssembler asm, ReductionSpec reduction, Type type) {
        if (type != Type.INT && type != Type.LONG) {
            throw new IllegalArgumentException("a reduction is of an INT or LONG field, not " + type);
        }
        this.asm = asm;
        this.reduction = reduction;
        this.type = type;
        this.value = asm.register(type);
        this.at = positioned() ? asm.pair() : null;
    }

    /** Whether it tracks the point of its extreme: an extreme asked with its position. */
    private boolean positioned() {
        return reduction.withPosition() && reduction.reduction().hasPosition();
    }

    private String w() {
        return SimtAssembler.width(type);
    }

    /** Sets the running reduction to its start, before any point. */
    void reset() {
        long start = switch (reduction.reduction()) {
            case MAX -> type == Type.INT ? Integer.MIN_VALUE : Long.MIN_VALUE;
            case MIN -> type == Type.INT ? Integer.MAX_VALUE : Long.MAX_VALUE;
            case SUM -> 0;
        };
        asm.emit("MOV32I " + value + ", " + SimtAssembler.immediate(start) + "   // " + reduction.name() + " of the points met so far");
        if (type == Type.LONG) {
            asm.emit("MOV32I " + SimtAssembler.high(value) + ", " + SimtAssembler.immediate(start >>> 32));
        }
        if (at != null) {
            asm.emit("MOV32I " + at + ", -0x1   // the first point that holds it, row-major (-1: none yet)");
            asm.emit("MOV32I " + SimtAssembler.high(at) + ", -0x1");
        }
    }

    /** Takes in the next point's value (a register), at row {@code i} and column {@code j} (registers) of a domain {@code columns} wide. */
    void update(String point, String i, String j, int columns) {
        switch (reduction.reduction()) {
            case SUM -> asm.emit("IADD" + w() + " " + value + ", " + value + ", " + point);
            case MAX, MIN -> {
                String better = reduction.reduction() == Reduction.MAX ? "GT" : "LT";
                if (at == null) {
                    asm.emit("ISETP." + better + w() + ".AND P0, PT, " + point + ", " + value + ", PT");
                    asm.emit("SEL" + w() + " " + value + ", " + point + ", " + value + ", P0");
                    return;
                }
                // the point's row-major index in 32 bits, widened: the model's memory (1 GiB) holds fewer than 2^31 points,
                // where CUDA multiplies in 64 bits
                String index = asm.pair();
                asm.emit("IMAD " + index + ", " + i + ", " + SimtAssembler.immediate(columns) + ", " + j + "   // my point, row-major");
                asm.emit("MOV " + SimtAssembler.high(index) + ", RZ");
                asm.emit("ISETP.LT.64.AND P0, PT, " + at + ", RZ, PT");
                asm.emit("ISETP." + better + w() + ".OR P0, PT, " + point + ", " + value + ", P0   // the first point keeps a tie");
                asm.emit("P0", "MOV" + w() + " " + value + ", " + point);
                asm.emit("P0", "MOV.64 " + at + ", " + index);
            }
        }
    }

    /** Combines in another running reduction, {@code otherValue} and {@code otherAt} (registers of this form). */
    private void combine(String otherValue, String otherAt) {
        switch (reduction.reduction()) {
            case SUM -> asm.emit("IADD" + w() + " " + value + ", " + value + ", " + otherValue);
            case MAX, MIN -> {
                String better = reduction.reduction() == Reduction.MAX ? "GT" : "LT";
                if (at == null) {
                    asm.emit("ISETP." + better + w() + ".AND P0, PT, " + otherValue + ", " + value + ", PT");
                    asm.emit("SEL" + w() + " " + value + ", " + otherValue + ", " + value + ", P0");
                    return;
                }
                asm.emit("ISETP.EQ" + w() + ".AND P0, PT, " + otherValue + ", " + value + ", PT");
                asm.emit("ISETP.LT.64.AND P0, PT, " + otherAt + ", " + at + ", P0   // a tie: the earlier point");
                asm.emit("ISETP." + better + w() + ".OR P0, PT, " + otherValue + ", " + value + ", P0");
                asm.emit("ISETP.LT.64.OR P0, PT, " + at + ", RZ, P0");
                asm.emit("ISETP.GE.64.AND P0, PT, " + otherAt + ", RZ, P0   // the other has seen a point");
                asm.emit("P0", "MOV" + w() + " " + value + ", " + otherValue);
                asm.emit("P0", "MOV.64 " + at + ", " + otherAt);
            }
        }
    }

    /** Combines the warp's 32 running reductions into every lane's, by shuffles from lane l xor d. */
    void combineWarp(String lane) {
        for (int d = 16; d > 0; d /= 2) {
            int mark = asm.mark();
            String from = asm.register();
            asm.emit("LOP.XOR " + from + ", " + lane + ", " + SimtAssembler.immediate(d));
            String other = asm.register(type);
            shuffle(other, value, from, type == Type.LONG);
            String otherAt = null;
            if (at != null) {
                otherAt = asm.pair();
                shuffle(otherAt, at, from, true);
            }
            combine(other, otherAt);
            asm.release(mark);
        }
    }

    private void shuffle(String target, String source, String from, boolean wide) {
        asm.emit("SHFL.IDX " + target + ", " + source + ", " + from);
        if (wide) {
            asm.emit("SHFL.IDX " + SimtAssembler.high(target) + ", " + SimtAssembler.high(source) + ", " + from);
        }
    }

    /** Writes the running reduction to the 16 bytes at {@code address} (a register): its value widened, then its point or -1. */
    void store(String address) {
        int mark = asm.mark();
        String widened = value;
        if (type == Type.INT) {
            widened = asm.pair();
            asm.emit("MOV " + widened + ", " + value);
            asm.emit("SHR " + SimtAssembler.high(widened) + ", " + value + ", 0x1f   // widened to 64 bits");
        }
        asm.emit("STG.64 " + SimtAssembler.address(address, 0) + ", " + widened);
        String point = at;
        if (point == null) {
            point = asm.constant64(-1);
        }
        asm.emit("STG.64 " + SimtAssembler.address(address, 8) + ", " + point);
        asm.release(mark);
    }

    /** Combines in the running reduction stored at the 16 bytes at {@code address} (a register; {@link #store}). */
    void combineStored(String address) {
        int mark = asm.mark();
        String other = asm.pair();
        asm.emit("LDG.64 " + other + ", " + SimtAssembler.address(address, 0));
        String otherAt = null;
        if (at != null) {
            otherAt = asm.pair();
            asm.emit("LDG.64 " + otherAt + ", " + SimtAssembler.address(address, 8));
        }
        combine(other, otherAt);   // an int's value is the pair's low word
        asm.release(mark);
    }
}
