package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.gpu.BandFolding;
import dev.finegrain.dsl.Reduction;
import dev.finegrain.dsl.ReductionSpec;
import dev.finegrain.dsl.Type;

/**
 * Spells a streamed reduction of a folded field ({@link dev.finegrain.compiler.backend.gpu.BandFolding}) in the model
 * ISA, as {@code CudaReductions} spells it in CUDA: a running value in a register (a pair for a long field) and, for an
 * extreme asked with its point, the point's row-major index in a pair (-1 until a point is seen). A lane meets its
 * points in row-major order, so it replaces its extreme only with a strictly better value; two running reductions
 * combine keeping the better value and, on a tie, the earlier point, so every order of combining gives the oracle's
 * answer. A sum wraps as the field's type does. The running registers are the caller's, handed out once. An
 * extreme of an int field asked with its point is taken once a step ({@link BandFolding#takenOnceAStep}), as in CUDA:
 * the step's values of the lane's columns, then where their extreme beats the lane's best (a predicate here, a mask
 * there) the row and those values; the column is found at the band's end ({@link #resolvePoint}).
 */
final class SimtReductions {

    private final SimtAssembler asm;
    private final ReductionSpec reduction;
    private final Type type;
    private final String value;
    private final String at;
    /** Taken once a step: the row where the lane's best first stood, that row's values, this step's values; else null. */
    private final String row;
    private final String[] keptValues;
    private final String[] stepValues;

    /**
     * Takes the running registers now: the value's, the point's pair where the extreme keeps its point, and for one
     * taken once a step the row's and, per column of a lane of {@code lanes}, the kept and the step's value.
     */
    SimtReductions(SimtAssembler asm, ReductionSpec reduction, Type type, int lanes) {
        if (type != Type.INT && type != Type.LONG) {
            throw new IllegalArgumentException("a reduction is of an INT or LONG field, not " + type);
        }
        this.asm = asm;
        this.reduction = reduction;
        this.type = type;
        this.value = asm.register(type);
        this.at = positioned() ? asm.pair() : null;
        boolean onceAStep = BandFolding.takenOnceAStep(reduction, type);
        this.row = onceAStep ? asm.register() : null;
        this.keptValues = new String[onceAStep ? lanes : 0];
        this.stepValues = new String[onceAStep ? lanes : 0];
        for (int c = 0; c < keptValues.length; c++) {
            keptValues[c] = asm.register();
            stepValues[c] = asm.register();
        }
    }

    /** Whether a lane takes it once a step: {@link BandFolding#takenOnceAStep}. */
    boolean onceAStep() {
        return row != null;
    }

    /** Taken once a step, in a step that is not steady: each column's value none (the extreme's identity) until computed. */
    void stepStart() {
        String none = SimtAssembler.immediate(reduction.reduction() == Reduction.MAX ? Integer.MIN_VALUE : Integer.MAX_VALUE);
        for (String value : stepValues) {
            asm.emit("MOV32I " + value + ", " + none + "   // none yet in this step");
        }
    }

    /** Taken once a step: column {@code column}'s value in this step. */
    void take(int column, String point) {
        asm.emit("MOV " + stepValues[column] + ", " + point);
    }

    /**
     * Taken once a step: the extreme of the step's values, then of it and the lane's best, and where that beats the best
     * the step's row {@code i} and values kept. {@code seen} is null in a steady step (every lane has met a point),
     * else the predicate under which the lane meets one in this step: a lane with none yet keeps the step then.
     * {@code inside}: in a guarded step, the predicate "my row is in the domain", without which the step counts nothing;
     * else null. Takes P0 and P1.
     */
    void stepEnd(String i, String seen, String inside) {
        int mark = asm.mark();
        String extreme = asm.register();
        String steps = stepValues[0];   // the step's values first, the running best last, as CUDA's chain
        for (int c = 1; c < stepValues.length; c++) {
            extreme(extreme, steps, stepValues[c]);
            steps = extreme;
        }
        extreme(extreme, value, steps);
        if (inside != null) {
            asm.emit("!" + inside, "MOV " + extreme + ", " + value + "   // my row lies outside: the step counts nothing");
        }
        asm.emit("ISETP.NE.AND P0, PT, " + extreme + ", " + value + ", PT   // this step beats my best");
        if (seen != null) {
            asm.emit("ISETP.LT.AND P1, PT, " + row + ", RZ, " + seen + "   // or gives my first point");
            asm.emit("PSETP.OR.AND P0, PT, P0, P1, PT");
        }
        asm.emit("MOV " + value + ", " + extreme);
        asm.emit("P0", "MOV " + row + ", " + i);
        for (int c = 0; c < stepValues.length; c++) {
            asm.emit("P0", "MOV " + keptValues[c] + ", " + stepValues[c]);
        }
        asm.release(mark);
    }

