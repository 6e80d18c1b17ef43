package dev.finegrain.compiler.backend.gpu;

import java.util.ArrayList;
import java.util.List;

/**
 * How a tiled schedule cuts the domain (1D or 2D) into sub-grids and orders them: tile (I, J) covers interior
 * points [I*T0, I*T0+T0) x [J*T1, J*T1+T1); its shared copy adds the common halo around it, {@code rows x width}
 * words per field. Tiles on one block-diagonal (I + J = d) are independent when every dependence vector is
 * non-negative, so launch d runs them as blocks; in 1D each launch runs one tile.
 */
public record TileGeometry(int rank, int[] interior, int[] haloLow, int[] haloHigh, int[] sizes) {

    public int rows() {
        return rank == 1 ? 1 : haloLow[0] + interior[0] + haloHigh[0];
    }

    public int width() {
        int last = rank - 1;
        return haloLow[last] + interior[last] + haloHigh[last];
    }

    public int words() {
        return rows() * width();
    }

    /** How many words the point {@code offset} away lies from a point of the tile (with its halo, row-major). */
    public long wordOffset(int[] offset) {
        return rank == 1 ? offset[0] : (long) offset[0] * width() + offset[1];
    }

    public int tiles(int dimension) {
        return Math.ceilDiv(sizes[dimension], interior[dimension]);
    }

    /** Blocks per launch: one launch per block-diagonal, one block per tile on it. */
    public List<Integer> blocksPerLaunch() {
        List<Integer> blocks = new ArrayList<>();
        if (rank == 1) {
            for (int tile = 0; tile < tiles(0); tile++) {
                blocks.add(1);
            }
            return blocks;
        }
        for (int diagonal = 0; diagonal < tiles(0) + tiles(1) - 1; diagonal++) {
            int first = Math.max(0, diagonal - (tiles(1) - 1));
            int last = Math.min(diagonal, tiles(0) - 1);
            blocks.add(last - first + 1);
        }
        return blocks;
    }

    public String describe() {
        String tile = rank == 1 ? interior[0] + " points" : interior[0] + "x" + interior[1] + " points";
        String copy = rank == 1 ? width() + " words" : rows() + "x" + width() + " words";
        String grid = rank == 1 ? tiles(0) + " tiles" : tiles(0) + "x" + tiles(1) + " tiles";
        return "tiles of " + tile + " (shared copy with halo: " + copy + " per field), " + grid;
    }
}
