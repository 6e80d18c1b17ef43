package dev.finegrain.compiler.backend.jvm.layout;

import dev.finegrain.compiler.plan.DynamicDataflowPlan;
import dev.finegrain.runtime.jvm.LockedReadyQueue;
import dev.finegrain.runtime.jvm.MichaelScottQueue;
import dev.finegrain.runtime.jvm.ReadyStructure;
import dev.finegrain.runtime.jvm.ReadyTiles;
import dev.finegrain.runtime.jvm.WorkStealingDeques;

/** The join counters and ready structure of one dynamic-dataflow run on the JVM: the plan's structure, its tiles. */
public final class ReadyTileGrids {

    private ReadyTileGrids() {}

    public static ReadyTiles create(DynamicDataflowPlan plan, int[] sizes, int workers) {
        int[] tiles = new int[sizes.length];
        for (int d = 0; d < sizes.length; d++) {
            tiles[d] = sizes[d] / plan.tile()[d];
        }
        ReadyStructure ready = switch (plan.ready()) {
            case LOCKED -> new LockedReadyQueue();
            case MICHAEL_SCOTT -> new MichaelScottQueue();
            case WORK_STEALING -> new WorkStealingDeques(workers);
        };
        return new ReadyTiles(tiles, ready);
    }
}
