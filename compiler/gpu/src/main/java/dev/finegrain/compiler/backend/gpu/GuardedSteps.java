package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.ReductionSpec;

import java.util.List;

/**
 * How a band moving its own rows runs the chunks that are not steady (its first, in which lanes lie above the domain;
 * its last, in which lanes lie below it; those beside a kept box's rows): in the checked steps, a test of the lane's
 * row around its columns, or in the guarded steps: every lane computes every column in every step, as a steady step
 * does, and only what leaves the lane is guarded by its row. A lane above the domain then takes the halo row as its
 * values (as a peeled {@link FirstChunk} does); a lane below it computes values that only lanes below it read (a lane
 * reads the lanes to its left one or more steps back, whose rows are its own or above it), and none of them leaves it:
 * its edge values and kept values are stored only where its row is in the domain, and a step's reduction candidates
 * count only there.
 *
 * <p>A band's first and last chunks lie on the chains every band to its right waits along: band b starts once band b -
 * 1 has computed the rows of its first window (in its second chunk), and ends once band b - 1 has computed its last
 * row (in its last chunk), so each band's end chunks add up along the chain of ends that sets the run (on an H200,
 * needleman-wunsch-seq 65536², eight columns a lane, its two last chunks checked: a band ended 10.8 µs after its left
 * neighbour where it ran 6.0 µs behind it in the middle, a checked chunk taking about 8 µs against a steady one's 2.6;
 * a timer a chunk).
 *
 * <p>A lane outside the domain is harmless only where nothing it computes leaves it but through these guards: every
 * state field folded (no array over the domain, no rings), every input a sequence (read once per lane in its column,
 * or along the rows at the lane's row clamped into the domain), nothing that can fault on a value it computes (a
 * division only by a constant other than zero, no loop, every lookup a query profile's row, checked once a step at the
 * clamped row, or one whose indices are the same in every column and do not read the row), and every reduction one
 * whose candidates can be masked (taken once a step, or kept without its point).
 *
 * @param guarded        whether the chunks that are not steady take the guarded steps
 * @param checkedBecause where they do not, why (for tests and reasons); else ""
 */
public record GuardedSteps(boolean guarded, String checkedBecause) {

    /**
     * Steps a pass of the guarded loop takes: unrolled four times. On an H200 (65536², every score checked), the
     * guarded steps ran needleman-wunsch-seq, eight columns a lane, in 7.03 ms rolled, 6.85 unrolled four times, 7.15
     * eight times; smith-waterman-seq, four columns a lane, its last row in registers, 8.67 twice, 8.28 four times,
     * 8.27 eight times.
     */
    public static final int UNROLL = 4;

    /** The decision for a band with or without {@code helpers}, with its output rings and query profiles. */
    static GuardedSteps of(KernelGraph graph, boolean helpers, List<BandMapping.Ring> outputRings, List<LaneProfile> profiles,
                           BandFolding folding) {
        String because = whyChecked(graph, helpers, outputRings, profiles, folding);
        return new GuardedSteps(because.isEmpty(), because);
    }

    /** The plan's words for the guarded steps, appended to its "bands:" line; "" where the chunks are checked. */
    public String describe() {
        return guarded ? "; the first and last chunks in the guarded steps (every lane computes; only what leaves a lane is"
                + " tested against its row)" : "";
    }

    private static String whyChecked(KernelGraph graph, boolean helpers, List<BandMapping.Ring> outputRings, List<LaneProfile> profiles,
                                     BandFolding folding) {
        if (helpers) {
            return "the band has helper warps, which move rows kept whole";
        }
        String harmful = RaggedBand.whyHarmful(graph, outputRings, profiles, "outside the domain", true);
        if (!harmful.isEmpty()) {
            return harmful;
        }
        for (ReductionSpec reduction : folding.reductions()) {
            if (reduction.withPosition() && reduction.reduction().hasPosition()
                    && !BandFolding.takenOnceAStep(reduction, graph.field(reduction.field()).type())) {
                return reduction.name() + " keeps its point a point at a time, which a masked candidate would take";
            }
        }
        return "";
    }
}
