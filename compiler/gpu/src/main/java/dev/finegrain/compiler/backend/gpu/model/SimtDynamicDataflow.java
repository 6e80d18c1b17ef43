package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.gpu.DynamicDataflowMapping;
import dev.finegrain.compiler.backend.gpu.TileGeometry;

/**
 * Spells a {@link DynamicDataflowMapping} in the model ISA: persistent blocks loop taking a ready tile from the ring
 * in global memory (lane 0 draws a slot with ATOM.ADD on the head and polls it until it is filled, then tells the
 * block through a shared word), run it as {@link SimtDataParallel} runs a tile, and count it off the neighbours above
 * (after MEMBAR.GL, ATOM.ADD on each one's arrival counter; the count that completes a neighbour draws a tail slot
 * and stores the neighbour there). A block ends when it draws a slot past the last tile. The same algorithm as the
 * CUDA prelude's {@code fg::ring_take} and {@code fg::ring_arrive}.
 */
final class SimtDynamicDataflow {

    private final DynamicDataflowMapping mapping;
    private final GlobalLayout layout;
    private final TileGeometry tile;
    private final SimtAssembler asm = new SimtAssembler();
    /** Global byte of the ring's head; the tail, the arrival counters and the slots follow. */
    private final int ring;
    /** Shared byte of the word through which lane 0 tells its block the tile it took, after the tile copies. */
    private final int nextByte;

    private SimtDynamicDataflow(DynamicDataflowMapping mapping, GlobalLayout layout) {
        this.mapping = mapping;
        this.layout = layout;
        this.tile = mapping.tiles().tile();
        this.ring = layout.scratchByte();
        this.nextByte = mapping.tiles().sharedBytes();
    }

    static SimtKernel emit(DynamicDataflowMapping mapping, GlobalLayout layout) {
        return new SimtDynamicDataflow(mapping, layout).emit();
    }

    private SimtKernel emit() {
        SimtDataParallel tiles = new SimtDataParallel(mapping.tiles(), layout, asm);
        asm.section(mapping.graph().name() + ": dynamic-dataflow, " + tile.describe() + ", " + mapping.blocks()
                + " persistent blocks");
        String lane = tiles.emitLane();
        String one = tiles.one();
        tiles.emitParams();
        String tileIndex = asm.register();
        emitTake(lane, one, tileIndex);
        String[] coordinates = emitCoordinates(tileIndex);
        String[] origin = new String[coordinates.length];
        for (int d = 0; d < coordinates.length; d++) {
            origin[d] = asm.register();
            asm.emit("IMUL " + origin[d] + ", " + coordinates[d] + ", " + SimtAssembler.immediate(tile.interior()[d]));
        }
        tiles.emitTile(origin);
        emitArrivals(lane, one, tileIndex, coordinates);
        asm.emit("BRA take");
        asm.place("end");
        asm.emit("EXIT");
        int shared = nextByte + 4;
        return new SimtKernel(asm.text(), mapping.launchPlan(), mapping.threadsPerBlock(), mapping.blocksPerLaunch(), shared,
                0, -1, new SimtKernel.Resources(4, mapping.tiles().sharedBytes(), 0, 0, 0, asm.registersUsed()));
    }

    /** Lane 0 draws a slot and waits for its tile (slot 0 is tile 0); the block reads it; -1 past the last tile ends. */
    private void emitTake(String lane, String one, String tileIndex) {
        int count = mapping.tileCount();
        SimtNaps naps = new SimtNaps(asm, mapping.waitPolicy());
        String slot = asm.register();
        String address = asm.register();
        asm.place("take");
        asm.comment("lane 0 draws the ring's next slot and waits for a ready tile in it");
        asm.emit("ISETP.NE.AND P0, PT, " + lane + ", RZ, PT");
        asm.emit("P0", "BRA drawn");
        asm.emit("ATOM.ADD " + slot + ", [" + SimtAssembler.immediate(ring) + "], " + one);
        asm.emit("MOV32I " + tileIndex + ", " + SimtAssembler.immediate(-1));
        asm.emit("ISETP.GE.AND P0, PT, " + slot + ", " + SimtAssembler.immediate(count) + ", PT");
        asm.emit("P0", "BRA told");
        asm.emit("MOV " + tileIndex + ", RZ");
        asm.emit("ISETP.EQ.AND P0, PT, " + slot + ", RZ, PT");
        asm.emit("P0", "BRA told");
        asm.emit("SHL " + address + ", " + slot + ", 0x2");
        naps.start();
        asm.place("wait_slot");
        asm.emit("LDG " + tileIndex + ", [" + address + "+" + SimtAssembler.immediate(ring + mapping.slotsByte()) + "]");
        asm.emit("ISETP.EQ.AND P0, PT, " + tileIndex + ", RZ, PT");
        naps.pause("P0");
        asm.emit("P0", "BRA wait_slot");
        asm.emit("MEMBAR.GL");
        asm.emit("IADD " + tileIndex + ", " + tileIndex + ", -0x1");
        asm.place("told");
        asm.emit("STS [" + SimtAssembler.immediate(nextByte) + "], " + tileIndex);
        asm.place("drawn");
        asm.emit("BAR.RED.POPC RZ, RZ");
        asm.emit("LDS " + tileIndex + ", [" + SimtAssembler.immediate(nextByte) + "]");
        asm.emit("ISETP.LT.AND P0, PT, " + tileIndex + ", RZ, PT");
        asm.emit("P0", "BRA end");
    }

