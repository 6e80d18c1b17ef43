package dev.finegrain.compiler.plan;

import dev.finegrain.compiler.ir.KernelGraph;

/** Lowers the wavefront schedule to hyperplane steps over the graph's hyperplane; needs find-hyperplane and order-actors-at-point. */
public final class PlanWavefront {

    private PlanWavefront() {}

    public static WavefrontPlan plan(KernelGraph graph) {
        return new WavefrontPlan(graph, graph.hyperplaneIfFound()
                .orElseThrow(() -> new IllegalStateException("plan-wavefront needs find-hyperplane to have run")));
    }
}
