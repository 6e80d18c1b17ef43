package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.ir.IrChannel;
import dev.finegrain.compiler.ir.KernelGraph;

import java.util.Arrays;
import java.util.Optional;

/**
 * How a 2D wavefront deals the points of a step. Step s holds the points p with h.p = s for a hyperplane h with one
 * component 1: that dimension's coordinate is derived from the other's ({@link #derived}, j when both are 1), whose
 * coefficient is the slope c >= 0. With c = 1 the steps are the anti-diagonals i + j = s; a kernel whose dependence
 * points forward in one dimension, such as a read of s[i-1, j+1], needs a steeper plane ((2,1): 2i + j = s) or rows
 * ((1,0): i = s), which order it (h.d >= 1 for every dependence d) where the anti-diagonals do not. Row x of step s
 * runs from {@link #low} to {@link #high}, the derived coordinate being s - c x.
 */
public record WavefrontDiagonals(int[] sizes, int[] hyperplane) {

    public WavefrontDiagonals {
        sizes = sizes.clone();
        hyperplane = hyperplane.clone();
        if (hyperplane.length != 2 || (hyperplane[0] != 1 && hyperplane[1] != 1) || hyperplane[0] < 0 || hyperplane[1] < 0) {
            throw new IllegalArgumentException("a 2D step's hyperplane has a component 1 and none negative, not "
                    + Arrays.toString(hyperplane));
        }
    }

    /**
     * The hyperplane a GPU's 2D steps follow for this kernel: the anti-diagonals (1,1) where they order every
     * dependence (no component negative), else the gentlest (c,1) or (1,c) that orders them all (the smaller c, (c,1) on
     * a tie; c = 0: rows or columns), computed from the bounds each dependence puts on c; empty when none does (a
     * dependence forward in i, which the DSL refuses, or forward in j within a row).
     */
    public static Optional<int[]> stepping(KernelGraph graph) {
        if (orders(graph, new int[] {1, 1})) {
            return Optional.of(new int[] {1, 1});
        }
        int rows = gentlestSlope(graph, 0);     // (c, 1)
        int columns = gentlestSlope(graph, 1);  // (1, c)
        if (rows >= 0 && (columns < 0 || rows <= columns)) {
            return Optional.of(new int[] {rows, 1});
        }
        return columns >= 0 ? Optional.of(new int[] {1, columns}) : Optional.empty();
    }

    /**
     * The least c >= 0 for which the plane with c at dimension {@code steep} and 1 at the other orders every dependence
     * (c · d[steep] + d[other] >= 1), or -1 when none does: each dependence bounds c below (d[steep] > 0) or above
     * (d[steep] < 0), or needs d[other] >= 1 (d[steep] = 0).
     */
    private static int gentlestSlope(KernelGraph graph, int steep) {
        int other = 1 - steep;
        long lowest = 0;
        long highest = Long.MAX_VALUE;
        for (IrChannel channel : graph.channels()) {
            int[] d = channel.vector();
            if (Arrays.stream(d).allMatch(component -> component == 0)) {
                continue;
            }
            long need = 1L - d[other];   // c · d[steep] >= need
            if (d[steep] > 0) {
                lowest = Math.max(lowest, Math.ceilDiv(need, d[steep]));
            } else if (d[steep] < 0) {
                highest = Math.min(highest, Math.floorDiv(-need, -d[steep]));
            } else if (need > 0) {
                return -1;
            }
        }
        return lowest <= highest && lowest <= Integer.MAX_VALUE ? (int) lowest : -1;
    }

    /** Whether every dependence of the kernel crosses at least one step of {@code h} forward: h.d >= 1. */
    private static boolean orders(KernelGraph graph, int[] h) {
        for (IrChannel channel : graph.channels()) {
            int[] d = channel.vector();
            if (Arrays.stream(d).allMatch(component -> component == 0)) {
                continue;   // the same point: the actors' order within it
            }
            if (h[0] * d[0] + h[1] * d[1] < 1) {
                return false;
            }
        }
        return true;
    }

    /** Whether the steps are the anti-diagonals i + j = s. */
    public boolean antiDiagonals() {
        return hyperplane[0] == 1 && hyperplane[1] == 1;
    }

    /** The dimension whose coordinate a step derives from the other's: the last with coefficient 1. */
    public int derived() {
        return hyperplane[1] == 1 ? 1 : 0;
    }

    /** The dimension a step's points run along. */
    public int row() {
        return 1 - derived();
    }

    /** The row dimension's coefficient: how far the derived coordinate moves back per row. */
    public int slope() {
        return hyperplane[row()];
    }

    public int steps() {
        return slope() * (sizes[row()] - 1) + sizes[derived()];
    }

    /** The first row of step {@code step}: where the derived coordinate s - c x falls below the domain's end. */
    public int low(int step) {
        return slope() == 0 ? 0 : Math.max(0, Math.ceilDiv(step - (sizes[derived()] - 1), slope()));
    }

    /** The last row of step {@code step}: where the derived coordinate is still at least 0. */
    public int high(int step) {
        return slope() == 0 ? sizes[row()] - 1 : Math.min(sizes[row()] - 1, step / slope());
    }

    public int pointsAt(int step) {
        return high(step) - low(step) + 1;
    }

    /** Points of the widest step. */
    public int widest() {
        return slope() == 0 ? sizes[row()] : Math.min(sizes[row()], Math.ceilDiv(sizes[derived()], slope()));
    }

    private static final String[] NAMES = {"i", "j"};

    /** The steps in words, for the mapping's printout. */
    public String describe() {
        String row = NAMES[row()];
        String derived = NAMES[derived()];
        int c = slope();
        return "point k of step s is " + row + " = " + (c == 0 ? "k" : "max(0, ceil((s - " + (sizes[derived()] - 1) + ") / "
                + c + ")) + k") + ", " + derived + " = s" + (c == 0 ? "" : " - " + (c == 1 ? "" : c + " * ") + row);
    }
}
