package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.backend.KeptBox;
import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.Keep;
import dev.finegrain.dsl.ReductionSpec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Storage folding on the persistent bands (Halide's storage folding): a state field the kernel does not keep whole
 * has no array over the domain on the GPU. A lane's reads of it come from its registers and its neighbours' (as for
 * every field on a band); what crosses a band edge goes through an edge array of the band's last columns (or, under
 * tiny-lock, the ready words that are the edge already); the boundary is a halo frame (the halo rows above the domain
 * and the halo columns left of it); the kept slice is written where a lane computes it, and each reduction streams:
 * every lane reduces the points it computes, the warp combines its lanes at the end of a band into one partial per
 * band, and a second launch of one warp combines the bands, keeping the first point in row-major order on a tie.
 *
 * <p>All of it lies in the run's scratch memory after the edge tokens, at the offsets given here, so the GPU holds
 * the frame, the edge (bands x edge columns x a ring's rows, {@link EdgeRing}) and the kept values, not rows x columns.
 *
 * @param fields     the folded state fields, in the graph's order
 * @param reductions the reductions of folded fields, streamed on the GPU
 * @param offsets    where each part lies in scratch memory, by {@link #edgeKey}, {@link #keptKey},
 *                   {@link #partialsKey} and {@link #resultKey}
 * @param bytes      scratch bytes past the start of the first part
 * @param foldsEveryStateField whether no state field of the kernel has an array over the domain on the GPU
 */
public record BandFolding(List<IrField> fields, List<ReductionSpec> reductions, Map<String, Long> offsets, long bytes,
                          boolean foldsEveryStateField) {

    /** A reduction's partial or result: its value widened to 64 bits, then its point's row-major index (-1: none). */
    public static final int REDUCED_BYTES = 16;

    /** A mapping that folds nothing. */
    public static final BandFolding NONE = new BandFolding(List.of(), List.of(), Map.of(), 0, false);

    public BandFolding {
        fields = List.copyOf(fields);
        reductions = List.copyOf(reductions);
        offsets = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(offsets));
    }

    /**
     * The folding of a band mapping: every state field kept in part folds (a band never needs a field's values once the
     * lanes to its right and the band to its right have read them), and so does each reduction over such a field.
     *
     * @param start        the first scratch byte free after the edge tokens
     * @param edgeRows     rows of edge values each band holds: every row, or a ring's ({@link EdgeRing})
     * @param edgeFields   the fields that cross a band edge
     * @param tokenWords   whether the edge values are read from memory after a token (not ready words, which hold them)
     * @param keptSlack    elements after each field's kept values that take the stores of a last band's columns right
     *                     of the domain, which compute untested ({@link RaggedBand}): a band's width where the last band
     *                     runs as a full one, else 0
     */
    static BandFolding of(KernelGraph graph, int[] sizes, int bands, int edgeColumns, int edgeRows, List<IrField> edgeFields,
                          boolean tokenWords, int keptSlack, long start) {
        List<IrField> folded = foldedFields(graph);
        List<ReductionSpec> reductions = foldedReductions(graph);
        Map<String, Long> offsets = new LinkedHashMap<>();
        long at = align(start);
        for (IrField field : folded) {
            if (tokenWords && edgeFields.contains(field)) {
                offsets.put(edgeKey(field), at);
                at = align(at + (long) bands * edgeColumns * edgeRows * GpuTarget.elementBytes(field.type()));
            }
            offsets.put(keptKey(field), at);
            at = align(at + (KeptBox.of(graph.kernel().keep(field.name()), sizes).points() + (long) keptSlack) * GpuTarget.elementBytes(field.type()));
        }
        for (ReductionSpec reduction : reductions) {
            offsets.put(partialsKey(reduction), at);
            at += (long) bands * REDUCED_BYTES;
            offsets.put(resultKey(reduction), at);
            at += REDUCED_BYTES;
        }
        return new BandFolding(folded, reductions, offsets, at - start,
                !folded.isEmpty() && folded.size() == graph.fields().stream().filter(IrField::isState).count());
    }

    /** The state fields kept in part: those a band folds. */
    public static List<IrField> foldedFields(KernelGraph graph) {
        return graph.fields().stream().filter(field -> field.isState() && graph.kernel().keep(field.name()) != Keep.ALL).toList();
    }

    /** The reductions of the fields a band folds, which stream on the GPU. */
    public static List<ReductionSpec> foldedReductions(KernelGraph graph) {
        List<IrField> folded = foldedFields(graph);
        return graph.kernel().reductions().stream()
                .filter(reduction -> folded.stream().anyMatch(field -> field.name().equals(reduction.field()))).toList();
    }

    /**
     * Whether a lane takes {@code reduction}, of a field of {@code type}, once a step instead of once a point: an
     * extreme (max, min) of an int field asked with its point. The lane reduces the step's values over its columns,
     * and where that beats its best (or it has none yet) keeps the step's row and its columns' values, by a mask and
     * not a branch; the first of its columns that holds the best is found once, at the band's end. The lane meets its
     * rows in order, so this is the point a test a point finds. A test and a 64-bit point a point (about six
     * instructions against the cell's two or three) held a step back: on an H200, smith-waterman-seq 65536², four
     * columns a lane, 11.22 ms a test a point, 10.00 once a step, 8.57 with no reduction at all (its best wrong).
     */
    public static boolean takenOnceAStep(ReductionSpec reduction, dev.finegrain.dsl.Type type) {
        return reduction.withPosition() && reduction.reduction().hasPosition() && type == dev.finegrain.dsl.Type.INT;
    }

    /**
     * How many steps a pass of a chunk's checked loop (a band's first and last chunk, where they do not take the guarded
     * steps: {@link GuardedSteps}) takes: 8 where a lane takes a
     * reduction once a step ({@link #takenOnceAStep}), so that a step's reduction overlaps the next step's work, else
     * 1. A band's first chunk lies on the chain every band to its right waits along: on an H200, smith-waterman-seq
     * 65536², four columns a lane, 10.16 ms rolled and 9.44 unrolled; needleman-wunsch-seq, which reduces nothing,
     * gained nothing from it (eight columns, 8.11 against 8.15 ms).
     */
    public int checkedUnroll(KernelGraph graph) {
        boolean onceAStep = reductions.stream()
                .anyMatch(reduction -> takenOnceAStep(reduction, graph.field(reduction.field()).type()));
        return onceAStep ? 8 : 1;
    }

    public boolean folds(IrField field) {
        return fields.contains(field);
    }

    public boolean isEmpty() {
        return fields.isEmpty();
    }

    /** Whether folded {@code field} crosses band edges through an edge array (token words) rather than ready words. */
    public boolean hasEdgeArray(IrField field) {
        return offsets.containsKey(edgeKey(field));
    }

    public long offset(String key) {
        Long offset = offsets.get(key);
        if (offset == null) {
            throw new IllegalArgumentException("no part " + key + " in the folding");
        }
        return offset;
    }

    public static String edgeKey(IrField field) {
        return field.name() + ".edge";
    }

    /** Also the name of the kept values' output file: {@code <field>.kept.bin}. */
    public static String keptKey(IrField field) {
        return field.name() + ".kept";
    }

    public static String partialsKey(ReductionSpec reduction) {
        return reduction.field() + "." + reduction.reduction().cliName() + ".partials";
    }

    /** Also the name of the reduction's output file: {@code <field>.<max|min|sum>.bin}. */
    public static String resultKey(ReductionSpec reduction) {
        return reduction.field() + "." + reduction.reduction().cliName();
    }

    /** What {@code show} prints of the folding: one line per folded field, none when nothing folds. */
    List<String> describe(KernelGraph graph, int[] sizes, int bands, int edgeColumns, int edgeRows) {
        List<String> lines = new ArrayList<>();
        for (IrField field : fields) {
            Keep keep = graph.kernel().keep(field.name());
            List<String> parts = new ArrayList<>();
            parts.add("no array over the domain; the halo frame above and left of it");
            if (hasEdgeArray(field)) {
                parts.add("an edge array of " + edgeColumns + " column(s) x " + edgeRows + " rows per band"
                        + (edgeRows < sizes[0] ? " (a ring)" : ""));
            }
            parts.add(KeptBox.of(keep, sizes).points() + " kept value(s) (" + keep.cliName() + ") written where computed");
            for (ReductionSpec reduction : reductions) {
                if (reduction.field().equals(field.name())) {
                    parts.add(reduction.name() + (reduction.withPosition() ? " with its point" : "")
                            + " streamed by each lane, combined per band (" + bands + " partials) and then by one warp");
                }
            }
            lines.add(field.name() + ": " + String.join("; ", parts));
        }
        return lines;
    }

    private static long align(long bytes) {
        return (bytes + 15) / 16 * 16;
    }
}
