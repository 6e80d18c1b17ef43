package dev.finegrain.compiler.backend.jvm.layout;

import dev.finegrain.compiler.plan.DynamicDataflowPlan;
import dev.finegrain.dsl.ReadyQueue;
import dev.finegrain.runtime.jvm.LockedReadyQueue;
import dev.finegrain.runtime.jvm.MichaelScottQueue;
import dev.finegrain.runtime.jvm.ReadyStructure;
import dev.finegrain.runtime.jvm.ReadyTiles;
import dev.finegrain.runtime.jvm.TicketRing;
import dev.finegrain.runtime.jvm.WorkStealingDeques;

/** The join counters and ready structure of one dynamic-dataflow run on the JVM: the plan's structure, its tiles. */
public final class ReadyTileGrids {

    /**
     * The JVM's ready structure when the schedule names none: per-worker Chase-Lev deques, the fastest measured at
     * small tiles (a worker keeps the tiles it made ready, docs/dynamic-dataflow.md).
     */
    public static final ReadyQueue DEFAULT = ReadyQueue.WORK_STEALING;

    private ReadyTileGrids() {}

    /** The structure a run of this plan takes on the JVM. */
    public static ReadyQueue ready(DynamicDataflowPlan plan) {
        return plan.readyOr(DEFAULT);
    }

    public static ReadyTiles create(DynamicDataflowPlan plan, int[] sizes, int workers) {
        int[] tiles = new int[sizes.length];
        for (int d = 0; d < sizes.length; d++) {
            tiles[d] = Math.ceilDiv(sizes[d], plan.tile()[d]);   // a size the tile does not divide ends in short tiles
        }
        int count = 1;
        for (int extent : tiles) {
            count *= extent;
        }
        ReadyStructure ready = switch (ready(plan)) {
            case LOCKED -> new LockedReadyQueue();
            case MICHAEL_SCOTT -> new MichaelScottQueue();
            case WORK_STEALING -> new WorkStealingDeques(workers);
            case RING -> new TicketRing(count);
        };
        return new ReadyTiles(tiles, ready);
    }
}
