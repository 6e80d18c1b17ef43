package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.ir.IrActor;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.ir.Loads;

import java.util.ArrayList;
import java.util.List;

/**
 * Which words of its tile copy a block fetches from global memory, per field: the words the tile's reads of the field
 * reach, less the interior where the tile computes every interior value before reading it. A field read only at offsets
 * with no positive component and never at the point itself, and written by an actor, is such a field: every interior
 * word it reads lies behind the reading point in the sweep, so the tile wrote it first (Needleman-Wunsch's score: its
 * halo row and column, 33 words of 289 at 16 x 16). A field written by no actor, or read at the point itself or ahead,
 * keeps the box its reads reach (a read at the point of a value the point produced first is served from a register,
 * but is counted here as a read of the copy); a field nothing reads is not fetched. The boxes are disjoint; a box never
 * leaves the copy. Tiles are not skewed here (data-parallel's never are).
 */
final class TileCopies {

    private TileCopies() {}

    /** The boxes of {@code field}'s copy a block fetches. */
    static List<CopyBox> of(KernelGraph graph, TileGeometry tile, IrField field) {
        if (tile.skew().skews()) {
            throw new IllegalArgumentException("a skewed tile's copy is not cut into boxes: " + tile.describe());
        }
        List<int[]> offsets = new ArrayList<>();   // the offsets the actors read the field at
        for (IrActor actor : graph.actors()) {
            Loads.forEach(actor.body(), load -> {
                if (load.field() == field.id()) {
                    offsets.add(load.offset());
                }
            });
        }
        if (offsets.isEmpty()) {
            return List.of();
        }
        int rank = tile.rank();
        int[] low = new int[rank];    // the reads' reach, relative to the interior's first word
        int[] high = new int[rank];
        boolean readsAtOrAhead = false;
        for (int[] offset : offsets) {
            boolean behind = false;
            for (int d = 0; d < rank; d++) {
                low[d] = Math.min(low[d], offset[d]);
                high[d] = Math.max(high[d], offset[d]);
                readsAtOrAhead |= offset[d] > 0;
                behind |= offset[d] < 0;
            }
            readsAtOrAhead |= !behind;
        }
        int[] start = new int[rank];
        int[] end = new int[rank];
        for (int d = 0; d < rank; d++) {
            start[d] = Math.max(0, tile.haloLow()[d] + low[d]);
            end[d] = Math.min(tile.copyExtent(d), tile.haloLow()[d] + tile.interior()[d] + high[d]);
        }
        boolean written = graph.actors().stream().anyMatch(actor -> actor.writes() == field.id());
        if (!written || readsAtOrAhead) {
            return List.of(box(start, end));
        }
        // the box less the interior, as slabs: slab d spans the interior along the dimensions before d, the halo below
        // the interior along d (nothing is read ahead, so nothing lies above it), and the box along the dimensions after d
        List<CopyBox> slabs = new ArrayList<>();
        for (int d = 0; d < rank; d++) {
            int[] slabStart = start.clone();
            int[] slabEnd = end.clone();
            for (int e = 0; e < d; e++) {
                slabStart[e] = tile.haloLow()[e];
                slabEnd[e] = tile.haloLow()[e] + tile.interior()[e];
            }
            slabEnd[d] = tile.haloLow()[d];
            if (slabEnd[d] > slabStart[d]) {
                slabs.add(box(slabStart, slabEnd));
            }
        }
        return List.copyOf(slabs);
    }

    private static CopyBox box(int[] start, int[] end) {
        int[] extent = new int[start.length];
        for (int d = 0; d < start.length; d++) {
            extent[d] = end[d] - start[d];
        }
        return new CopyBox(start, extent);
    }
}
