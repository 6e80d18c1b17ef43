package dev.finegrain.compiler.plan;

import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.internal.Diagnostics;
import dev.finegrain.dsl.Schedule;

/** Lowers the data-parallel schedule to block-diagonal tile steps, rejecting a tile of the wrong rank or size and a kernel that tiles cannot respect; needs analyze-tiling. */
public final class PlanDataParallel {

    private PlanDataParallel() {}

    public static DataParallelPlan plan(KernelGraph graph, Schedule.DataParallel schedule) {
        String kernel = graph.name();
        if (schedule.tile().size() != 1 && schedule.tile().size() != graph.rank()) {
            throw Diagnostics.tileRank(kernel, schedule.tile(), graph.rank(), graph.kernel().site());
        }
        if (schedule.tile().stream().anyMatch(extent -> extent < 1)) {
            throw Diagnostics.tileNotPositive(kernel, schedule.tile(), graph.kernel().site());
        }
        if (graph.tiling() == null) {
            throw new IllegalStateException("plan-data-parallel needs analyze-tiling to have run");
        }
        if (!graph.tiling().legal()) {
            throw Diagnostics.tilingIllegal(kernel, graph.tiling().offendingVector(), graph.kernel().site());
        }
        int[] extents = new int[graph.rank()];
        for (int d = 0; d < extents.length; d++) {
            extents[d] = schedule.extent(d, graph.rank());
        }
        return new DataParallelPlan(graph, extents);
    }
}
