package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.gpu.TileGeometry;

/** Which tile a block computes, in the model ISA: launch k runs block-diagonal k, block b its b-th tile. */
final class SimtTiles {

    private SimtTiles() {}

    /**
     * Emits the tile's first interior point: {@code origin[0]} = I*T0 and, in 2D, {@code origin[1]} = J*T1, from the
     * launch index (global word 0) and the block index.
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
}
