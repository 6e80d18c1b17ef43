package dev.finegrain.compiler.backend.gpu;

import java.util.ArrayList;
import java.util.List;

/**
 * How a tiled schedule cuts the domain (1D or 2D) into sub-grids and orders them: tile (I, J) covers interior
 * points [I*T0, I*T0+T0) x [J*T1, J*T1+T1); its shared copy adds the common halo around it, {@code rows x width}
 * words per field. Tiles on one block-diagonal (I + J = d) are independent when every dependence vector is
 * non-negative, so launch d runs them as blocks; in 1D each launch runs one tile.
 */
record TileGeometry(int rank, int[] interior, int[] haloLow, int[] haloHigh, int[] sizes) {

    int rows() {
        return rank == 1 ? 1 : haloLow[0] + interior[0] + haloHigh[0];
    }

    int width() {
        int last = rank - 1;
        return haloLow[last] + interior[last] + haloHigh[last];
    }

    int words() {
        return rows() * width();
    }

    int tiles(int dimension) {
        return Math.ceilDiv(sizes[dimension], interior[dimension]);
    }

    /** Blocks per launch: one launch per block-diagonal, one block per tile on it. */
    List<Integer> blocksPerLaunch() {
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

    String describe() {
        String tile = rank == 1 ? interior[0] + " points" : interior[0] + "x" + interior[1] + " points";
        String copy = rank == 1 ? width() + " words" : rows() + "x" + width() + " words";
        String grid = rank == 1 ? tiles(0) + " tiles" : tiles(0) + "x" + tiles(1) + " tiles";
        return "tiles of " + tile + " (shared copy with halo: " + copy + " per field), " + grid;
    }

    /**
     * Emits the tile's first interior point: {@code origin[0]} = I*T0 and, in 2D, {@code origin[1]} = J*T1, from the
     * launch index (global word 0) and the block index.
     */
    String[] emitOrigin(SimtAssembler asm) {
        asm.comment("which tile: launch index d (global word 0) and block b");
        String launch = asm.register();
        asm.emit("LDG " + launch + ", [" + SimtAssembler.immediate(GlobalLayout.LAUNCH_INDEX_BYTE) + "]");
        if (rank == 1) {
            String origin = asm.register();
            asm.emit("IMUL " + origin + ", " + launch + ", " + SimtAssembler.immediate(interior[0]));
            return new String[] {origin};
        }
        String block = asm.register();
        asm.emit("S2R " + block + ", SR_CTAID.X");
        String tileRow = asm.register();
        asm.comment("I = max(0, d - (tiles across - 1)) + b, J = d - I");
        asm.emit("IADD " + tileRow + ", " + launch + ", " + SimtAssembler.immediate(-(tiles(1) - 1)));
        asm.emit("ISETP.LT.AND P0, PT, " + tileRow + ", RZ, PT");
        asm.emit("SEL " + tileRow + ", RZ, " + tileRow + ", P0");
        asm.emit("IADD " + tileRow + ", " + tileRow + ", " + block);
        String tileColumn = asm.register();
        asm.emit("IADD " + tileColumn + ", " + launch + ", -" + tileRow);
        String row = asm.register();
        String column = asm.register();
        asm.emit("IMUL " + row + ", " + tileRow + ", " + SimtAssembler.immediate(interior[0]));
        asm.emit("IMUL " + column + ", " + tileColumn + ", " + SimtAssembler.immediate(interior[1]));
        return new String[] {row, column};
    }
}
