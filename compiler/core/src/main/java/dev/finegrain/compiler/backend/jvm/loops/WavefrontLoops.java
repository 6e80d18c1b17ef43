package dev.finegrain.compiler.backend.jvm.loops;

import dev.finegrain.compiler.backend.jvm.code.JClass;
import dev.finegrain.compiler.backend.jvm.code.JExpr;
import dev.finegrain.compiler.backend.jvm.code.JStmt;
import dev.finegrain.compiler.backend.jvm.code.JType;
import dev.finegrain.compiler.backend.jvm.lanes.HyperplaneLanes;
import dev.finegrain.compiler.backend.jvm.lanes.LaneVectors;
import dev.finegrain.compiler.backend.jvm.layout.StepBarriers;
import dev.finegrain.compiler.backend.jvm.layout.VectorWidth;
import dev.finegrain.compiler.backend.jvm.lowering.LoweringContext;
import dev.finegrain.compiler.plan.WavefrontPlan;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.add;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.constant;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.math;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.mul;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.sub;

/**
 * Hyperplane steps on threads: for each step t, the points with floor(h.p / g) = t are found by looping over
 * every dimension but one ("solve", the last with a non-zero coefficient) and solving for the range of that one;
 * the outermost loop is dealt to workers in turn (rank 1: the range is cut into one chunk per worker); a
 * sense-reversing barrier separates steps. A 2D kernel whose hyperplane is (s, 1) and whose actors run in lanes steps
 * in vectors along its hyperplanes instead, its storage laid along them ({@link HyperplaneLanes}).
 */
public final class WavefrontLoops {

    private WavefrontLoops() {}

    public static JClass lower(String className, WavefrontPlan plan, VectorWidth vectorWidth) {
        LoweringContext cx = new LoweringContext(plan.graph(), null, vectorWidth);
        JExpr.Local barrier = cx.bind("barrier", LoweringContext.BARRIER, JClass.Source.SYNC, 0);
        int[] h = plan.hyperplane();
        LaneVectors.Choice lanes = LaneVectors.choose(cx, vectorWidth, false, (k, skew) -> h[0] == skew && h[1] == 1 ? Optional.empty()
                : Optional.of("the wavefront steps over hyperplane " + dev.finegrain.dsl.internal.DependenceMath.format(h) + ", and lanes run the hyperplanes ("
                        + skew + ",1)"));
        Optional<HyperplaneLanes> vectors = lanes.lanes().map(HyperplaneLanes::new);
        int rank = cx.rank;
        int solve = rank - 1;
        while (h[solve] == 0) {
            solve--;
        }
        List<JStmt> out = new ArrayList<>();
        JExpr low = constant(0);
        JExpr high = constant(0);
        for (int d = 0; d < rank; d++) {
            JExpr extreme = mul(constant(h[d]), sub(cx.size[d], constant(1)));
            if (h[d] > 0) {
                high = add(high, extreme);
            } else if (h[d] < 0) {
                low = add(low, extreme);
            }
        }
        JExpr.Local lowest = cx.local("lowestDot", JType.INT);
        JExpr.Local highest = cx.local("highestDot", JType.INT);
        JExpr.Local width = cx.local("stepWidth", JType.INT);
        out.add(new JStmt.Assign(lowest, low));
        out.add(new JStmt.Assign(highest, high));
        boolean independent = plan.stride() == Integer.MAX_VALUE;
        out.add(new JStmt.Comment(independent ? "no dependences: one step holds every point"
                : "steps are " + plan.stride() + " wide: the smallest h.d over the channels"));
        out.add(new JStmt.Assign(width, independent ? add(sub(highest, lowest), constant(1)) : constant(plan.stride())));
        JExpr.Local step = cx.local("step", JType.INT);
        JExpr.Local firstStep = cx.local("firstStep", JType.INT);
        JExpr.Local lastStep = cx.local("lastStep", JType.INT);
        out.add(new JStmt.Assign(firstStep, math("floorDiv", JType.INT, lowest, width)));
        out.add(new JStmt.Assign(lastStep, math("floorDiv", JType.INT, highest, width)));

        // the row bases depend on the outer coordinates only, so a row solved along the last dimension sets them once
        boolean rowsSolved = rank == 2 && solve == 1 && h[0] != 0;
        List<JStmt> inner;
        if (vectors.isPresent()) {
            JExpr.Local within = cx.local("withinStep", JType.INT);
            inner = List.of(new JStmt.Loop(within, constant(0), width, constant(1), vectors.get().hyperplane(add(mul(step, width), within))));
        } else {
            inner = scalarSteps(cx, h, solve, step, width, rowsSolved);
        }
        List<JStmt> perStep = new ArrayList<>(inner);
        perStep.add(0, new JStmt.Comment(vectors.isPresent()
                ? "each hyperplane of the step: this worker's chunk of its rows, a vector of consecutive points at a time"
                : rowsSolved ? "the step's rows, in one contiguous chunk per worker; each row's columns solved"
                : "the step's points, the outermost loop dealt to workers in turn"));
        perStep.add(new JStmt.Evaluate(new JExpr.InvokeVirtual(barrier, "await", List.of(JType.INT, LoweringContext.WATCHDOG),
                JType.VOID, List.of(cx.worker, cx.watchdog))));
        out.add(new JStmt.Loop(step, firstStep, add(lastStep, constant(1)), constant(1), perStep));
        List<JStmt> run = new ArrayList<>(cx.prologue);
        run.addAll(out);
        return new JClass(className, List.of(LoweringContext.RUNTIME + "TeamTask"),
                "Wavefront of kernel " + plan.graph().name() + " over hyperplane " + dev.finegrain.dsl.internal.DependenceMath.format(h)
                        + "; generated by Finegrain.\n" + vectors.map(HyperplaneLanes::summary).orElse(lanes.summary()) + "\n"
                        + StepBarriers.describe(plan, "steps") + "\n",
                cx.bindings, cx.runLocals(run), run, cx.helpers, cx.layout.rows());
    }

