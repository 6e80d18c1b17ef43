package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.IrActor;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;

import java.util.List;

/**
 * How a persistent band runs its first chunk of 32 steps, in which lane l lies above the domain for its first l steps:
 * inside the chunk loop in the checked steps (a test of the lane's row a step, the halo row taken above the domain), or
 * peeled out of the loop in the steady steps, every lane computing every step and a lane above the domain then taking
 * the halo row as its values (row i of the halo for i at or below its depth, the deepest halo row above that, which
 * only lanes above the domain read), so that the lanes below and to the right read what the checked steps give them.
 *
 * <p>A band's first chunk lies on the chain every band to its right waits along (band b starts when band b - 1 has
 * finished the rows of its first window, in its second chunk). On an H200 (CUDA 13.0, every cell verified), the
 * full-matrix bands with helper warps ran needleman-wunsch 16384² with four columns a lane in 1.66 ms with the first
 * chunk peeled against 1.75 checked (a band starting 2.2 chunks after its left neighbour instead of 3.2, though each
 * steady chunk took 8 % longer, why not isolated), and 8192² in 0.78 against 0.83. Peeled out of the loop, the steady
 * form pays where inside it (`fastfirst` in nw-variants.py, a third copy of the steps in the loop) it had been a net
 * loss. The same peel in a band that moves its own rows (the folded sequence bands, one warp) ran 7 to 10 % slower:
 * needleman-wunsch-seq 65536², eight columns, 8.59 against 7.95 ms, smith-waterman-seq with four 9.90 against 9.04. So
 * the peel is taken only where the band has helper warps, which only the CUDA target gives (the model's bands are one
 * warp: it never peels); the CUDA emitter spells it in the helper warps' chunk loop.
 *
 * <p>What a lane computes above the domain must be harmless:
 * <ul>
 *   <li>its values go only into the output rings' slots of rows -31 to -1, which are slots 97 to 127 of a
 *       {@link BandMapping#HELPER_OUTPUT_RING_ROWS}-row ring: rows 97 to 127 fill them in the chunks that compute those
 *       rows, before the writer warp copies them out, and after the first chunk it copies row 0 alone (no row above
 *       the domain); a block starts its next band only after all three warps meet;</li>
 *   <li>it publishes no edge value (its stores are held by {@code i >= 0}: row -1's would land in the halo row);</li>
 *   <li>nothing it computes can fault or flag an error: a division only by a constant other than zero, no loop, no
 *       lookup (a lookup's indices, or a query profile's row, would be garbage, and its check would flag them);</li>
 *   <li>every input is read from an input ring (whose slot is a mask of the row) or once per lane at its column: a
 *       sequence along the rows would be loaded at a row above the domain;</li>
 *   <li>no reduction or folded field takes its values (with helper warps nothing folds: this holds already);</li>
 *   <li>the chunk holds no row past the domain's last (32 rows or more), and every band is full: a last band checked
 *       in every chunk (a field kept whole, columns right of the domain) shares the chunk loop's code.</li>
 * </ul>
 *
 * @param peeled         whether the first chunk is peeled out of the chunk loop and runs the steady steps
 * @param checkedBecause where it is not, why (for tests and reasons); else ""
 */
public record FirstChunk(boolean peeled, String checkedBecause) {

    /**
     * The decision for a band with or without {@code helpers} over {@code rows} rows whose last band runs as {@code ragged}
     * says, with its input rings and the sequences it reads once per lane.
     */
    static FirstChunk of(KernelGraph graph, boolean helpers, int rows, RaggedBand ragged, List<BandMapping.Ring> inputRings,
                         List<IrField> laneSequences, BandFolding folding) {
        String because = whyChecked(graph, helpers, rows, ragged, inputRings, laneSequences, folding);
        return new FirstChunk(because.isEmpty(), because);
    }

    /** The plan's words for a peeled first chunk, appended to its "bands:" line; "" where it is checked. */
    public String describe() {
        return peeled ? "; the first chunk peeled out of the chunk loop in the steady steps (lanes above the domain take the halo row)" : "";
    }

    private static String whyChecked(KernelGraph graph, boolean helpers, int rows, RaggedBand ragged, List<BandMapping.Ring> inputRings,
                                     List<IrField> laneSequences, BandFolding folding) {
        if (!helpers) {
            return "the band moves its own rows (a peeled first chunk ran slower there)";
        }
        if (rows < GpuTarget.WARP) {
            return "fewer than " + GpuTarget.WARP + " rows: the first chunk is also the last";
        }
        if (ragged.checksEachColumn()) {
            return "the last band is checked in every chunk";
        }
        if (!folding.fields().isEmpty() || !folding.reductions().isEmpty()) {
            return "a folded field or a reduction would take the rows above the domain";
        }
        for (IrField field : graph.fields()) {
            boolean staged = inputRings.stream().anyMatch(ring -> ring.field().equals(field));
            if (!field.isState() && !staged && !laneSequences.contains(field)) {
                return "input '" + field.name() + "' would be read above the domain";
            }
        }
        for (IrActor actor : graph.actors()) {
            if (!RaggedBand.cannotFault(graph, actor.body(), lookup -> false)) {
                return "actor '" + actor.name() + "' could fault on a value computed above the domain";
            }
        }
        return "";
    }
}
