package dev.finegrain.compiler.plan;

import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.Schedule;

/** Lowers dynamic dataflow to tiles with join counters, rejecting what data-parallel rejects for the same tiles; needs analyze-tiling. */
public final class PlanDynamicDataflow {

    private PlanDynamicDataflow() {}

    public static DynamicDataflowPlan plan(KernelGraph graph, Schedule.DynamicDataflow schedule) {
        return new DynamicDataflowPlan(PlanDataParallel.plan(graph, schedule.tiles()), schedule.ready());
    }
}
