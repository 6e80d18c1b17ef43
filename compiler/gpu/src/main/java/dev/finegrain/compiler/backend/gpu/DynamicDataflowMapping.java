package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.KernelGraph;

import java.util.List;

/**
 * Dynamic dataflow on a GPU: the data-parallel mapping's tiles ({@code tiles}: the same blocks, shared copies and
 * sweep), run by {@code blocks} persistent blocks in one launch instead of a launch per block-diagonal. Thread 0 of a
 * block draws the next slot of a global ring (a fetch-and-add on its head) and waits for it to be filled with a ready
 * tile; the block copies in, sweeps and stores the tile; then thread 0 fences, counts the tile off each neighbour
 * above it along one dimension (a fetch-and-add on that tile's arrival counter) and puts every neighbour whose
 * arrivals reach its number of neighbours below into the ring (a fetch-and-add on the tail, then the slot). Tile 0,
 * which waits for nothing, is slot 0. A block that draws a slot past the last tile ends.
 *
 * <p>The plan's tiles wait for every neighbour below (t - s, s in {0,1}^rank); here a tile counts only its neighbours
 * one step below along one dimension: each of those waited for the others, and a fence before every count carries
 * their writes along (PTX fences are cumulative), so the diagonal counts would add atomics and no order.
 *
 * <p>Scratch words from {@code scratchBase}: the ring's head and tail, each tile's arrival counter, then the ring's
 * slots (a tile's index plus one; 0 is a slot not yet filled). The scratch starts zeroed, and every count only grows,
 * so no run needs a reset and no word is reused (no ABA).
 *
 * @param blocks      persistent blocks: as many as the machine holds at once, at most one per tile
 * @param perSm       how many of the tiles' blocks one SM holds at once, which sets {@code blocks}
 * @param readySource where the ready structure came from, for {@code show --gpu-plan}
 */
public record DynamicDataflowMapping(DataParallelMapping tiles, int blocks, int perSm, String readySource,
                                     dev.finegrain.dsl.WaitPolicy waitPolicy) implements GpuMapping {

    /** Bytes of the ring's head and tail, before the arrival counters. */
    public static final int COUNTERS_BYTES = 8;

    @Override
    public KernelGraph graph() {
        return tiles.graph();
    }

    @Override
    public GpuTarget target() {
        return tiles.target();
    }

    @Override
    public int[] sizes() {
        return tiles.sizes();
    }

    @Override
    public int threadsPerBlock() {
        return tiles.lanes();
    }

    @Override
    public List<Integer> blocksPerLaunch() {
        return List.of(blocks);
    }

    /** The tiles' shared copies, and one word through which thread 0 tells its block the tile it drew. */
    @Override
    public Resources resources() {
        return new Resources(4, tiles.sharedBytes(), 0, 0, 0, 0);
    }

    /** Tiles in the grid. */
    public int tileCount() {
        return tiles.tile().tileCount();
    }

    /** The ring and the counters follow the error word and the barrier counter. */
    @Override
    public long scratchBytes() {
        return 8 + COUNTERS_BYTES + 8L * tileCount();
    }

    /** Byte offset, from the scratch's ring words, of tile {@code t}'s arrival counter (the head and tail come first). */
    public static int arrivalsByte(int tile) {
        return COUNTERS_BYTES + 4 * tile;
    }

    /** Byte offset, from the scratch's ring words, of slot 0 of the ring. */
    public int slotsByte() {
        return COUNTERS_BYTES + 4 * tileCount();
    }

    @Override
    public String launchPlan() {
        return "dynamic-dataflow: " + tiles.tile().describe() + "; " + blocks + " persistent blocks of " + tiles.lanes()
                + " threads in one launch take ready tiles from a global ring (head and tail counters) and sweep each as"
                + " data-parallel does; a tile's arrival counter reaching its neighbours below puts it in the ring";
    }

    @Override
    public String describe() {
        return "schedule:   dynamic-dataflow, " + tiles.tile().describe() + "\n"
                + "launches:   1 of " + blocks + " persistent blocks (" + perSm + " per SM at once, at most one per tile)\n"
                + "ready:      ring (" + readySource + "): thread 0 draws a slot with a fetch-and-add on the head and waits"
                + " for it to be filled (" + GpuWaits.describe(waitPolicy) + "); tile 0 is slot 0\n"
                + "done:       a block barrier, a fence, then thread 0 counts the tile off its neighbours above along each"
                + " dimension and puts those whose count is full into the ring (a fetch-and-add on the tail)\n"
                + "scratch:    ring head and tail, " + tileCount() + " arrival counters, " + tileCount() + " ring slots\n"
                + tiles.describe().lines().filter(line -> line.startsWith("ownership:") || line.startsWith("steps:")
                        || line.startsWith("shared:")).map(line -> line + "\n").reduce("", String::concat);
    }
}
