package dev.finegrain.compiler.plan;

import dev.finegrain.compiler.ir.IrChannel;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.GridBarrier;
import dev.finegrain.dsl.internal.DependenceMath;

import java.util.Optional;

/** Lowers the wavefront schedule to steps of the graph's hyperplane as wide as its smallest dependence allows; needs find-hyperplane and order-actors-at-point. */
public final class PlanWavefront {

    private PlanWavefront() {}

    public static WavefrontPlan plan(KernelGraph graph) {
        return plan(graph, Optional.empty());
    }

    /** The plan whose steps meet at {@code barrier}, or the target's default. */
    public static WavefrontPlan plan(KernelGraph graph, Optional<GridBarrier> barrier) {
        int[] hyperplane = graph.hyperplaneIfFound()
                .orElseThrow(() -> new IllegalStateException("plan-wavefront needs find-hyperplane to have run"));
        int stride = graph.channels().stream().map(IrChannel::vector).filter(v -> !DependenceMath.isZero(v))
                .mapToInt(v -> DependenceMath.dot(hyperplane, v)).min().orElse(Integer.MAX_VALUE);
        return new WavefrontPlan(graph, hyperplane, stride, barrier);
    }
}
