package dev.finegrain.compiler.plan;

import dev.finegrain.compiler.ir.IrChannel;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.internal.DependenceMath;


/** Lowers the wavefront schedule to steps of the graph's hyperplane as wide as its smallest dependence allows; needs find-hyperplane and order-actors-at-point. */
public final class PlanWavefront {

    private PlanWavefront() {}

    public static WavefrontPlan plan(KernelGraph graph) {
        return plan(graph, new dev.finegrain.dsl.Schedule.Wavefront());
    }

    /** The plan whose steps meet at the schedule's barrier (or the target's default), waiting as it says. */
    public static WavefrontPlan plan(KernelGraph graph, dev.finegrain.dsl.Schedule.Wavefront schedule) {
        int[] hyperplane = graph.hyperplaneIfFound()
                .orElseThrow(() -> new IllegalStateException("plan-wavefront needs find-hyperplane to have run"));
        int stride = graph.channels().stream().map(IrChannel::vector).filter(v -> !DependenceMath.isZero(v))
                .mapToInt(v -> DependenceMath.dot(hyperplane, v)).min().orElse(Integer.MAX_VALUE);
        return new WavefrontPlan(graph, hyperplane, stride, schedule.barrier(), schedule.waitPolicy());
    }
}
