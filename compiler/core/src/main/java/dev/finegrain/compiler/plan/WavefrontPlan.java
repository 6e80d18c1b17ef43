package dev.finegrain.compiler.plan;

import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.GridBarrier;
import dev.finegrain.dsl.WaitPolicy;
import dev.finegrain.dsl.internal.DependenceMath;
import dev.finegrain.dsl.Schedule;

import java.util.Optional;

/**
 * Hyperplane steps: step t holds every point p with floor(h.p / stride) = t (shifted to start at 0), where the
 * stride is the smallest h.d over the channels, so a dependence always crosses at least one step: the chain's
 * distance-32 dependence gives steps of 32 points, not 1. The points of one step run in any order, all actors
 * of a point together; the only sync is a barrier between consecutive steps: {@code barrier}, or the target's default
 * when the schedule named none.
 */
public record WavefrontPlan(KernelGraph graph, int[] hyperplane, int stride, Optional<GridBarrier> barrier,
                            Optional<WaitPolicy> waitPolicy) implements ExecutionPlan {

    /** The plan with the target's default barrier. */
    public WavefrontPlan(KernelGraph graph, int[] hyperplane, int stride) {
        this(graph, hyperplane, stride, Optional.empty(), Optional.empty());
    }

    @Override
    public Schedule schedule() {
        return new Schedule.Wavefront(barrier, waitPolicy);
    }

    /** The kernel's lock choices, with the wait policy of the barrier's waiters where the schedule names one. */
    @Override
    public LockChoices lockChoices() {
        return LockChoices.of(graph.kernel(), schedule());
    }

    @Override
    public String describe() {
        String step = stride == 1 ? DependenceMath.format(hyperplane) + ".p"
                : "floor(" + DependenceMath.format(hyperplane) + ".p / " + stride + ")";
        return "wavefront over hyperplane " + DependenceMath.format(hyperplane) + ": step t runs every point p with "
                + step + " = t, in any order\n  sync: a barrier between consecutive steps"
                + barrier.map(b -> " (the " + b.cliName() + " barrier)").orElse("") + "\n";
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
            step[p] = Math.floorDiv(DependenceMath.dot(hyperplane, point), stride);
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
        TaskGraphBuilder tasks = new TaskGraphBuilder(domain.points(), (long) domain.points() * graph.actors().size(), graph.actorOrder());
        for (int p : byStep) {
            tasks.addPointsTask(step[p] - lowest, new int[] {p});
        }
        return tasks.build();
    }
}
