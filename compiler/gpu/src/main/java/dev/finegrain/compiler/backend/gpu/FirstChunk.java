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
 * the halo row as its values, so that the lanes below and to the right read it as they would from the checked steps.
 *
 * <p>A band's first chunk lies on the chain every band to its right waits along (band b starts when band b - 1 has
 * finished the rows of its first window, in its second chunk). On an H200 (CUDA 13.0, every cell verified), the
 * full-matrix bands with helper warps ran needleman-wunsch 16384² with four columns a lane in 1.66 ms with the first
 * chunk peeled and steady against 1.75 checked, and 8192² in 0.78 against 0.83. The same peel in a band that moves its
 * own rows (the folded sequence bands, one warp) ran slower: needleman-wunsch-seq 65536², eight columns, 8.76 against
 * 8.11 ms, smith-waterman-seq with four 10.06 against 9.44; a first chunk in the steady form inside the loop had slowed
 * every steady chunk (`fastfirst`, 9.41 ms). So the peel is taken where the band has helper warps, which only the CUDA
 * target gives (the model's bands are one warp: it never peels).
 *
 * <p>What a lane computes above the domain must be harmless: its values go only into the output rings' slots of rows
 * -31 to -1, which hold rows R - 31 to R - 1 of an R-row ring once the lanes reach them, before the writer copies those
 * out (it copies no row above the domain), and no edge value is published (its stores are held by {@code i >= 0}); nothing it computes can fault or flag an error (a division only by a constant, no loop,
 * no lookup, whose indices would be garbage) or be read out of bounds (every input read from an input ring or once per
 * lane at its column); no reduction takes its values; and the chunk holds no row past the domain's last (32 rows or
 * more) nor a checked last band.
 *
 * @param steady         whether the first chunk is peeled out of the chunk loop and runs the steady steps
 * @param checkedBecause where it is not, why (for the plan's line); else ""
 */
public record FirstChunk(boolean steady, String checkedBecause) {

    /**
     * The decision for a band with or without {@code helpers} over {@code rows} rows, whose last band is full or runs as
     * one ({@code lastBandSteady}), with its input rings and sequences read once per lane.
     */
    static FirstChunk of(KernelGraph graph, boolean helpers, int rows, boolean lastBandSteady, List<BandMapping.Ring> inputRings,
                         List<IrField> laneSequences, BandFolding folding) {
        String because = whyChecked(graph, helpers, rows, lastBandSteady, inputRings, laneSequences, folding);
        return new FirstChunk(because.isEmpty(), because);
    }

    /** The plan's words for a peeled first chunk, appended to its "bands:" line; "" where it is checked. */
    public String describe() {
        return steady ? "; the first chunk peeled out of the chunk loop in the steady steps (lanes above the domain take the halo row)" : "";
    }

    private static String whyChecked(KernelGraph graph, boolean helpers, int rows, boolean lastBandSteady, List<BandMapping.Ring> inputRings,
                                     List<IrField> laneSequences, BandFolding folding) {
        if (!helpers) {
            return "the band moves its own rows (a peeled first chunk ran slower there)";
        }
        if (rows < GpuTarget.WARP) {
            return "fewer than " + GpuTarget.WARP + " rows: the first chunk is also the last";
        }
        if (!lastBandSteady) {
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