    /** {@code target} = the extreme of registers a and b: max as DPX's add-then-max with nothing added, min as a select. */
    private void extreme(String target, String a, String b) {
        if (reduction.reduction() == Reduction.MAX) {
            asm.emit("VIADDMNMX " + target + ", " + a + ", RZ, " + b);
        } else {
            asm.emit("ISETP.LT.AND P0, PT, " + a + ", " + b + ", PT");
            asm.emit("SEL " + target + ", " + a + ", " + b + ", P0");
        }
    }

    /**
     * Taken once a step, at the band's end: the lane's point, the first of its columns (registers {@code columns}, left
     * to right) whose value in the kept row is its best, in a domain {@code width} columns wide. Takes P0 and P1.
     */
    void resolvePoint(String[] columns, int width) {
        int mark = asm.mark();
        String column = asm.register();
        asm.emit("MOV " + column + ", " + columns[columns.length - 1]);
        for (int c = columns.length - 2; c >= 0; c--) {
            asm.emit("ISETP.EQ.AND P1, PT, " + keptValues[c] + ", " + value + ", PT");
            asm.emit("P1", "MOV " + column + ", " + columns[c] + "   // the first of my columns that holds my best");
        }
        asm.emit("ISETP.GE.AND P0, PT, " + row + ", RZ, PT");
        asm.emit("P0", "IMAD " + at + ", " + row + ", " + SimtAssembler.immediate(width) + ", " + column + "   // my point, row-major");
        asm.emit("P0", "MOV " + SimtAssembler.high(at) + ", RZ");
        asm.release(mark);
    }

    /** Whether it tracks the point of its extreme: an extreme asked with its position. */
    private boolean positioned() {
        return reduction.withPosition() && reduction.reduction().hasPosition();
    }

    private String w() {
        return SimtAssembler.width(type);
    }

    /**
     * {@code point} (a register) where column {@code j} (a register) lies in a domain {@code columns} wide, else the
     * reduction's identity, which changes no running value: a register the caller releases. Takes P0. CUDA spells it
     * as one min, max or and with a limit made once a band ({@code CudaReductions.declareLimit}); the model tests the
     * column each time (two instructions more a column and step) rather than hold a register per reduction and column
     * for the band's run, which a kernel of several reductions and columns would not have.
     */
    String orIdentity(String point, String j, int columns) {
        asm.emit("ISETP.LT.AND P0, PT, " + j + ", " + SimtAssembler.immediate(columns) + ", PT   // my column lies in the domain");
        return pointOrIdentity("P0", point, "else the identity");
    }

    /**
     * A point that counts only where {@code predicate} holds (a guarded step's row in the domain), else the reduction's
     * identity: a register the caller releases.
     */
    String orIdentityUnless(String predicate, String point) {
        return pointOrIdentity(predicate, point, "my row lies outside: the identity");
    }

    /** {@code point} where {@code predicate} holds, else the identity ({@code why} says which): a register the caller releases. */
    private String pointOrIdentity(String predicate, String point, String why) {
        String taken = asm.register(type);
        asm.emit("MOV" + w() + " " + taken + ", " + point);
        asm.emit("!" + predicate, "MOV32I " + taken + ", " + SimtAssembler.immediate(start()) + "   // " + why);
        if (type == Type.LONG) {
            asm.emit("!" + predicate, "MOV32I " + SimtAssembler.high(taken) + ", " + SimtAssembler.immediate(start() >>> 32));
        }
        return taken;
    }

    /** The running value before any point: the reduction's identity. */
    private long start() {
        return switch (reduction.reduction()) {
            case MAX -> type == Type.INT ? Integer.MIN_VALUE : Long.MIN_VALUE;
            case MIN -> type == Type.INT ? Integer.MAX_VALUE : Long.MAX_VALUE;
            case SUM -> 0;
        };
    }

    /** Sets the running reduction to its start, before any point. */
    void reset() {
        reset("PT");
    }

    /** Sets the running reduction to its start where {@code predicate} holds. */
    void reset(String predicate) {
        long start = start();
        asm.emitWhere(predicate, "MOV32I " + value + ", " + SimtAssembler.immediate(start) + "   // " + reduction.name() + " of the points met so far");
        if (type == Type.LONG) {
            asm.emitWhere(predicate, "MOV32I " + SimtAssembler.high(value) + ", " + SimtAssembler.immediate(start >>> 32));
        }
        if (at != null) {
            asm.emitWhere(predicate, "MOV32I " + at + ", -0x1   // the first point that holds it, row-major (-1: none yet)");
            asm.emitWhere(predicate, "MOV32I " + SimtAssembler.high(at) + ", -0x1");
        }
        if (row != null) {
            asm.emitWhere(predicate, "MOV32I " + row + ", -0x1   // the row where my best first stood (-1: none yet)");
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
