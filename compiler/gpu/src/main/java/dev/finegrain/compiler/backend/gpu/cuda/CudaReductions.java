package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.dsl.ReductionSpec;
import dev.finegrain.dsl.Type;

/**
 * Spells a streamed reduction of a folded field ({@link dev.finegrain.compiler.backend.gpu.BandFolding}) in CUDA: a
 * running value and, for an extreme asked with its point, the point's row-major index (-1 until a point is seen). A
 * lane meets its points in row-major order, so it replaces its extreme only with a strictly better value; two running
 * reductions combine keeping the better value and, on a tie, the earlier point, so every order of combining gives
 * the oracle's answer: the first point in row-major order. A sum wraps as the field's type does.
 */
final class CudaReductions {

    /** What a lane's running reductions are called, in the band kernel. */
    static final String LANE = "red";
    /** What the combining launch's running reductions are called. */
    static final String COMBINED = "all";

    private final ReductionSpec reduction;
    private final Type type;
    private final String value;
    private final String at;

    /** @param prefix what the registers' names start with, unique in the scope */
    CudaReductions(ReductionSpec reduction, Type type, String prefix) {
        if (type != Type.INT && type != Type.LONG) {
            throw new IllegalArgumentException("a reduction is of an INT or LONG field, not " + type);
        }
        this.reduction = reduction;
        this.type = type;
        this.value = prefix + "_" + CudaNames.member(reduction.field()) + "_" + reduction.reduction().cliName();
        this.at = value + "_at";
    }

    /** Whether it tracks the point of its extreme: an extreme asked with its position. */
    private boolean positioned() {
        return reduction.withPosition() && reduction.reduction().hasPosition();
    }

    private String cType() {
        return CudaExpressions.type(type);
    }

    /** Declares the running reduction, before any point. */
    void declare(CudaWriter out) {
        boolean isInt = type == Type.INT;
        String start = switch (reduction.reduction()) {
            case MAX -> isInt ? "INT_MIN" : "LLONG_MIN";
            case MIN -> isInt ? "INT_MAX" : "LLONG_MAX";
            case SUM -> "0";
        };
        out.line(cType() + " " + value + " = " + start + ";   // " + reduction.name() + " of the points met so far");
        if (positioned()) {
            out.line("long long " + at + " = -1;   // the first point that holds it, row-major (-1: none yet)");
        }
    }

    /** Takes in the next point's {@code point} value, whose row-major index is {@code index} (expressions). */
    void update(CudaWriter out, String point, String index) {
        if (!positioned() && reduction.reduction().hasPosition()) {
            out.line(value + " = " + reduction.reduction().cliName() + "(" + value + ", " + point + ");");
            return;
        }
        switch (reduction.reduction()) {
            case MAX -> out.line("if (" + at + " < 0 || " + point + " > " + value + ") { " + value + " = " + point + "; " + at + " = "
                    + index + "; }   // the first point keeps a tie");
            case MIN -> out.line("if (" + at + " < 0 || " + point + " < " + value + ") { " + value + " = " + point + "; " + at + " = "
                    + index + "; }   // the first point keeps a tie");
            case SUM -> out.line(value + " = " + wrappingSum(value, point) + ";");
        }
    }

    /** Combines in another running reduction, {@code otherValue} and {@code otherAt} (expressions of this type). */
    void combine(CudaWriter out, String otherValue, String otherAt) {
        if (!positioned() && reduction.reduction().hasPosition()) {
            out.line(value + " = " + reduction.reduction().cliName() + "(" + value + ", " + otherValue + ");");
            return;
        }
        String better = reduction.reduction() == dev.finegrain.dsl.Reduction.MAX ? ">" : "<";
        switch (reduction.reduction()) {
            case MAX, MIN -> out.line("if (" + otherAt + " >= 0 && (" + at + " < 0 || " + otherValue + " " + better + " " + value + " || ("
                    + otherValue + " == " + value + " && " + otherAt + " < " + at + "))) { " + value + " = " + otherValue + "; " + at
                    + " = " + otherAt + "; }");
            case SUM -> out.line(value + " = " + wrappingSum(value, otherValue) + ";");
        }
    }

    /** Combines the warp's 32 running reductions into every lane's, by shuffles. */
    void combineWarp(CudaWriter out) {
        out.open("for (int d = 16; d > 0; d /= 2)");
        out.line("const " + cType() + " other = __shfl_xor_sync(0xffffffffu, " + value + ", d);");
        if (positioned()) {
            out.line("const long long other_at = __shfl_xor_sync(0xffffffffu, " + at + ", d);");
        }
        combine(out, "other", "other_at");
        out.close();
    }

    /**
     * Writes the running reduction to 64-bit words {@code word} and {@code word} + 1 of {@code words}: its value widened,
     * then its point or -1.
     */
    void store(CudaWriter out, String words, String word) {
        out.line(words + "[" + word + "] = " + value + ";");
        out.line(words + "[" + next(word) + "] = " + (positioned() ? at : "-1") + ";");
    }

    /** Combines in the running reduction stored at words {@code word} and {@code word} + 1 of {@code words} ({@link #store}). */
    void combineStored(CudaWriter out, String words, String word) {
        out.line("const " + cType() + " other = (" + cType() + ") " + words + "[" + word + "];");
        if (positioned()) {
            out.line("const long long other_at = " + words + "[" + next(word) + "];");
        }
        combine(out, "other", "other_at");
    }

    private static String next(String word) {
        return word.equals("0") ? "1" : word + " + 1";
    }

    private String wrappingSum(String a, String b) {
        return type == Type.INT ? "(int) ((unsigned) " + a + " + (unsigned) " + b + ")"
                : "(long long) ((unsigned long long) " + a + " + (unsigned long long) " + b + ")";
    }
}
