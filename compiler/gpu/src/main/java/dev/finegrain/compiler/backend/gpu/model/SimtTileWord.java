package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.gpu.TileGeometry;

/**
 * Which word of a lock-dataflow tile thread {@code tid} owns, in the model ISA: its plane (3D), row and column in the
 * tile's copy (rows a warp wide), its point in the domain's coordinates (unskewed where the tiles are skewed) and the
 * point's padded index in the global layout, as {@code CudaTiles.emitPointOfWord} spells the same mapping in CUDA.
 *
 * @param plane        the plane's register in 3D, else null
 * @param row          the row's register (RZ in 1D)
 * @param column       the column's register
 * @param point        each coordinate's register
 * @param globalOffset the padded index, in elements
 */
record SimtTileWord(String plane, String row, String column, String[] point, String globalOffset) {

    static SimtTileWord of(SimtAssembler asm, TileGeometry tile, GlobalLayout layout, String tid) {
        String row = "RZ";
        String column = tid;
        String plane = null;
        if (tile.rank() >= 2) {
            row = asm.register();
            column = asm.register();
            asm.emit("SHR " + row + ", " + tid + ", 0x5");
            asm.emit("LOP.AND " + column + ", " + tid + ", 0x1f");
        }
        if (tile.rank() == 3) {
            asm.comment("my plane and my row in it: " + tile.rows() + " rows of 32 words a plane");
            plane = asm.register();
            String rowsPerPlane = asm.constant(tile.rows());
            asm.emit("IDIV " + plane + ", " + row + ", " + rowsPerPlane);
            asm.emit("IREM " + row + ", " + row + ", " + rowsPerPlane);
        }
        String[] origin = SimtTiles.emitOrigin(asm, tile);
        int[] low = layout.haloLow();
        String[] point = new String[tile.rank()];
        String globalOffset = asm.register();
        if (tile.rank() == 1) {
            point[0] = asm.register();
            asm.emit("IADD " + globalOffset + ", " + origin[0] + ", " + tid);
            asm.emit("IADD " + point[0] + ", " + globalOffset + ", " + SimtAssembler.immediate(-low[0]));
        } else if (tile.rank() == 3) {
            for (int d = 0; d < 3; d++) {
                point[d] = asm.register();
            }
            asm.emit("IADD " + point[0] + ", " + origin[0] + ", " + plane);
            asm.emit("IADD " + point[1] + ", " + origin[1] + ", " + row);
            asm.emit("IMAD " + globalOffset + ", " + point[0] + ", " + SimtAssembler.immediate(layout.extent(1)) + ", " + point[1]);
            asm.emit("IMAD " + globalOffset + ", " + globalOffset + ", " + SimtAssembler.immediate(layout.extent(2)) + ", " + origin[2]);
            asm.emit("IADD " + globalOffset + ", " + globalOffset + ", " + column);
            asm.emit("IADD " + point[2] + ", " + origin[2] + ", " + column);
            for (int d = 0; d < 3; d++) {
                asm.emit("IADD " + point[d] + ", " + point[d] + ", " + SimtAssembler.immediate(-low[d]));
            }
        } else if (tile.skew().skews()) {
            int[] tileLow = tile.haloLow();
            point[0] = asm.register();
            point[1] = asm.register();
            asm.comment("the skewed tile column holds " + tile.skew().column());
            asm.emit("IADD " + point[0] + ", " + origin[0] + ", " + row);
            asm.emit("IADD " + point[0] + ", " + point[0] + ", " + SimtAssembler.immediate(-tileLow[0]));
            asm.emit("IADD " + point[1] + ", " + origin[1] + ", " + column);
            asm.emit("IADD " + point[1] + ", " + point[1] + ", " + SimtAssembler.immediate(-tileLow[1]));
            asm.emit("IMAD " + point[1] + ", " + point[0] + ", " + SimtAssembler.immediate(-tile.skew().factor())
                    + ", " + point[1]);
            layout.emitPaddedIndex(asm, globalOffset, point);
        } else {
            point[0] = asm.register();
            point[1] = asm.register();
            asm.emit("IADD " + point[0] + ", " + origin[0] + ", " + row);
            asm.emit("IMAD " + globalOffset + ", " + point[0] + ", " + SimtAssembler.immediate(layout.extent(1))
                    + ", " + origin[1]);
            asm.emit("IADD " + globalOffset + ", " + globalOffset + ", " + column);
            asm.emit("IADD " + point[0] + ", " + point[0] + ", " + SimtAssembler.immediate(-low[0]));
            asm.emit("IADD " + point[1] + ", " + origin[1] + ", " + column);
            asm.emit("IADD " + point[1] + ", " + point[1] + ", " + SimtAssembler.immediate(-low[1]));
        }
        return new SimtTileWord(plane, row, column, point, globalOffset);
    }
}
