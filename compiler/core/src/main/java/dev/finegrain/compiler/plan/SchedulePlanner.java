package dev.finegrain.compiler.plan;

import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.Schedule;

/** Picks the lowering for a schedule. */
public final class SchedulePlanner {

    private SchedulePlanner() {}

    public static ExecutionPlan plan(KernelGraph graph, Schedule schedule) {
        return switch (schedule) {
            case Schedule.Wavefront wavefront -> PlanWavefront.plan(graph, wavefront);
            case Schedule.LockDataflow dataflow -> PlanLockDataflow.plan(graph, dataflow);
            case Schedule.DataParallel dataParallel -> PlanDataParallel.plan(graph, dataParallel);
            case Schedule.DynamicDataflow dynamic -> PlanDynamicDataflow.plan(graph, dynamic);
        };
    }
}
