package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.plan.DynamicDataflowPlan;
import dev.finegrain.dsl.ReadyQueue;

import java.util.Optional;

/**
 * Maps a dynamic-dataflow plan onto a GPU: its tiles as {@link MapDataParallel} maps the same data-parallel tiles, and
 * as many persistent blocks as the machine holds at once (at most one per tile). Co-residence is not needed for
 * progress: a block waits only for a slot it drew, and every slot up to the tile count is filled once the tiles
 * before it in the ring have run, by blocks that are running.
 */
final class MapDynamicDataflow {

    /** The GPU targets' ready structure; the others are built for threads. */
    static final ReadyQueue GPU_READY = ReadyQueue.RING;

    private MapDynamicDataflow() {}

    /** Why the GPU cannot keep the ready tiles as the schedule says, if it cannot. */
    static Optional<String> unsupported(DynamicDataflowPlan plan, GpuTarget target) {
        ReadyQueue ready = plan.readyOr(GPU_READY);
        if (ready != GPU_READY) {
            return Optional.of("the " + ready + " ready structure is the JVM's (workers on threads); the GPU targets"
                    + " keep ready tiles in a ring of head and tail counters (dynamic-dataflow:...:ring, their default)");
        }
        return GpuWaits.unsupported(plan.lockChoices().waitPolicy(), target);
    }

    static DynamicDataflowMapping map(KernelGraph graph, DynamicDataflowPlan plan, GpuTarget target, int[] sizes) {
        unsupported(plan, target).ifPresent(reason -> {
            throw new GpuLoweringException(reason);
        });
        DataParallelMapping tiles = MapDataParallel.map(graph, plan.tiles(), target, sizes, false);
        int threads = tiles.lanes();
        int perSm = Math.max(1, target.residentBlocksPerSm(threads, tiles.resources().sharedBytes() + 4));
        int blocks = (int) Math.min(tiles.tile().tileCount(), (long) target.smCount() * perSm);
        DynamicDataflowMapping mapping = new DynamicDataflowMapping(tiles, blocks, perSm,
                plan.named().isPresent() ? "named by the schedule" : "the GPU targets' default",
                plan.lockChoices().waitPolicy());
        StaticChecks.check(graph, target, threads, mapping.resources(), null);
        return mapping;
    }
}
