package dev.finegrain.compiler.backend.gpu;

import java.util.Arrays;

/**
 * A box of a tile's shared copy: {@code extent[d]} words from {@code start[d]} along each dimension, in the copy's
 * coordinates (0 is the first halo word; the interior starts at the halo's width), row-major as the copy is.
 */
public record CopyBox(int[] start, int[] extent) {

    public CopyBox {
        start = start.clone();
        extent = extent.clone();
    }

    /** The whole copy of {@code tile}: the interior and its halo. */
    public static CopyBox whole(TileGeometry tile) {
        int[] extent = new int[tile.rank()];
        for (int d = 0; d < tile.rank(); d++) {
            extent[d] = tile.copyExtent(d);
        }
        return new CopyBox(new int[tile.rank()], extent);
    }

    public int words() {
        return Arrays.stream(extent).reduce(1, Math::multiplyExact);
    }

    public boolean isWhole(TileGeometry tile) {
        return equals(whole(tile));
    }

    @Override
    public int[] start() {
        return start.clone();
    }

    @Override
    public int[] extent() {
        return extent.clone();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CopyBox box && Arrays.equals(start, box.start) && Arrays.equals(extent, box.extent);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(start) + Arrays.hashCode(extent);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        for (int d = 0; d < start.length; d++) {
            text.append(d == 0 ? "" : " x ").append('[').append(start[d]).append(", ").append(start[d] + extent[d]).append(')');
        }
        return text.toString();
    }
}
