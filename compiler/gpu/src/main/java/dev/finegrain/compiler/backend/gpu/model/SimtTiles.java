package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.gpu.TileGeometry;

/** Which tile a block computes, in the model ISA: launch k runs block-diagonal k, block b its b-th tile. */
final class SimtTiles {

    private SimtTiles() {}

    /**
     * Emits the tile's first interior point: {@code origin[0]} = I*T0 and, in 2D and 3D, {@code origin[1]} = J*T1
     * (and {@code origin[2]} = K*T2), from the launch index (global word 0) and the block index.
     */
    static String[] emitOrigin(SimtAssembler asm, TileGeometry tile) {
        int[] interior = tile.interior();
        asm.comment("which tile: launch index d (global word 0) and block b");
        String launch = asm.register();
        asm.emit("LDG " + launch + ", [" + SimtAssembler.immediate(GlobalLayout.LAUNCH_INDEX_BYTE) + "]");
        if (tile.rank() == 1) {
            String origin = asm.register();
            asm.emit("IMUL " + origin + ", " + launch + ", " + SimtAssembler.immediate(interior[0]));
            return new String[] {origin};
        }
        String block = asm.register();
        asm.emit("S2R " + block + ", SR_CTAID.X");
        if (tile.rank() == 3) {
            return emitOrigin3d(asm, tile, launch, block);
        }
        String tileRow = asm.register();
        asm.comment("I = max(0, d - (tiles across - 1)) + b, J = d - I");
        asm.emit("IADD " + tileRow + ", " + launch + ", " + SimtAssembler.immediate(-(tile.tiles(1) - 1)));
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

    /**
     * In 3D the blocks of launch d take the tiles I = 0, 1, ... in turn, each I's tiles (J, K) with J + K = d - I by
     * rising J ({@link TileGeometry#innerTiles}): block b subtracts each I's count until it falls inside one. Every
     * thread of the block walks the same loop, at most one pass per tile row.
     */
    private static String[] emitOrigin3d(SimtAssembler asm, TileGeometry tile, String launch, String block) {
        int[] interior = tile.interior();
        String tileRow = asm.register();
        String rest = asm.register();
        String high = asm.register();
        String low = asm.register();
        String count = asm.register();
        asm.emit("MOV " + tileRow + ", RZ");
        asm.emit("MOV " + rest + ", " + launch);
        asm.place("which_tile");
        asm.comment("tiles (J, K) with J + K = d - I: J from max(0, d - I - " + (tile.tiles(2) - 1) + ") to min(d - I, "
                + (tile.tiles(1) - 1) + ")");
        asm.emit("ISETP.LT.AND P0, PT, " + rest + ", " + SimtAssembler.immediate(tile.tiles(1) - 1) + ", PT");
        asm.emit("SEL " + high + ", " + rest + ", " + SimtAssembler.immediate(tile.tiles(1) - 1) + ", P0");
        asm.emit("IADD " + low + ", " + rest + ", " + SimtAssembler.immediate(-(tile.tiles(2) - 1)));
        asm.emit("ISETP.LT.AND P0, PT, " + low + ", RZ, PT");
        asm.emit("SEL " + low + ", RZ, " + low + ", P0");
        asm.emit("IADD " + count + ", " + high + ", -" + low);
        asm.emit("IADD " + count + ", " + count + ", 0x1");
        asm.emit("ISETP.LT.AND P0, PT, " + count + ", RZ, PT");
        asm.emit("SEL " + count + ", RZ, " + count + ", P0");
        asm.emit("ISETP.LT.AND P0, PT, " + block + ", " + count + ", PT");
        asm.emit("P0", "BRA tile_found");
        asm.emit("IADD " + block + ", " + block + ", -" + count);
        asm.emit("IADD " + tileRow + ", " + tileRow + ", 0x1");
        asm.emit("IADD " + rest + ", " + rest + ", -0x1");
        asm.emit("BRA which_tile");
        asm.place("tile_found");
        String tileColumn = asm.register();
        String tileDepth = asm.register();
        asm.emit("IADD " + tileColumn + ", " + low + ", " + block);
        asm.emit("IADD " + tileDepth + ", " + rest + ", -" + tileColumn);
        String[] origin = {asm.register(), asm.register(), asm.register()};
        String[] tiles = {tileRow, tileColumn, tileDepth};
        for (int d = 0; d < 3; d++) {
            asm.emit("IMUL " + origin[d] + ", " + tiles[d] + ", " + SimtAssembler.immediate(interior[d]));
        }
        return origin;
    }
}