    /** The tile's coordinates in the grid of tiles, row-major. */
    private String[] emitCoordinates(String tileIndex) {
        int rank = tile.rank();
        String[] coordinates = new String[rank];
        for (int d = rank - 1; d >= 0; d--) {
            coordinates[d] = asm.register();
            int stride = tile.tileStride(d);
            String quotient = tileIndex;
            if (stride > 1) {
                asm.emit("IDIV " + coordinates[d] + ", " + tileIndex + ", " + asm.constant(stride));
                quotient = coordinates[d];
            }
            if (d > 0) {
                asm.emit("IREM " + coordinates[d] + ", " + quotient + ", " + asm.constant(tile.tiles(d)));
            } else if (stride == 1) {
                asm.emit("MOV " + coordinates[d] + ", " + tileIndex);
            }
        }
        return coordinates;
    }

    /**
     * Lane 0, after the tile's last block barrier: a fence, then for each dimension with a neighbour above, one more
     * arrival on its counter; the arrival that makes the count the neighbour's number of neighbours below puts it into
     * the ring's next tail slot (the tail counts the slots after slot 0).
     */
    private void emitArrivals(String lane, String one, String tileIndex, String[] coordinates) {
        int rank = tile.rank();
        asm.comment("lane 0 counts the tile off its neighbours above; a neighbour it completes goes into the ring");
        asm.emit("ISETP.NE.AND P0, PT, " + lane + ", RZ, PT");
        asm.emit("P0", "BRA arrived");
        asm.emit("MEMBAR.GL");
        String below = asm.register();
        String positive = asm.register();
        asm.emit("MOV " + below + ", RZ");
        for (int d = 0; d < rank; d++) {
            asm.emit("ISETP.GT.AND P0, PT, " + coordinates[d] + ", RZ, PT");
            asm.emit("P0", "IADD " + below + ", " + below + ", 0x1");
        }
        String above = asm.register();
        String arrived = asm.register();
        String needed = asm.register();
        String address = asm.register();
        for (int d = 0; d < rank; d++) {
            String next = "counted_" + d;
            asm.emit("ISETP.GE.AND P0, PT, " + coordinates[d] + ", " + SimtAssembler.immediate(tile.tiles(d) - 1) + ", PT");
            asm.emit("P0", "BRA " + next);
            asm.emit("IADD " + above + ", " + tileIndex + ", " + SimtAssembler.immediate(tile.tileStride(d)));
            asm.emit("SHL " + address + ", " + above + ", 0x2");
            asm.emit("ATOM.ADD " + arrived + ", [" + address + "+" + SimtAssembler.immediate(ring
                    + DynamicDataflowMapping.arrivalsByte(0)) + "], " + one);
            asm.emit("IADD " + arrived + ", " + arrived + ", 0x1");
            asm.comment("the neighbour waits for the tile's other neighbours below, and for this one");
            asm.emit("MOV " + needed + ", " + below);
            asm.emit("ISETP.GT.AND P0, PT, " + coordinates[d] + ", RZ, PT");
            asm.emit("P0", "IADD " + needed + ", " + needed + ", -0x1");
            asm.emit("IADD " + needed + ", " + needed + ", 0x1");
            asm.emit("ISETP.NE.AND P0, PT, " + arrived + ", " + needed + ", PT");
            asm.emit("P0", "BRA " + next);
            asm.emit("ATOM.ADD " + positive + ", [" + SimtAssembler.immediate(ring + 4) + "], " + one);
            asm.emit("IADD " + positive + ", " + positive + ", 0x1");
            asm.emit("SHL " + address + ", " + positive + ", 0x2");
            asm.emit("IADD " + above + ", " + above + ", 0x1");
            asm.emit("STG [" + address + "+" + SimtAssembler.immediate(ring + mapping.slotsByte()) + "], " + above);
            asm.place(next);
        }
        asm.place("arrived");
    }
}
