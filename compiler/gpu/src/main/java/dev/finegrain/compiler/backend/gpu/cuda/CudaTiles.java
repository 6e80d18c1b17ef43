package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.gpu.TileGeometry;

import java.util.stream.Collectors;

/** What the tiled schedules (lock-dataflow, data-parallel) share in CUDA: which tile a block runs, and its launches. */
final class CudaTiles {

    private CudaTiles() {}

    /**
     * Declares the tile a block computes (launch = block-diagonal {@code diagonal}, block b its b-th tile), the point
     * {@code i}, {@code j} ({@code k}) of thread {@code t}'s word in the tile with its halo (32 words per row in 2D and
     * 3D, planes of rows in 3D), whether it
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
        if (tile.rank() == 3) {
            emitTileOrigin3d(out, tile);
            out.line("const int plane = t / " + tile.rows() * tile.width() + ";");
            out.line("const int row = t / " + tile.width() + " % " + tile.rows() + ";");
            out.line("const int column = t % " + tile.width() + ";");
            out.line("const int i = i0 + plane - " + low[0] + ";");
            out.line("const int j = j0 + row - " + low[1] + ";");
            out.line("const int k = k0 + column - " + low[2] + ";");
            out.line("const bool inside = i < " + (fields.sizes()[0] + tile.haloHigh()[0]) + " && j < "
                    + (fields.sizes()[1] + tile.haloHigh()[1]) + " && k < " + (fields.sizes()[2] + tile.haloHigh()[2]) + ";");
            out.line("const long long g = " + fields.index(new String[] {"i", "j", "k"}) + ";");
            return new String[] {"i", "j", "k"};
        }
        out.line("const int row = t / " + tile.width() + ";");
        out.line("const int column = t % " + tile.width() + ";");
        out.line("const int tileRow = max(0, diagonal - " + (tile.tiles(1) - 1) + ") + (int) blockIdx.x;");
        out.line("const int tileColumn = diagonal - tileRow;");
        out.line("const int i = tileRow * " + interior[0] + " + row - " + low[0] + ";");
        // a skewed tile column holds j + f i, and its words reach left of the fields' halo; the fields' layout is unskewed
        boolean skewed = tile.skew().skews();
        out.line("const int j = tileColumn * " + interior[1] + " + column - " + low[1] + (skewed ? " - " + tile.skew().factor()
                + " * i;   // the skewed tile column holds " + tile.skew().column() : ";"));
        out.line("const bool inside = i < " + (fields.sizes()[0] + fields.halo().high()[0])
                + (skewed ? " && j >= " + -fields.halo().low()[1] : "") + " && j < " + (fields.sizes()[1] + fields.halo().high()[1]) + ";");
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
        if (tile.rank() == 3) {
            return "plane >= " + low[0] + " && plane < " + (low[0] + interior[0]) + " && row >= " + low[1] + " && row < "
                    + (low[1] + interior[1]) + " && column >= " + low[2] + " && column < " + (low[2] + interior[2])
                    + " && i < " + sizes[0] + " && j < " + sizes[1] + " && k < " + sizes[2];
        }
        return "row >= " + low[0] + " && row < " + (low[0] + interior[0]) + " && column >= " + low[1] + " && column < "
                + (low[1] + interior[1]) + " && i < " + sizes[0] + (tile.skew().skews() ? " && j >= 0" : "") + " && j < " + sizes[1];
    }

    /**
     * In 3D, declares the tile (I, J, K) block b of launch {@code diagonal} computes: the blocks take the tiles
     * I = 0, 1, ... in turn, each I's tiles (J, K) with J + K = diagonal - I by rising J (as
     * {@link TileGeometry#blocksPerLaunch} counts them); declares {@code i0}, {@code j0}, {@code k0}.
     */
    static void emitTileOrigin3d(CudaWriter out, TileGeometry tile) {
        int[] interior = tile.interior();
        out.comment("which tile: block b of block-diagonal d takes the b-th tile (I, J, K), I + J + K = d, by rising I then J");
        out.line("int tileRow = 0;");
        out.line("int rest = diagonal;");
        out.line("int block = (int) blockIdx.x;");
        out.open("for (;;)");
        out.line("const int count = max(0, min(rest, " + (tile.tiles(1) - 1) + ") - max(0, rest - " + (tile.tiles(2) - 1)
                + ") + 1);");
        out.open("if (block < count)");
        out.line("break;");
        out.close();
        out.line("block -= count;");
        out.line("tileRow++;");
        out.line("rest--;");
        out.close();
        out.line("const int tileColumn = max(0, rest - " + (tile.tiles(2) - 1) + ") + block;");
        out.line("const int i0 = tileRow * " + interior[0] + ";");
        out.line("const int j0 = tileColumn * " + interior[1] + ";");
        out.line("const int k0 = (rest - tileColumn) * " + interior[2] + ";");
    }

    /** The word {@code offset} away in {@code tile} (with its halo), as {@code " + k"}. */
    static String wordOffset(int[] offset, TileGeometry tile) {
        long words = tile.wordOffset(offset);
        return words == 0 ? "" : words < 0 ? " - " + -words : " + " + words;
    }

    /**
     * The host's launches: one per block-diagonal, as many blocks as tiles on it; where {@code programmatic}, each after
     * the first may start before the one before it ends (the first is an ordinary launch: what came before it on the
     * stream need not be a launch whose blocks let it in).
     */
    static String launchPerDiagonal(TileGeometry tile, String kernel, int threads, boolean programmatic) {
        String prelude;
        String diagonals;
        String blocks;
        if (tile.rank() == 1) {
            prelude = "";
            diagonals = String.valueOf(tile.tiles(0));
            blocks = "1";
        } else if (tile.rank() == 3) {
            String counts = tile.blocksPerLaunch().stream().map(String::valueOf).collect(Collectors.joining(", "));
            prelude = "static const int blocks[] = {" + counts + "};   // tiles on each block-diagonal\n    ";
            diagonals = String.valueOf(tile.blocksPerLaunch().size());
            blocks = "blocks[d]";
        } else {
            prelude = "";
            diagonals = String.valueOf(tile.tiles(0) + tile.tiles(1) - 1);
            blocks = "blocks";
        }
        String body;
        if (programmatic) {
            body = "        const cudaError_t launched = fg::launch(" + kernel + ", " + blocks + ", " + threads + ", stream, d > 0, f, p, d, error);\n"
                    + "        if (launched != cudaSuccess) return launched;\n";
        } else {
            body = "        " + kernel + "<<<" + blocks + ", " + threads + ", 0, stream>>>(f, p, d, error);\n";
        }
        String count = tile.rank() == 2
                ? "        const int blocks = min(d, " + (tile.tiles(0) - 1) + ") - max(0, d - " + (tile.tiles(1) - 1) + ") + 1;\n" : "";
        return prelude + "for (int d = 0; d < " + diagonals + "; d++) {\n" + count + body + "    }";
    }
}
