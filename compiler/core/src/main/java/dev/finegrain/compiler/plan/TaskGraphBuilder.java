package dev.finegrain.compiler.plan;

import dev.finegrain.compiler.ir.KernelExecutionException;
import java.util.List;

/** Appends tasks in execution order; each task fires the given actors at each of its points. */
final class TaskGraphBuilder {

    private final List<Integer> actorOrder;
    private final int[] phase;
    private final int[][] predecessors;
    private final int[] firingOffsets;
    private final int[] firingActors;
    private final int[] firingPoints;
    private int tasks;
    private int firings;

    /** Counts come as long, so a plan too large to check is reported instead of overflowing. */
    TaskGraphBuilder(long taskCount, long firingCount, List<Integer> actorOrder) {
        if (firingCount > Integer.MAX_VALUE - 8) {
            throw new KernelExecutionException("a plan of " + firingCount
                    + " actor firings is more than the reference checker holds; choose smaller sizes");
        }
        this.actorOrder = actorOrder;
        this.phase = new int[(int) taskCount];
        this.predecessors = new int[(int) taskCount][];
        this.firingOffsets = new int[(int) taskCount + 1];
        this.firingActors = new int[(int) firingCount];
        this.firingPoints = new int[(int) firingCount];
    }

    /** A task firing every actor, in actor order, at each point. */
    void addPointsTask(int taskPhase, int[] points) {
        addPointsTask(taskPhase, points, new int[0]);
    }

    /** A task firing every actor, in actor order, at each point, after the tasks {@code waitsFor}. */
    void addPointsTask(int taskPhase, int[] points, int[] waitsFor) {
        for (int point : points) {
            for (int actor : actorOrder) {
                firingActors[firings] = actor;
                firingPoints[firings++] = point;
            }
        }
        close(taskPhase, waitsFor);
    }

    /** A task firing one actor at one point after its predecessors. */
    void addFiringTask(int actor, int point, int[] waitsFor) {
        firingActors[firings] = actor;
        firingPoints[firings++] = point;
        close(0, waitsFor);
    }

    private void close(int taskPhase, int[] waitsFor) {
        phase[tasks] = taskPhase;
        predecessors[tasks] = waitsFor;
        firingOffsets[++tasks] = firings;
    }

    TaskGraph build() {
        return new TaskGraph(phase, predecessors, firingOffsets, firingActors, firingPoints);
    }
}
