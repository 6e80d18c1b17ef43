package dev.finegrain.compiler.plan;

import dev.finegrain.compiler.ir.KernelGraph;

/** Lowers the lock-dataflow schedule to one task per actor instance waiting on every channel that is not implied; needs reduce-channels. */
public final class PlanLockDataflow {

    private PlanLockDataflow() {}

    public static DataflowPlan plan(KernelGraph graph, boolean persistent) {
        return new DataflowPlan(graph, graph.syncChannels(), persistent);
    }
}
