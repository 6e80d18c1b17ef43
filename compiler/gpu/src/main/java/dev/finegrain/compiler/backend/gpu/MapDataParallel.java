package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.plan.DataParallelPlan;

import java.util.ArrayList;
import java.util.List;

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

    /**
     * @param relaunched the tiles run in launches of their own, so a block's copy may be served by its SM's L1 and run as
     *                   asynchronous copies (a persistent block's, dynamic dataflow's, must read state past L1), and the
     *                   launches may be programmatic dependent launches
     */
    static DataParallelMapping map(KernelGraph graph, DataParallelPlan plan, GpuTarget target, int[] sizes, boolean relaunched) {
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
        // the copy's loads wait for memory one round after another; where a lane of a 2D or 3D tile copies more than one
        // round, asynchronous copies put every word of it in flight at once (data-parallel:16 at 16384² on an H200: the
        // copy 3.4 µs a launch as rounds of loads, 2.1 µs less as cp.async; every 2D validation row 1.15 to 1.47 x
        // faster). In one round every word is in flight already. 1D tiles, a lane or a few copying a short run, went
        // both ways (0.70 to 1.12 x: the chain's three words a lane slower, efficiency-loop's 17 faster, livermore-5's
        // 51 faster at 512 and slower at 4096), so they keep their loads. cp.async moves whole words of 4 or 8 bytes, so
        // a field held a byte an element is copied as loads.
        boolean asyncCopy = relaunched && target.asyncCopy() && graph.rank() >= 2 && Math.ceilDiv(tile.words(), lanes) > COPY_UNROLL
                && GlobalReads.stagedFields(graph).stream().noneMatch(graph::declaresBytes);
        // a relaunched tile's launch costs more than its sweep (data-parallel:16 at 16384² on an H200: 6.7 µs a launch,
        // an empty launch 3.1); a programmatic dependent launch, let in by the launch before it once that one's blocks
        // have swept their tiles, starts sooner after it ends (0.66 µs after a spinning kernel instead of 1.42,
        // launch.cu): Needleman-Wunsch 4096² to 16384² ran 1.22 to 1.30 x faster, 1.25 to 1.27 x Rodinia (5.4 µs a
        // launch). Let in at a block's start instead, 16384² ran 2 x slower (why was not isolated). The inputs copied
        // before the wait ran slower than one copy after it: with the next launch let in at the end of the one before,
        // work before the wait does not overlap that launch.
        boolean programmaticLaunches = relaunched && target.programmaticLaunch();
        // beside programmatic launches, an asynchronous copy can fetch only the words the tile reads before it writes
        // them (TileCopies), a loop per box. A lane issues its copies back to back and waits once, so what the parts save
        // is a lane's rounds, not words. On an H200 (data-parallel:16, programmatic launches, 2026-12-01) Needleman-Wunsch's
        // parts (the reference's interior and the score's halo row and column: half the words, but 16 + 2 + 1 rounds a
        // lane against 19 for the whole tile) took 0.3 to 2.7 % longer at 4096² to 16384², and the sequence samples' whole
        // copies 3.3 to 5.6 % longer than their parts (one field's halo: 2 + 1 rounds against 19) at 256² to 1024². So
        // a block fetches the parts where they take a lane fewer rounds than the whole copy, and the whole tile
        // otherwise: once one field is copied whole, the whole loop's rounds are spent, and each box only adds to
        // them, so the parts pay for every field or for none. Without programmatic launches the parts moved -1.5 to
        // +2.5 % (hand rewrites), and copies by loads were not measured in parts: both keep the whole tile.
        List<List<CopyBox>> copies = new ArrayList<>();
        List<List<CopyBox>> parts = new ArrayList<>();
        for (IrField field : graph.fields()) {
            boolean staged = GlobalReads.staged(field);
            copies.add(staged ? List.of(CopyBox.whole(tile)) : List.of());
            parts.add(staged && asyncCopy && programmaticLaunches ? TileCopies.of(graph, tile, field) : List.of());
        }
        if (asyncCopy && programmaticLaunches && rounds(parts, lanes) < Math.ceilDiv(tile.words(), lanes)) {
            copies = parts;
        }
        DataParallelMapping mapping = new DataParallelMapping(graph, target, sizes.clone(), tile, lanes, steps, COPY_UNROLL,
                dataBase, next, asyncCopy, List.copyOf(copies), programmaticLaunches);
        StaticChecks.check(graph, target, lanes, mapping.resources(), null);
        return mapping;
    }

    /** The rounds a lane of {@code lanes} takes to copy {@code boxes}, a loop per box. */
    private static int rounds(List<List<CopyBox>> boxes, int lanes) {
        return boxes.stream().flatMap(List::stream).mapToInt(box -> Math.ceilDiv(box.words(), lanes)).sum();
    }
}
