package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.gpu.TileGeometry;

/** What the tiled schedules (lock-dataflow, data-parallel) share in CUDA: which tile a block runs, and its launches. */
final class CudaTiles {

    private CudaTiles() {}

    /**
     * Declares the tile a block computes (launch = block-diagonal {@code diagonal}, block b its b-th tile), the point
     * {@code i}, {@code j} of thread {@code t}'s word in the tile with its halo (32 words per row in 2D), whether it
     * lies in the padded fields ({@code inside}) and its padded index {@code g}; returns the point's coordinates.
     */
    static String[] emitPointOfWord(CudaWriter out, TileGeometry tile, CudaFields fields) {
        int[] low = tile.haloLow();
        int[] interior = tile.interior();
        out.comment("my word of the tile and its halo: which tile (block-diagonal and block), which point");
        if (tile.rank() == 1) {
            out.line("const int i = diagonal * " + interior[0] + " + t - " + low[0] + ";");
            out.line("const bool inside = i < " + (fields.sizes()[0] + tile.haloHigh()[0]) + ";");
            out.line("const long long g = " + fields.index(new String[] {"i"}) + ";");
            return new String[] {"i"};
        }
        out.line("const int row = t / " + tile.width() + ";");
        out.line("const int column = t % " + tile.width() + ";");
        out.line("const int tileRow = max(0, diagonal - " + (tile.tiles(1) - 1) + ") + (int) blockIdx.x;");
        out.line("const int tileColumn = diagonal - tileRow;");
        out.line("const int i = tileRow * " + interior[0] + " + row - " + low[0] + ";");
        out.line("const int j = tileColumn * " + interior[1] + " + column - " + low[1] + ";");
        out.line("const bool inside = i < " + (fields.sizes()[0] + tile.haloHigh()[0]) + " && j < "
                + (fields.sizes()[1] + tile.haloHigh()[1]) + ";");
        out.line("const long long g = " + fields.index(new String[] {"i", "j"}) + ";");
        return new String[] {"i", "j"};
    }

    /** The test that thread {@code t}'s word is a point of the tile's interior and of the domain. */
    static String interiorTest(TileGeometry tile, int[] sizes) {
        int[] low = tile.haloLow();
        int[] interior = tile.interior();
        if (tile.rank() == 1) {
            return "t >= " + low[0] + " && t < " + (low[0] + interior[0]) + " && i < " + sizes[0];
        }
        return "row >= " + low[0] + " && row < " + (low[0] + interior[0]) + " && column >= " + low[1] + " && column < "
                + (low[1] + interior[1]) + " && i < " + sizes[0] + " && j < " + sizes[1];
    }

    /** The word {@code offset} away in {@code tile} (with its halo), as {@code " + k"}. */
    static String wordOffset(int[] offset, TileGeometry tile) {
        long words = tile.wordOffset(offset);
        return words == 0 ? "" : words < 0 ? " - " + -words : " + " + words;
    }

    /** The host's launches: one per block-diagonal, as many blocks as tiles on it. */
    static String launchPerDiagonal(TileGeometry tile, String kernel, int threads) {
        if (tile.rank() == 1) {
            return "for (int d = 0; d < " + tile.tiles(0) + "; d++) {\n"
                    + "        " + kernel + "<<<1, " + threads + ", 0, stream>>>(f, p, d, error);\n    }";
        }
        int rows = tile.tiles(0);
        int columns = tile.tiles(1);
        return "for (int d = 0; d < " + (rows + columns - 1) + "; d++) {\n"
                + "        const int blocks = min(d, " + (rows - 1) + ") - max(0, d - " + (columns - 1) + ") + 1;\n"
                + "        " + kernel + "<<<blocks, " + threads + ", 0, stream>>>(f, p, d, error);\n    }";
    }
}
