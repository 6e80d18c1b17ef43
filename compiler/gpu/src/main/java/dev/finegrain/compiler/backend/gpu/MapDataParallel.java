package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.plan.DataParallelPlan;

/**
 * Maps a data-parallel plan onto a GPU as Rodinia's needle does: a block per tile (the sizes cap the tile), one thread
 * per tile row (in 1D, as many points per step as the shortest dependence allows; in 3D, one per line of the tile
 * along its inner dimension, T0 x T1 threads sweeping the planes a + b + c = s), each field's tile copy in shared
 * memory padded to whole copy rounds; throws {@link GpuLoweringException} when the tile does not fit the scheme.
 */
final class MapDataParallel {

    /** Words each thread copies per round of the copy-in loop. */
    static final int COPY_UNROLL = 4;

    private MapDataParallel() {}

    static DataParallelMapping map(KernelGraph graph, DataParallelPlan plan, GpuTarget target, int[] sizes) {
        int rank = graph.rank();
        CommonHalo halo = CommonHalo.of(graph);
        int[] interior = new int[rank];
        for (int d = 0; d < rank; d++) {
            interior[d] = Math.min(plan.tile()[d], sizes[d]);
        }
        TileGeometry tile = new TileGeometry(rank, interior, halo.low(), halo.high(), sizes.clone());
        int lanes;
        if (rank == 1) {
            int stride = graph.channels().stream().filter(c -> !c.isImplied()).mapToInt(c -> c.vector()[0])
                    .filter(v -> v > 0).min().orElse(interior[0]);
            lanes = Math.min(interior[0], stride);
        } else if (rank == 3) {
            lanes = interior[0] * interior[1];
        } else {
            lanes = interior[0];
            if (lanes > tile.width()) {
                throw new GpuLoweringException("data-parallel on the GPU model runs one lane per tile row and copies"
                        + " rows with those lanes, so a tile may not be taller than its copy is wide; " + graph.name()
                        + "'s tile here is " + interior[0] + "x" + interior[1] + " (the sizes cap the tile); use a tile"
                        + " no taller than wide, or a wider domain");
            }
        }
        int[] dataBase = new int[graph.fields().size()];
        int next = 0;
        for (IrField field : GlobalReads.stagedFields(graph)) {
            dataBase[field.id()] = next;
            next += GpuTarget.elementBytes(field.type()) * Math.ceilDiv(tile.words(), COPY_UNROLL * lanes) * COPY_UNROLL * lanes;
        }
        int steps = switch (rank) {
            case 1 -> Math.ceilDiv(interior[0], lanes);
            case 2 -> interior[0] + interior[1] - 1;
            default -> interior[0] + interior[1] + interior[2] - 2;
        };
        DataParallelMapping mapping = new DataParallelMapping(graph, target, sizes.clone(), tile, lanes, steps, COPY_UNROLL,
                dataBase, next);
        StaticChecks.check(graph, target, lanes, mapping.resources(), null);
        return mapping;
    }
}
