package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.ir.IrChannel;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.ir.Loads;

import java.util.Optional;

/**
 * Lock-dataflow's tiles for a 2D kernel whose dependence points forward in j (a read of {@code s[i-1, j+1]}): the
 * tiles cut the skewed coordinates (i, j + factor · i), in which every dependence (di, dj) becomes (di, dj + factor ·
 * di) and points backwards in both, so the tiles run in block-diagonal order as rectangular ones do. The factor is
 * the least that does it: {@code max(ceil(-dj / di))} over the channels, 0 when every dependence already points
 * backwards. A tile's points outside the domain (the skewed domain is a parallelogram in its bounding box) compute
 * nothing; a point's fields stay where they are (the skew changes which points a tile holds, not the layout).
 *
 * @param factor the skew: tile column J holds the points with J · T1 <= j + factor · i < (J + 1) · T1
 */
public record TileSkew(int factor) {

    public static final TileSkew NONE = new TileSkew(0);

    /**
     * The skew that orders this 2D kernel's dependences for tiles, if one does: none is needed where every dependence
     * points backwards; none exists where one points forward in i, or forward in j within a row.
     */
    public static Optional<TileSkew> of(KernelGraph graph) {
        int factor = 0;
        for (IrChannel channel : graph.channels()) {
            int[] v = channel.vector();
            boolean backwards = java.util.Arrays.stream(v).allMatch(component -> component >= 0);
            if (backwards) {
                continue;
            }
            if (graph.rank() != 2 || v[0] <= 0) {
                return Optional.empty();   // forward in i, within a row, or in 1D or 3D: no skew of j orders it
            }
            factor = Math.max(factor, Math.ceilDiv(-v[1], v[0]));
        }
        return Optional.of(factor == 0 ? NONE : new TileSkew(factor));
    }

    public boolean skews() {
        return factor != 0;
    }

    /** An offset (a read's, or a channel's vector) in the skewed coordinates. */
    public int[] apply(int[] offset) {
        if (!skews()) {
            return offset;
        }
        return new int[] {offset[0], offset[1] + factor * offset[0]};
    }

    /** The extents the tiles cover: the skewed domain's bounding box. */
    public int[] iterationSizes(int[] sizes) {
        return skews() ? new int[] {sizes[0], sizes[1] + factor * (sizes[0] - 1)} : sizes.clone();
    }

    /**
     * The halo of a tile's copy in the skewed coordinates: as wide as every read (and every channel) reaches there, below
     * and above; the common halo where nothing is skewed.
     */
    public CommonHalo halo(KernelGraph graph) {
        CommonHalo common = CommonHalo.of(graph);
        if (!skews()) {
            return common;
        }
        int[] low = new int[2];
        int[] high = new int[2];
        low[0] = common.low()[0];
        high[0] = common.high()[0];
        for (var actor : graph.actors()) {
            Loads.forEach(actor.body(), load -> {
                int[] skewed = apply(load.offset());
                low[1] = Math.max(low[1], -skewed[1]);
                high[1] = Math.max(high[1], skewed[1]);
            });
        }
        for (IrChannel channel : graph.channels()) {
            low[1] = Math.max(low[1], apply(channel.vector())[1]);
        }
        return new CommonHalo(low, high);
    }

    /** The skewed column, as a formula of j and i: {@code j + i}, {@code j + 2i}. */
    public String column() {
        return "j + " + (factor == 1 ? "" : factor) + "i";
    }

    /** How the skew reads in a plan. */
    public String describe() {
        return "skewed tiles: tile column J holds " + column() + " in [J * T1, (J + 1) * T1), so every dependence points"
                + " backwards";
    }
}