    /**
     * The points of one step in scalar loops: every dimension but {@code solve} looped over (the outermost dealt to
     * workers), the range of {@code solve} solved from the step's band; rows solved along the last dimension in
     * contiguous chunks of rows per worker ({@link #rowsOfStep}).
     */
    private static List<JStmt> scalarSteps(LoweringContext cx, int[] h, int solve, JExpr.Local step, JExpr.Local width, boolean rowsSolved) {
        int rank = cx.rank;
        List<JStmt> point = new ArrayList<>(rowsSolved ? List.of() : cx.rowBases());
        for (int actor : cx.graph.actorOrder()) {
            cx.actors.fire(cx.graph.actor(actor), point);
        }
        JExpr.Local from = cx.local("from", JType.INT);
        JExpr.Local to = cx.local("to", JType.INT);
        JExpr.Local rest = cx.local("rest", JType.INT);
        List<JStmt> solveRange = new ArrayList<>();
        JExpr restSum = constant(0);
        for (int d = 0; d < rank; d++) {
            if (d != solve && h[d] != 0) {
                restSum = add(restSum, mul(constant(h[d]), cx.coordinate[d]));
            }
        }
        solveRange.add(new JStmt.Assign(rest, restSum));
        JExpr smallest = sub(mul(step, width), rest);
        JExpr largest = sub(add(mul(step, width), sub(width, constant(1))), rest);
        JExpr coefficient = constant(h[solve]);
        JExpr lowerBound = h[solve] > 0 ? math("ceilDiv", JType.INT, smallest, coefficient) : math("ceilDiv", JType.INT, largest, coefficient);
        JExpr upperBound = h[solve] > 0 ? math("floorDiv", JType.INT, largest, coefficient) : math("floorDiv", JType.INT, smallest, coefficient);
        solveRange.add(new JStmt.Assign(from, math("max", JType.INT, lowerBound, constant(0))));
        solveRange.add(new JStmt.Assign(to, math("min", JType.INT, add(upperBound, constant(1)), cx.size[solve])));
        List<JStmt> inner;
        if (rowsSolved) {
            inner = rowsOfStep(cx, h, step, width, solveRange, from, to, point);
        } else if (rank == 1) {
            JExpr.Local chunk = cx.local("chunk", JType.INT);
            inner = new ArrayList<>(solveRange);
            inner.add(new JStmt.Comment("one chunk of the step's range per worker"));
            inner.add(new JStmt.Assign(chunk, math("ceilDiv", JType.INT, sub(to, from), cx.workers)));
            inner.add(new JStmt.Assign(from, add(from, mul(cx.worker, chunk))));
            inner.add(new JStmt.Assign(to, math("min", JType.INT, to, add(from, chunk))));
            inner.add(new JStmt.Loop(cx.coordinate[0], from, to, constant(1), point));
        } else {
            inner = new ArrayList<>(solveRange);
            inner.add(new JStmt.Loop(cx.coordinate[solve], from, to, constant(1), point));
            boolean dealt = false;
            for (int d = rank - 1; d >= 0; d--) {
                if (d == solve) {
                    continue;
                }
                boolean outermost = d == (solve == 0 ? 1 : 0);
                inner = List.of(new JStmt.Loop(cx.coordinate[d], outermost ? cx.worker : constant(0), cx.size[d],
                        outermost ? cx.workers : constant(1), inner));
                dealt |= outermost;
            }
            if (!dealt) {
                throw new IllegalStateException("no outer dimension to deal to workers");
            }
        }
        return inner;
    }

