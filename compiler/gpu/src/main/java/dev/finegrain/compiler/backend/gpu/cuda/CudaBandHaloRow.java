package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.gpu.BandMapping;
import dev.finegrain.compiler.ir.IrField;

import java.util.List;

/**
 * Spells what a lane of a persistent band ({@link CudaBandStep}) holds as its values in a step whose row lies above the
 * domain: the halo row, from the registers the band loaded at its start, which the lanes below and to the right read as
 * its history. Four steps ask for it: a checked step of a lane of one column (inside that column's test), a checked
 * step of a lane of several (after the test of its row), a band's first chunk peeled into the steady steps
 * ({@link dev.finegrain.compiler.backend.gpu.FirstChunk}) and a guarded step
 * ({@link dev.finegrain.compiler.backend.gpu.GuardedSteps}), where the lane overwrites what it computed.
 */
final class CudaBandHaloRow {

    private static final String WHY = "above the domain: the halo row, which the lanes below and to the right read as my history";

    private final BandMapping mapping;
    private final CudaFields fields;
    private final CudaWriter out;
    private final CudaBandContext cx;

    CudaBandHaloRow(CudaBandContext cx, CudaFields fields) {
        this.cx = cx;
        this.mapping = cx.mapping;
        this.fields = fields;
        this.out = cx.out;
    }

    /** A checked step of a lane of one column, column {@code c}: the branch after the column's own test. */
    void elseForColumn(int c) {
        if (cx.stateFieldsWithHistory().isEmpty()) {
            return;
        }
        out.reopen("else if (" + inHalo() + " && " + cx.column(c) + " < " + mapping.columns() + ")");
        take(c, "");
    }

    /** A checked step of a lane of several columns: the branch after the test of the lane's row. */
    void elseForRow() {
        if (cx.stateFieldsWithHistory().isEmpty()) {
            return;
        }
        out.reopen("else if (" + inHalo() + ")");
        for (int c = 0; c < mapping.laneColumns(); c++) {
            take(c, mapping.raggedBand().checksEachColumn() ? "if (" + cx.column(c) + " < " + mapping.columns() + ") " : "");
        }
    }

    /** A peeled first chunk's or a guarded step: every column's halo value in place of what a lane above the domain computed. */
    void overwriteAbove() {
        if (cx.stateFieldsWithHistory().isEmpty()) {
            return;
        }
        out.open("if (i < 0)");
        for (int c = 0; c < mapping.laneColumns(); c++) {
            take(c, "");
        }
        out.close();
    }

    private String inHalo() {
        return "i < 0 && i >= " + (-fields.halo().low()[0]);
    }

    /** Column {@code c}'s values of every field with a history, each after {@code prefix} (a test, or ""). */
    private void take(int c, String prefix) {
        if (c == 0) {
            out.comment(WHY);
        }
        List<IrField> withHistory = cx.stateFieldsWithHistory();
        for (IrField field : withHistory) {
            out.line(prefix + cx.own(field, c) + " = " + value(field, c) + ";");
        }
    }

    /** My column's halo value in row i above the domain. */
    private String value(IrField field, int c) {
        int haloRows = fields.halo().low()[0];
        if (haloRows == 0) {
            return "0";   // no row above the domain: the branch that asks is never taken
        }
        String value = cx.above(field, c, haloRows - 1);
        for (int up = haloRows - 2; up >= 0; up--) {
            value = "i == " + (-1 - up) + " ? " + cx.above(field, c, up) + " : " + value;
        }
        return value;
    }
}
