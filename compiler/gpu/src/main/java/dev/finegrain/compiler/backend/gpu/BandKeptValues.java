package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.backend.KeptBox;
import dev.finegrain.compiler.ir.IrField;

/**
 * Where a persistent band puts a folded field's kept values ({@link BandFolding}), decided once for both emitters: which
 * chunks must test for the kept box's rows before they take the steady steps, which steps store a kept value as they
 * meet it, and which boxes a lane holds in registers until its band's end.
 *
 * @param mapping the bands
 */
public record BandKeptValues(BandMapping mapping) {

    /** The box of the domain a folded field keeps. */
    public KeptBox box(IrField field) {
        return KeptBox.of(mapping.graph().kernel().keep(field.name()), mapping.sizes());
    }

    /**
     * Whether a steady chunk's steps store a folded field's kept values: only for a box that spans every row (the last
     * column), whose band would otherwise never be steady; any other box starts below row 0 (the last row, the final
     * point), and a steady chunk lies above it.
     */
    public boolean storedBySteadySteps(IrField field) {
        return box(field).first()[0] == 0;
    }

    /**
     * The bands wholly left of a folded field's kept box: they store none of its values, so that their chunks beside the
     * box's rows take the steady steps too. Only the bands from this one on check those chunks. A band's last chunks
     * lie on the chain of bands' ends: a band can finish only once the band to its left has published its last row, so
     * the chunks that follow it add up along the chain. On an H200 (needleman-wunsch-seq 65536², eight columns a lane,
     * the final point kept; a timer a chunk) a band ended 10.8 µs after its left neighbour while running 6.0 µs behind
     * it in the middle of the run: its last two chunks were checked, about 8 µs each against 2.6. With the bands left of
     * the point steady there, the bands ended 8.3 µs apart and the unit ran in 7.05 ms against 7.64 (untimed).
     */
    public int bandsLeftOf(IrField field) {
        return box(field).first()[1] / mapping.bandWidth();
    }

    /**
     * Whether a lane holds its values of a folded field's kept box in registers, one a column, taken by a select in the
     * step whose row is the box's, and stores them once, at its band's end: a box of one row below row 0 and more than
     * one column (the last row), which each lane meets in one step of its last chunks, where those take the guarded
     * steps ({@link GuardedSteps}; the checked steps store a value only inside their test of the row). A store a column
     * in those chunks' steps, behind a test of the row, set the pace of the chain of bands' ends: on an H200, smith-waterman-seq
     * 65536², four columns a lane, the last row kept, ran 8.63 ms with those stores and 8.34 with none (the guarded
     * steps unrolled twice; 8.02 unrolled eight times; 10.76 as predicated stores in inline PTX), and 8.27 with the
     * registers (unrolled four or eight times). A box of one point (the final point) keeps its store: one column of one
     * lane holds it, and registers for every column ran needleman-wunsch-seq, eight columns a lane, in 7.45 ms against
     * 6.85 with the store (a steady chunk 7 % slower, traced: nvcc allocated the loop's registers otherwise). So does a
     * last band narrower than the others (run as a full one, {@link RaggedBand}): with the registers, smith-waterman-seq
     * at 1000x600 and 3000x200, four columns a lane, ran 0.150 and 0.334 ms against 0.118 and 0.267 with the stores
     * (a band's median chunk 3.36 µs against 2.21 at 512², traced), where at 65536² the registers ran faster (above).
     */
    public boolean inRegisters(IrField field) {
        int[] extents = box(field).extents();
        return mapping.guardedSteps().guarded() && !storedBySteadySteps(field) && extents[0] == 1 && extents[1] > 1 && mapping.columns() % mapping.bandWidth() == 0;
    }

    /**
     * Whether a step stores a folded field's kept values as it meets them (behind a test of the box): a checked or
     * guarded step ({@code untested}: a steady or a guarded one; {@code guarded}: a guarded one), and a steady one only
     * for a box that spans every row; never where the lane holds them in registers ({@link #inRegisters}).
     */
    public boolean storedByStep(IrField field, boolean untested, boolean guarded) {
        return !inRegisters(field) && (!untested || guarded || storedBySteadySteps(field));
    }

    /**
     * Whether a chunk beside a folded field's kept rows must test for them to take the steady steps: the box starts
     * below row 0 (a steady step stores no value of it), and some band that may step steadily is not left of it.
     */
    public boolean rowsCheckChunks(IrField field) {
        return !storedBySteadySteps(field) && bandsLeftOf(field) < mapping.steadyBands();
    }
}