    /**
     * Rank 2 with h = (h0, h1), both non-zero: the rows that meet step t are those whose h0 * i lies within the step's
     * band less the reach of h1 * j over the columns; they are cut into one contiguous chunk per worker (so a worker's
     * rows neighbour each other, and only chunk edges are read across workers), and each row solves its columns.
     */
    private static List<JStmt> rowsOfStep(LoweringContext cx, int[] h, JExpr.Local step, JExpr.Local width, List<JStmt> solveColumns,
                                         JExpr.Local columnFrom, JExpr.Local columnTo, List<JStmt> point) {
        JExpr columnsReach = mul(constant(Math.abs(h[1])), sub(cx.size[1], constant(1)));
        JExpr lowestColumnTerm = h[1] > 0 ? constant(0) : sub(constant(0), columnsReach);
        JExpr highestColumnTerm = h[1] > 0 ? columnsReach : constant(0);
        JExpr bandLow = mul(step, width);
        JExpr bandHigh = add(mul(step, width), sub(width, constant(1)));
        JExpr lowest = sub(bandLow, highestColumnTerm);
        JExpr highest = sub(bandHigh, lowestColumnTerm);
        JExpr coefficient = constant(h[0]);
        JExpr firstRow = h[0] > 0 ? math("ceilDiv", JType.INT, lowest, coefficient) : math("ceilDiv", JType.INT, highest, coefficient);
        JExpr lastRow = h[0] > 0 ? math("floorDiv", JType.INT, highest, coefficient) : math("floorDiv", JType.INT, lowest, coefficient);
        JExpr.Local rowFrom = cx.local("rowFrom", JType.INT);
        JExpr.Local rowTo = cx.local("rowTo", JType.INT);
        JExpr.Local chunk = cx.local("rowChunk", JType.INT);
        List<JStmt> rows = new ArrayList<>();
        rows.add(new JStmt.Assign(rowFrom, math("max", JType.INT, firstRow, constant(0))));
        rows.add(new JStmt.Assign(rowTo, math("min", JType.INT, add(lastRow, constant(1)), cx.size[0])));
        rows.add(new JStmt.Assign(chunk, math("ceilDiv", JType.INT, math("max", JType.INT, sub(rowTo, rowFrom), constant(0)), cx.workers)));
        rows.add(new JStmt.Assign(rowFrom, add(rowFrom, mul(cx.worker, chunk))));
        rows.add(new JStmt.Assign(rowTo, math("min", JType.INT, rowTo, add(rowFrom, chunk))));
        List<JStmt> row = new ArrayList<>(solveColumns);
        row.addAll(cx.rowBases());
        row.add(new JStmt.Loop(cx.coordinate[1], columnFrom, columnTo, constant(1), point));
        rows.add(new JStmt.Loop(cx.coordinate[0], rowFrom, rowTo, constant(1), row));
        return rows;
    }
}
