package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Rodinia's structure: one block per tile, one launch per block-diagonal of tiles. A block has {@code lanes} threads,
 * one per tile row (in 1D, one per point of a step; in 3D, one per line along the inner dimension); it copies the
 * tile and its halo of every field into shared memory ({@code copyUnroll} words per lane and round), sweeps the
 * tile in {@code steps} steps with a block barrier after each, and stores each point to global memory as it computes it.
 *
 * @param dataBase  shared byte offset of each field's tile copy, by field id
 * @param asyncCopy the copy is asynchronous copies (cp.async), every word a lane copies in flight at once and waited for
 *                  once before the barrier, a word outside the padded fields filled with 0; else loads and stores,
 *                  {@code copyUnroll} words a round (where a lane copies one round at most, all its words are in flight
 *                  anyway)
 * @param copies    the boxes of each staged field's copy a block fetches from global memory, by field id (empty for a field
 *                  not staged): the whole copy, or, where the copy is asynchronous, the launches programmatic and a lane
 *                  takes fewer rounds for them, the words the tile's reads reach less those the tile computes before it
 *                  reads them ({@link TileCopies}; the sequence samples' score halo, not Needleman-Wunsch's two fields).
 *                  MapDataParallel fetches every field whole or every field in parts; the emitters spell either per field
 * @param programmaticLaunches each launch after the first is a programmatic dependent launch: a block waits for the launch
 *                  before it to end (its stores visible) before it copies its tile, and lets the next launch in once it
 *                  has swept its tile, so the next launch starts sooner after this one ends
 */
public record DataParallelMapping(KernelGraph graph, GpuTarget target, int[] sizes, TileGeometry tile, int lanes,
                                  int steps, int copyUnroll, int[] dataBase, int sharedBytes, boolean asyncCopy,
                                  List<List<CopyBox>> copies, boolean programmaticLaunches) implements GpuMapping {

    /** Whether a block fetches {@code field}'s whole copy, the interior and its halo. */
    public boolean copiesWhole(IrField field) {
        List<CopyBox> boxes = copies.get(field.id());
        return boxes.size() == 1 && boxes.getFirst().isWhole(tile);
    }

    @Override
    public int threadsPerBlock() {
        return lanes;
    }

    @Override
    public List<Integer> blocksPerLaunch() {
        return tile.blocksPerLaunch();
    }

    @Override
    public Resources resources() {
        return new Resources(0, sharedBytes, 0, 0, 0, 0);
    }

    @Override
    public String launchPlan() {
        return "data-parallel: " + tile.describe() + "; blocks of " + lanes + " threads (one per tile "
                + switch (graph.rank()) {
                    case 1 -> "point of a step";
                    case 2 -> "row";
                    default -> "line along k";
                } + ") sweeping the tile with a block barrier per step; "
                + Plural.of(tile.blocksPerLaunch().size(), "launch") + ", one per block-diagonal";
    }

    @Override
    public String describe() {
        return "schedule:   data-parallel, " + tile.describe() + "\n"
                + "launches:   " + launches() + ", one per block-diagonal" + (programmaticLaunches
                        ? ", each after the first a programmatic dependent launch (let in by the one before it once that"
                        + " one's blocks have swept their tiles)" : "") + "; blocks per launch "
                + blocksPerLaunch().stream().map(String::valueOf).collect(Collectors.joining(" ")) + "\n"
                + "ownership:  " + lanes + " threads per block, thread t " + switch (graph.rank()) {
                    case 1 -> "takes point s * " + lanes + " + t of the tile at step s";
                    case 2 -> "takes row t of the tile, column s - t at step s";
                    default -> "takes the tile's line a = t / " + tile.interior()[1] + ", b = t % " + tile.interior()[1]
                            + ", point c = s - a - b of it at step s (the planes a + b + c = s in turn)";
                } + "\n"
                + "steps:      " + steps + " per tile, a block barrier after each\n"
                + "shared:     " + sharedBytes + " bytes: each field's tile copy at " + Arrays.toString(dataBase) + ", copied "
                + (asyncCopy ? "by asynchronous copies (cp.async), every word of a thread in flight at once"
                        : copyUnroll + " words per thread and round") + copiedParts() + "\n";
    }

    /** The fields whose copy a block fetches only in part, and the boxes it fetches. */
    private String copiedParts() {
        StringBuilder text = new StringBuilder();
        for (IrField field : GlobalReads.stagedFields(graph)) {
            if (!copiesWhole(field)) {
                List<CopyBox> boxes = copies.get(field.id());
                text.append("; of '").append(field.name()).append("' ").append(boxes.isEmpty() ? "nothing (nothing reads it)"
                        : "only " + boxes.stream().map(box -> box + " (" + box.words() + " words)").collect(Collectors.joining(" and ")));
            }
        }
        return text.toString();
    }
}
