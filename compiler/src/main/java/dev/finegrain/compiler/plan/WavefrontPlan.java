package dev.finegrain.compiler.plan;

import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.DependenceMath;
import dev.finegrain.dsl.Schedule;

/**
 * Hyperplane steps: step t holds every point p with h.p = t (shifted to start at 0); the points of one step run
 * in any order, all actors of a point together; the only sync is a barrier between consecutive steps.
 */
public record WavefrontPlan(KernelGraph graph, int[] hyperplane) implements ExecutionPlan {

    @Override
    public Schedule schedule() {
        return new Schedule.Wavefront();
    }

    @Override
    public String describe() {
        return "wavefront over hyperplane " + DependenceMath.format(hyperplane) + ": step t runs every point p with "
                + DependenceMath.format(hyperplane) + ".p = t, in any order\n  sync: a barrier between consecutive steps\n";
    }

    @Override
    public TaskGraph materialize(int[] sizes) {
        Domain domain = new Domain(sizes);
        int[] step = new int[domain.points()];
        int[] point = new int[domain.rank()];
        int lowest = Integer.MAX_VALUE;
        int highest = Integer.MIN_VALUE;
        for (int p = 0; p < domain.points(); p++) {
            domain.coordinates(p, point);
            step[p] = DependenceMath.dot(hyperplane, point);
            lowest = Math.min(lowest, step[p]);
            highest = Math.max(highest, step[p]);
        }
        int[] perStep = new int[highest - lowest + 2];
        for (int s : step) {
            perStep[s - lowest + 1]++;
        }
        for (int s = 1; s < perStep.length; s++) {
            perStep[s] += perStep[s - 1];
        }
        int[] byStep = new int[domain.points()];
        for (int p = 0; p < domain.points(); p++) {
            byStep[perStep[step[p] - lowest]++] = p;
        }
        TaskGraphBuilder tasks = new TaskGraphBuilder(domain.points(), domain.points() * graph.actors().size(), graph.actorOrder());
        for (int p : byStep) {
            tasks.addPointsTask(step[p] - lowest, new int[] {p});
        }
        return tasks.build();
    }
}
