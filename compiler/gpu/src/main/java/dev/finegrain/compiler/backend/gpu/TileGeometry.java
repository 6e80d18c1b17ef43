package dev.finegrain.compiler.backend.gpu;

import java.util.ArrayList;
import java.util.List;

/**
 * How a tiled schedule cuts the domain (1D, 2D or 3D) into sub-grids and orders them: tile (I, J) covers interior
 * points [I*T0, I*T0+T0) x [J*T1, J*T1+T1) (and [K*T2, K*T2+T2) in 3D); its shared copy adds the common halo around
 * it, {@code planes x rows x width} words per field (one plane below 3D, one row in 1D). Tiles on one block-diagonal
 * (I + J (+ K) = d) are independent when every dependence vector is non-negative, so launch d runs them as blocks; in
 * 1D each launch runs one tile. Lock-dataflow's 2D tiles may be skewed ({@link TileSkew}): then {@code sizes} are the
 * skewed domain's bounding box, the halos are the skewed reads', and offsets are skewed before they become words.
 */
public record TileGeometry(int rank, int[] interior, int[] haloLow, int[] haloHigh, int[] sizes, TileSkew skew) {

    /** Rectangular tiles over {@code sizes}. */
    public TileGeometry(int rank, int[] interior, int[] haloLow, int[] haloHigh, int[] sizes) {
        this(rank, interior, haloLow, haloHigh, sizes, TileSkew.NONE);
    }

    /** The copy's extent in dimension {@code d}: the interior and the halo on both sides. */
    public int copyExtent(int d) {
        return haloLow[d] + interior[d] + haloHigh[d];
    }

    /** Planes of the copy: the outer dimension's extent in 3D, else 1. */
    public int planes() {
        return rank == 3 ? copyExtent(0) : 1;
    }

    public int rows() {
        return rank == 1 ? 1 : copyExtent(rank - 2);
    }

    public int width() {
        return copyExtent(rank - 1);
    }

    public int words() {
        return planes() * rows() * width();
    }

    /**
     * How many words the point {@code point} away (an offset in the domain's coordinates) lies from a point of the tile
     * (with its halo, row-major), the skew applied.
     */
    public long wordOffset(int[] point) {
        int[] offset = skew.apply(point);
        return switch (rank) {
            case 1 -> offset[0];
            case 2 -> (long) offset[0] * width() + offset[1];
            default -> ((long) offset[0] * rows() + offset[1]) * width() + offset[2];
        };
    }

    public int tiles(int dimension) {
        return Math.ceilDiv(sizes[dimension], interior[dimension]);
    }

    /** Tiles in the grid, every dimension's count multiplied. */
    public int tileCount() {
        int count = 1;
        for (int d = 0; d < rank; d++) {
            count *= tiles(d);
        }
        return count;
    }

    /** How far apart in a tile's row-major number (the last dimension fastest) two tiles one step apart along d are. */
    public int tileStride(int dimension) {
        int stride = 1;
        for (int d = dimension + 1; d < rank; d++) {
            stride *= tiles(d);
        }
        return stride;
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
        if (rank == 3) {
            for (int diagonal = 0; diagonal < tiles(0) + tiles(1) + tiles(2) - 2; diagonal++) {
                int count = 0;
                for (int tileRow = 0; tileRow <= Math.min(diagonal, tiles(0) - 1); tileRow++) {
                    count += innerTiles(diagonal - tileRow);
                }
                blocks.add(count);
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

    /**
     * In 3D, the tiles (J, K) with J + K = {@code rest}: the blocks of a launch take the tiles I = 0, 1, ... in turn,
     * each I's tiles by rising J, so a block finds its tile by subtracting these counts.
     */
    public int innerTiles(int rest) {
        return Math.max(0, Math.min(rest, tiles(1) - 1) - Math.max(0, rest - (tiles(2) - 1)) + 1);
    }

    public String describe() {
        return switch (rank) {
            case 1 -> "tiles of " + interior[0] + " points (shared copy with halo: " + width() + " words per field), "
                    + Plural.of(tiles(0), "tile");
            case 2 -> "tiles of " + interior[0] + "x" + interior[1] + " points (shared copy with halo: " + rows() + "x"
                    + width() + " words per field), " + tiles(0) + "x" + tiles(1) + " tiles"
                    + (skew.skews() ? "; " + skew.describe() : "");
            default -> "tiles of " + interior[0] + "x" + interior[1] + "x" + interior[2] + " points (shared copy with halo: "
                    + planes() + "x" + rows() + "x" + width() + " words per field), " + tiles(0) + "x" + tiles(1) + "x"
                    + tiles(2) + " tiles";
        };
    }
}
