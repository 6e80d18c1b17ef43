package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.gpu.BandMapping;
import dev.finegrain.compiler.ir.IrField;

import java.util.List;

/**
 * The sequences along the rows that a band's steps read a step ahead ({@link BandMapping#rowSequences}): a register per
 * sequence holds the value at the lane's row, loaded in the step before; each step loads the value for its next row and
 * hands it on at its end. Steady chunks lie wholly inside the domain (a band whose first chunk is peeled into the steady
 * steps reads no sequence along the rows: {@link dev.finegrain.compiler.backend.gpu.FirstChunk}), so there the only
 * index to clamp is the next row of a chunk's last step; a checked or guarded chunk clamps every row into the domain (a
 * lane above or below it computes nothing that leaves it, and the clamped row is a valid one to load).
 */
final class CudaRowAhead {

    private final CudaBandContext cx;
    private final CudaWriter out;
    private final List<IrField> fields;
    private final int lastRow;

    CudaRowAhead(CudaBandContext cx) {
        this.cx = cx;
        this.out = cx.out;
        this.fields = cx.mapping.rowSequences();
        this.lastRow = cx.mapping.rows() - 1;
    }

    /** Before a chunk's steps: each sequence at the lane's row in the first step (clamped into the domain unless {@code steady}). */
    void beforeSteps(boolean steady) {
        for (IrField field : fields) {
            out.line(cx.type(field) + " " + current(field) + " = __ldg(&f." + CudaNames.member(field.name()) + "["
                    + (steady ? "base - lane" : clamped("base - lane")) + "]);   // sequence '" + field.name()
                    + "' at my row, loaded a step ahead from here on");
        }
    }

    /** At a step's start: each sequence at the lane's next row, for the step after this one. */
    void loadNext(boolean steady) {
        for (IrField field : fields) {
            out.line("const " + cx.type(field) + " " + next(field) + " = __ldg(&f." + CudaNames.member(field.name()) + "["
                    + (steady ? "min(i + 1, " + lastRow + ")" : clamped("i + 1")) + "]);   // for my next row, loaded while this step computes");
        }
    }

    private String clamped(String row) {
        return "min(max(" + row + ", 0), " + lastRow + ")";
    }

    /** At a step's end: the next row's values become the current ones. */
    void advance() {
        for (IrField field : fields) {
            out.line(current(field) + " = " + next(field) + ";");
        }
    }

    /** Whether a step reads {@code field} from its register. */
    boolean holds(IrField field) {
        return fields.contains(field);
    }

    /** The register that holds {@code field} at the lane's row in a step. */
    String current(IrField field) {
        return "row_" + CudaNames.member(field.name());
    }

    private String next(IrField field) {
        return "row_" + CudaNames.member(field.name()) + "_next";
    }
}
