package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.KeptBox;
import dev.finegrain.compiler.backend.gpu.BandFolding;
import dev.finegrain.compiler.backend.gpu.BandMapping;
import dev.finegrain.compiler.backend.gpu.RaggedBand;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.dsl.ReductionSpec;

import java.util.ArrayList;
import java.util.List;

/**
 * Spells where a persistent band's step ({@link CudaBandStep}) puts a folded field's value, which has no array over the
 * domain ({@link BandFolding}): into its edge array where the band to the right reads it after a token, into its kept
 * values where the kept box holds the point, and into the lane's running reductions; in a last band run as a full one
 * ({@link RaggedBand}), what a column right of the domain would add to them is tested or masked.
 */
final class CudaBandFoldedStores {

    private final BandMapping mapping;
    private final CudaWriter out;
    private final CudaBandContext cx;

    CudaBandFoldedStores(CudaBandContext cx) {
        this.cx = cx;
        this.mapping = cx.mapping;
        this.out = cx.out;
    }

    /**
     * Column {@code c}'s {@code value} of {@code field} in a step ({@code steady} or not: a guarded step is untested, as a
     * steady one); {@code inside}: in a guarded step ({@link dev.finegrain.compiler.backend.gpu.GuardedSteps}), the test
     * that the lane's row is in the domain, which holds every store and reduction candidate; else null. {@code onEdge}
     * and {@code edgeSlot}: whether and where the column lies on the band's edge.
     */
    void store(IrField field, int c, boolean steady, String inside, String value, String onEdge, String edgeSlot) {
        BandFolding folding = mapping.folding();
        RaggedBand ragged = mapping.raggedBand();
        if (folding.hasEdgeArray(field)) {
            // no band reads the last band's edge; where it runs as a full one, its edge columns may lie right of the domain
            String publishes = (ragged.runsAsFull() ? onEdge + " && band < " + (mapping.bands() - 1) : onEdge) + (inside == null ? "" : " && " + inside);
            out.line("if (" + publishes + ") " + CudaBandContext.edgeArray(field) + "[" + cx.edgeIndex("band", edgeSlot, "i") + "] = " + value
                    + ";   // the edge, which the band to the right reads after the token");
        }
        String column = cx.column(c);
        boolean masked = ragged.masksColumns(steady, mapping.laneColumns());
        if (mapping.kept().inRegisters(field) && inside != null) {
            out.line(keptRegister(field, c) + " = i == " + mapping.kept().box(field).first()[0] + " ? " + value + " : " + keptRegister(field, c)
                    + ";   // kept (" + mapping.graph().kernel().keep(field.name()).cliName() + "), stored at the band's end");
        } else if (mapping.kept().storedByStep(field, steady, inside != null)) {
            storeKept(field, mapping.kept().box(field), column, value, masked && ragged.testsKeptColumns(mapping.kept().box(field)), inside);
        }
        for (ReductionSpec reduction : folding.reductions()) {
            if (reduction.field().equals(field.name())) {
                CudaReductions running = new CudaReductions(reduction, field.type(), CudaReductions.LANE);
                // in the last band, a lane that straddles the domain's right edge holds this column outside it
                String point = masked && ragged.testsReductionColumn(c) ? running.orIdentity(value, c) : value;
                if (running.onceAStep()) {
                    running.take(out, c, point);   // a guarded step masks the step's extreme: CudaReductions.stepEnd
                } else {
                    running.update(out, inside == null ? point : running.orStartUnless(inside, point), "(long long) i * " + mapping.columns() + " + " + column);
                }
            }
        }
    }

    /** Before a band's first step: the registers of each box a lane keeps in registers ({@link BandKeptValues#inRegisters}). */
    void declareKeptRegisters() {
        for (IrField field : mapping.folding().fields()) {
            if (mapping.kept().inRegisters(field)) {
                StringBuilder line = new StringBuilder();
                for (int c = 0; c < mapping.laneColumns(); c++) {
                    line.append(c == 0 ? "" : " ").append(cx.type(field)).append(" ").append(keptRegister(field, c)).append(" = 0;");
                }
                out.line(line + "   // my columns' values in the row '" + field.name() + "' keeps, stored at the band's end");
            }
        }
    }

    /** At a band's end: each register-held kept value into the kept values, where its column lies in the box (every band is full). */
    void storeKeptRegisters() {
        for (IrField field : mapping.folding().fields()) {
            if (!mapping.kept().inRegisters(field)) {
                continue;
            }
            KeptBox kept = mapping.kept().box(field);
            for (int c = 0; c < mapping.laneColumns(); c++) {
                String column = cx.column(c);
                out.line((kept.first()[1] == 0 ? "" : "if (" + column + " >= " + kept.first()[1] + ") ") + CudaBandContext.keptArray(field) + "[" + column
                        + (kept.first()[1] == 0 ? "" : " - " + kept.first()[1]) + "] = " + keptRegister(field, c) + ";   // kept ("
                        + mapping.graph().kernel().keep(field.name()).cliName() + ")");
            }
        }
    }

    private String keptRegister(IrField field, int c) {
        return "keep_" + CudaNames.member(field.name()) + "_c" + c;
    }

    /**
     * A folded field's value into its kept values, where the kept box holds the point; {@code testColumn}: the column may
     * lie right of the domain (the last band's untested columns, {@link RaggedBand}); {@code inside}: a guarded step's
     * test of its row, or null.
     */
    private void storeKept(IrField field, KeptBox kept, String column, String value, boolean testColumn, String inside) {
        List<String> inBox = new ArrayList<>();
        if (inside != null) {
            // a guarded step's row may lie above or below the domain: one unsigned compare tests both ends of the box's rows
            inBox.add(kept.first()[0] == 0 ? inside : "(unsigned) (i - " + kept.first()[0] + ") < " + kept.extents()[0] + "u");
        } else if (kept.first()[0] > 0) {
            inBox.add("i >= " + kept.first()[0]);
        }
        if (kept.first()[1] > 0) {
            inBox.add(column + " >= " + kept.first()[1]);
        }
        if (testColumn) {
            inBox.add(column + " < " + mapping.columns());
        }
        String index = "(long long) (i - " + kept.first()[0] + ") * " + kept.extents()[1] + " + (" + column + " - " + kept.first()[1] + ")";
        out.line((inBox.isEmpty() ? "" : "if (" + String.join(" && ", inBox) + ") ") + CudaBandContext.keptArray(field) + "[" + index + "] = "
                + value + ";   // kept (" + mapping.graph().kernel().keep(field.name()).cliName() + ")");
    }
}
