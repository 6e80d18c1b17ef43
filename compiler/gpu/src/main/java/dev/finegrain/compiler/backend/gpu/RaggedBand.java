package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.backend.KeptBox;
import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.IrActor;
import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.ir.Subexpressions;
import dev.finegrain.dsl.BinaryOperator;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * How the persistent bands treat the last band when the domain's columns are not a multiple of a band's width (real
 * sequences have any length): whether it runs as a full band does, its lanes' columns right of the domain computing
 * values nothing reads, or with its steady chunks taken as checked ones and a test a column in every checked step.
 *
 * <p>Checking cost far more than the last band's own steps: on an H200, smith-waterman-seq at 65000², four columns a
 * lane, ran 26.88 ms with the last band checked in every chunk and 14.64 with its steady chunks in the steady steps,
 * where every checked step still tested a column at a time; nvcc's code for those tests slowed every band's steady
 * steps too ({@link #checksEachColumn}).
 *
 * <p>A column right of the domain is harmless where nothing it computes leaves the lane but through what this class
 * tests: every state field folded (no array over the domain, no rings), every input a sequence (read once per lane,
 * clamped into the domain, or along the rows), nothing that can fault on a value it computes (a division only by a
 * constant, no loop, every lookup a query profile's row checked once a step at the lane's row or the same in every
 * column), and no band to its right (it is the last). Values flow only rightwards in a band (lanes read the lanes to
 * their left), so the columns of the domain never read them. What a lane feeds its kept values and reductions is
 * tested: a kept value under its column's test (a loop invariant), a reduction's value replaced by the reduction's
 * identity in the columns that a lane straddling the domain's right edge holds outside it, and the reductions of the
 * lanes wholly right of it dropped at the band's end. A kept value of a box of one row is not tested: the store of a
 * column right of the domain lands in slack after the box.
 *
 * @param runsAsFull    whether the last band, narrower than the others, runs as a full band does
 * @param columnsInside columns of the lane that straddles the domain's right edge inside it (columns mod the lane's
 *                      columns); 0 where no lane straddles it
 * @param checkedBecause where the last band is narrower and does not run as a full one, why; else ""
 */
public record RaggedBand(boolean runsAsFull, int columnsInside, String checkedBecause) {

    /** Every band full. */
    public static final RaggedBand FULL = new RaggedBand(false, 0, "");

    /**
     * The decision for a domain {@code columns} wide in bands of lanes of {@code laneColumns} columns, whose rings and
     * query profiles are {@code outputRings} and {@code profiles}.
     */
    static RaggedBand of(KernelGraph graph, int columns, int laneColumns, List<BandMapping.Ring> outputRings, List<LaneProfile> profiles) {
        if (columns % (GpuTarget.WARP * laneColumns) == 0) {
            return FULL;
        }
        String because = whyNotHarmless(graph, outputRings, profiles);
        return because.isEmpty() ? new RaggedBand(true, columns % laneColumns, "") : new RaggedBand(false, 0, because);
    }

    /** The last band's width and how it runs, for the plan's "bands:" line; "" where every band is full. */
    public String describe(BandMapping mapping) {
        int last = mapping.columns() % mapping.bandWidth();
        if (last == 0) {
            return "";
        }
        return "; the last " + last + " columns wide, " + (runsAsFull
                ? "run as a full band (its columns right of the domain compute what nothing reads"
                        + (columnsInside > 0 ? "; a lane holds " + columnsInside + " of its columns inside" : "") + ")"
                : "checked in every chunk, a test a column: " + checkedBecause);
    }

    /**
     * Whether column {@code c} of a lane is tested before it feeds a reduction, where the columns compute untested: the
     * straddling lane holds it outside the domain.
     */
    public boolean testsReductionColumn(int c) {
        return runsAsFull && columnsInside > 0 && c >= columnsInside;
    }

    /**
     * Whether a column is tested before it stores a kept value of {@code box}, where the columns compute untested: a box
     * of several rows (the last column), whose next row a column right of the domain would store into; a box of one row
     * (the last row, the final point) takes those stores in the slack after it ({@link BandFolding}'s kept slack), since a
     * test there slowed every step of the band: on an H200, smith-waterman-seq 65000², four columns a lane, ran 14.08 ms
     * with the last row's stores tested, 9.13 without (9.44 at 65536²).
     */
    public boolean testsKeptColumns(KeptBox box) {
        return runsAsFull && box.extents()[0] > 1;
    }

    /**
     * Whether a checked step of a lane of several columns tests each column against the domain's right edge: the last
     * band is narrower and does not run as a full one. Where it does, the columns compute untested, as in a full band:
     * per-column branches slowed every band's steps, steady ones too (on an H200, needleman-wunsch-seq 65536 x 65000,
     * eight columns a lane, 12.41 ms with them, 8.19 without).
     */
    public boolean checksEachColumn() {
        return !checkedBecause.isEmpty();
    }

    /**
     * Whether, in a step ({@code steady} or not) of lanes of {@code laneColumns} columns, what a column feeds its kept
     * values and reductions is tested against the domain's right edge: the last band runs as a full one, and its
     * columns compute untested (every steady step; a checked step of a lane of several columns, whose one column a
     * lane of one tests anyway).
     */
    public boolean masksColumns(boolean steady, int laneColumns) {
        return runsAsFull && (steady || laneColumns > 1);
    }

    /** Whether a lane wholly right of the domain drops its reductions at the band's end. */
    public boolean dropsLanesOutside() {
        return runsAsFull;
    }

    /** Why a column right of the domain would not be harmless computed untested; "" where it is. */
    private static String whyNotHarmless(KernelGraph graph, List<BandMapping.Ring> outputRings, List<LaneProfile> profiles) {
        return whyHarmful(graph, outputRings, profiles, "right of the domain", false);
    }

    /**
     * Why what a lane computes at points {@code where} (outside the domain) could leave it other than through the tests
     * the bands make, or fault; "" where it cannot: every state field folded (no rings), every input a sequence, and
     * nothing that can fault. A lookup is safe where it is a query profile's row, checked once a step at the lane's row
     * (clamped into the domain), or its indices are the same in every column (the row's) and, where {@code rowsOutside}
     * (the lane's row itself may lie outside: {@link GuardedSteps}), do not read the row. Shared by the last band's
     * columns right of the domain and the guarded steps' rows above and below it.
     */
    static String whyHarmful(KernelGraph graph, List<BandMapping.Ring> outputRings, List<LaneProfile> profiles, String where,
                             boolean rowsOutside) {
        long stateFields = graph.fields().stream().filter(IrField::isState).count();
        if (BandFolding.foldedFields(graph).size() != stateFields || !outputRings.isEmpty()) {
            return "a field kept whole would be stored " + where;
        }
        List<IrField> sequences = new java.util.ArrayList<>(BandMapping.laneSequences(graph));
        sequences.addAll(BandMapping.rowSequences(graph));
        for (IrField field : graph.fields()) {
            if (!field.isState() && !sequences.contains(field)) {
                return "input '" + field.name() + "' would be read " + where;
            }
        }
        Set<IrExpr.Lookup> checkedOnceAStep = Collections.newSetFromMap(new IdentityHashMap<>());
        checkedOnceAStep.addAll(BandMapping.rowLookups(graph, profiles));
        Predicate<IrExpr.Lookup> safe = lookup -> checkedOnceAStep.contains(lookup) || lookup.indices().stream()
                .allMatch(index -> LaneProfile.columnInvariant(graph, index) && !(rowsOutside && BandMapping.readsTheRow(index)));
        for (IrActor actor : graph.actors()) {
            if (!cannotFault(graph, actor.body(), safe)) {
                return "actor '" + actor.name() + "' could fault on a value computed " + where;
            }
        }
        return "";
    }

    /**
     * Whether nothing in {@code expr} can fault on a value computed outside the domain: a division only by a constant
     * other than zero, no loop (its count could be anything), and every lookup one that {@code safeLookup} accepts.
     */
    static boolean cannotFault(KernelGraph graph, IrExpr expr, Predicate<IrExpr.Lookup> safeLookup) {
        boolean faults = switch (expr) {
            case IrExpr.Binary b -> (b.operator() == BinaryOperator.DIV || b.operator() == BinaryOperator.REM)
                    && !(b.right() instanceof IrExpr.Const divisor && (divisor.integral() != 0 || divisor.real() != 0));
            case IrExpr.Iterate it -> true;
            case IrExpr.Lookup lookup -> !safeLookup.test(lookup);
            default -> false;
        };
        if (faults) {
            return false;
        }
        List<IrExpr> children = Subexpressions.of(expr);
        return children.stream().allMatch(child -> cannotFault(graph, child, safeLookup));
    }
}
