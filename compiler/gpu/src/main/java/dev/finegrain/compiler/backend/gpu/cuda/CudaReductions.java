package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.gpu.BandFolding;
import dev.finegrain.dsl.Reduction;
import dev.finegrain.dsl.ReductionSpec;
import dev.finegrain.dsl.Type;

import java.util.List;

/**
 * Spells a streamed reduction of a folded field ({@link dev.finegrain.compiler.backend.gpu.BandFolding}) in CUDA: a
 * running value and, for an extreme asked with its point, the point's row-major index (-1 until a point is seen). A
 * lane meets its points in row-major order, so it replaces its extreme only with a strictly better value; two running
 * reductions combine keeping the better value and, on a tie, the earlier point, so every order of combining gives
 * the oracle's answer: the first point in row-major order. A sum wraps as the field's type does. An extreme of an int
 * field asked with its point is taken once a step ({@link BandFolding#takenOnceAStep}): the step's values of the
 * lane's columns, then one mask that keeps the row and those values where the step beats the lane's best; the column
 * is found at the band's end ({@link #resolvePoint}).
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

    /** The running value before any point: the reduction's identity. */
    private String start() {
        boolean isInt = type == Type.INT;
        return switch (reduction.reduction()) {
            case MAX -> isInt ? "INT_MIN" : "LLONG_MIN";
            case MIN -> isInt ? "INT_MAX" : "LLONG_MAX";
            case SUM -> "0";
        };
    }

    /** Declares the running reduction, before any point. */
    void declare(CudaWriter out) {
        out.line(cType() + " " + value + " = " + start() + ";   // " + reduction.name() + " of the points met so far");
        if (positioned()) {
            out.line("long long " + at + " = -1;   // the first point that holds it, row-major (-1: none yet)");
        }
    }

    /** Whether a lane takes it once a step: {@link BandFolding#takenOnceAStep}. */
    boolean onceAStep() {
        return BandFolding.takenOnceAStep(reduction, type);
    }

    private String row() {
        return value + "_row";
    }

    private String keptValue(int column) {
        return value + "_c" + column;
    }

    private String stepValue(int column) {
        return value + "_s" + column;
    }

    /** Taken once a step: declares the row where the lane's best first stood and that row's values, before any step. */
    void declareStepState(CudaWriter out, int lanes) {
        out.line("int " + row() + " = -1;   // the row where my best first stood (-1: none yet)");
        StringBuilder values = new StringBuilder();
        for (int c = 0; c < lanes; c++) {
            values.append(c == 0 ? "" : " ").append("int ").append(keptValue(c)).append(" = 0;");
        }
        out.line(values + "   // that row's values of my columns");
    }

    /** Taken once a step: this step's value of each of the lane's columns, none (the extreme's identity) until computed. */
    void stepStart(CudaWriter out, int lanes) {
        String none = reduction.reduction() == Reduction.MAX ? "INT_MIN" : "INT_MAX";
        StringBuilder values = new StringBuilder();
        for (int c = 0; c < lanes; c++) {
            values.append(c == 0 ? "" : " ").append("int ").append(stepValue(c)).append(" = ").append(none).append(";");
        }
        out.line(values + "   // my columns' values of " + reduction.field() + " in this step, for " + reduction.name());
    }

    private String limit(int column) {
        return value + "_lim_c" + column;
    }

    /**
     * Before a band's steps: for column {@code column} of a lane, whose expression is {@code at}, in a domain
     * {@code width} columns wide, what {@link #orIdentity} combines its values with: the identity where the column lies
     * right of the domain, else what leaves a value as it is (a loop invariant, so a step spends one operation on it and
     * no predicate: a select a step ran smith-waterman-seq 65001², four columns a lane, in 12.46 ms on an H200, this
     * form in 10.15, none in 9.14).
     */
    void declareLimit(CudaWriter out, int column, String at, long width) {
        boolean isInt = type == Type.INT;
        String keeps = switch (reduction.reduction()) {
            case MAX -> isInt ? "INT_MAX" : "LLONG_MAX";
            case MIN -> isInt ? "INT_MIN" : "LLONG_MIN";
            case SUM -> "-1";
        };
        out.line("const " + cType() + " " + limit(column) + " = " + at + " < " + width + " ? " + keeps + " : " + start()
                + ";   // my column " + column + " in the domain, for " + reduction.name() + ": a value as it is, else none");
    }

    /** Column {@code column}'s {@code point}, or the reduction's identity where the column lies right of the domain ({@link #declareLimit}). */
    String orIdentity(String point, int column) {
        return switch (reduction.reduction()) {
            case MAX -> "min(" + point + ", " + limit(column) + ")";
            case MIN -> "max(" + point + ", " + limit(column) + ")";
            case SUM -> "(" + point + " & " + limit(column) + ")";
        };
    }

    /**
     * At a band's end, before the warp combines its lanes: a lane for which {@code outside} holds takes back every
     * point it met (they lay right of the domain), so that it adds nothing.
     */
    void dropWhere(CudaWriter out, String outside) {
        out.line("if (" + outside + ") { " + value + " = " + start() + ";" + (positioned() ? " " + at + " = -1;" : "")
                + (onceAStep() ? " " + row() + " = -1;" : "") + " }   // my columns lie right of the domain: I add nothing");
    }

    /**
     * A point that counts only where {@code inside} holds (a guarded step's row in the domain), else the reduction's
     * identity: for a reduction taken a point at a time that keeps no point ({@link dev.finegrain.compiler.backend.gpu.GuardedSteps}).
     */
    String orStartUnless(String inside, String point) {
        return "(" + inside + " ? " + point + " : " + start() + ")";
    }

    /** Taken once a step: column {@code column}'s value in this step. */
    void take(CudaWriter out, int column, String point) {
        out.line(stepValue(column) + " = " + point + ";");
    }

    /**
     * Taken once a step: the step's extreme over the lane's columns, and a mask, all ones where it beats the lane's
     * best, that keeps the row and the step's values. {@code seen} is null where every lane has met a point before
     * this step (a steady step), else a condition under which the lane meets one in it: then a lane with none yet
     * keeps the step even when it does not beat the start value.
     */
    void stepEnd(CudaWriter out, int lanes, String seen) {
        stepEnd(out, lanes, seen, null);
    }

    /**
     * As {@link #stepEnd(CudaWriter, int, String)}, in a guarded step: the step's values count only where {@code inside}
     * holds (the lane's row is in the domain), one select a step rather than one a column.
     */
    void stepEnd(CudaWriter out, int lanes, String seen, String inside) {
        String op = reduction.reduction() == Reduction.MAX ? "max" : "min";
        // the step's values first, the running best last: the chain a step waits on from the last is one operation
        String extreme = stepValue(0);
        for (int c = 1; c < lanes; c++) {
            extreme = op + "(" + extreme + ", " + stepValue(c) + ")";
        }
        extreme = inside == null ? op + "(" + value + ", " + extreme + ")" : inside + " ? " + op + "(" + value + ", " + extreme + ") : " + value;
        out.open("/* " + reduction.name() + ", once a step */");
        out.line("const int e = " + extreme + ";   // my best with this step's values");
        String gain = reduction.reduction() == Reduction.MAX ? "(unsigned) e - (unsigned) " + value : "(unsigned) " + value + " - (unsigned) e";
        String noneYet = seen == null ? "" : " | (" + (seen.equals("true") ? "" : seen + " ? ") + row() + " >> 31" + (seen.equals("true") ? "" : " : 0") + ")";
        out.line("const int beats = -(int) min(" + gain + ", 1u)" + noneYet + ";   // all ones where this step beats my best"
                + (seen == null ? "" : " or gives my first point"));
        out.line(value + " = e;");
        out.line(row() + " = (i & beats) | (" + row() + " & ~beats);");
        for (int c = 0; c < lanes; c++) {
            out.line(keptValue(c) + " = (" + stepValue(c) + " & beats) | (" + keptValue(c) + " & ~beats);");
        }
        out.close();
    }

    /**
     * Taken once a step, at the band's end: the lane's point, the first of its columns (expressions {@code columns},
     * left to right) whose value in the kept row is its best, in a domain {@code width} columns wide.
     */
    void resolvePoint(CudaWriter out, List<String> columns, long width) {
        String column = columns.getLast();
        for (int c = columns.size() - 2; c >= 0; c--) {
            column = keptValue(c) + " == " + value + " ? " + columns.get(c) + " : " + column;
        }
        out.line("if (" + row() + " >= 0) " + at + " = (long long) " + row() + " * " + width + " + (" + column
                + ");   // my point: the first of my columns that holds my best, in its row");
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
