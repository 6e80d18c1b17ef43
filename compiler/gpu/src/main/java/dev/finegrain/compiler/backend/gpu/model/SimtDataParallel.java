package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.gpu.GlobalReads;
import dev.finegrain.compiler.backend.gpu.DataParallelMapping;
import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.backend.gpu.TileGeometry;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.Type;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Spells a {@link DataParallelMapping} in the model ISA, the way Rodinia's needle kernel is written: the block copies
 * the tile and its halo of every field into shared memory, then sweeps the tile's anti-diagonals with a block barrier
 * after each (lane t computes row t); every point is written back to global memory as it is computed. In 1D a block
 * sweeps its tile in steps of {@code lanes} independent points; in 3D lane t owns a line (a, b) of the tile and the
 * block sweeps the planes a + b + c = s.
 */
final class SimtDataParallel {

    private final KernelGraph graph;
    private final DataParallelMapping mapping;
    private final GlobalLayout layout;
    private final TileGeometry tile;
    private final int lanes;
    private final SimtAssembler asm;
    private final int[] dataBase;

    /** Emits into {@code asm}, which dynamic dataflow shares to run these tiles inside its loop. */
    SimtDataParallel(DataParallelMapping mapping, GlobalLayout layout, SimtAssembler asm) {
        this.graph = mapping.graph();
        this.mapping = mapping;
        this.layout = layout;
        this.tile = mapping.tile();
        this.lanes = mapping.lanes();
        this.dataBase = mapping.dataBase();
        this.asm = asm;
    }

    static SimtKernel emit(DataParallelMapping mapping, GlobalLayout layout) {
        return new SimtDataParallel(mapping, layout, new SimtAssembler()).emit();
    }

    private SimtKernel emit() {
        emitProgram();
        return new SimtKernel(asm.text(), mapping.launchPlan(), lanes, tile.blocksPerLaunch(), mapping.sharedBytes(), 0, -1,
                new SimtKernel.Resources(0, mapping.sharedBytes(), 0, 0, 0, asm.registersUsed()));
    }

    private String lane;
    private String one;
    private String[] origin;
    private final Map<Integer, String> params = new HashMap<>();

    private void emitProgram() {
        asm.section(graph.name() + ": data-parallel, " + tile.describe());
        emitLane();
        String[] tileOrigin = SimtTiles.emitOrigin(asm, tile);
        emitParams();
        emitTile(tileOrigin);
        asm.place("end");
        asm.emit("EXIT");
    }

    /** The lane's index and the constant 1, which the tile's code uses; returns the lane's register. */
    String emitLane() {
        lane = asm.register();
        asm.emit("S2R " + lane + ", SR_TID.X");
        one = asm.constant(1);
        return lane;
    }

    /** The kernel's params, read from global memory once. */
    void emitParams() {
        params.putAll(SimtParams.load(asm, graph, layout));
    }

    /**
     * One tile whose first interior point is {@code tileOrigin}: the copy in, a block barrier, and the sweep; where the
     * mapping overlaps launches, after the wait for the launch before it and before letting the next one in.
     */
    void emitTile(String[] tileOrigin) {
        origin = tileOrigin;
        if (mapping.programmaticLaunches()) {
            asm.comment("wait for the launch before this one to end, its stores visible (a programmatic dependent launch)");
            asm.emit("ACQBULK");
        }
        emitCopyIn();
        asm.emit("BAR.RED.POPC RZ, RZ");
        emitSweep();
        if (mapping.programmaticLaunches()) {
            asm.comment("this block has swept its tile: let the next launch in");
            asm.emit("PREEXIT");
        }
    }

    /** The constant 1's register (after {@link #emitLane}). */
    String one() {
        return one;
    }

    /**
     * Lanes copy the tile with its halo, word k = row * width + column for k = lane, lane + lanes, ...;
     * the mapping's copy unroll of words per lane and round, every load issued before the first store, so the loads
     * overlap as a compiler's unrolled copy loop makes them; or, where the mapping copies asynchronously, each word an
     * LDGSTS (a 0 stored outside the padded fields), waited for once by DEPBAR. A round's last words may fall past the
     * tile, into each array's padding.
     */
    private void emitCopyIn() {
        asm.section("copy the tile and its halo of every field into shared memory, " + mapping.copyUnroll()
                + " words per lane and round" + (mapping.asyncCopy() ? ", by asynchronous copies (LDGSTS), waited for once" : ""));
        String row = asm.register();
        String column = asm.register();
        String word = asm.register();
        String plane = graph.rank() == 3 ? asm.register() : null;
        if (plane != null) {
            asm.comment("word = lane: plane, row and column of the copy (" + tile.rows() + " rows of " + tile.width()
                    + " words a plane)");
            String divisor = asm.constant(tile.width());
            asm.emit("IREM " + column + ", " + lane + ", " + divisor);
            asm.emit("IDIV " + row + ", " + lane + ", " + divisor);
            asm.emit("MOV32I " + divisor + ", " + SimtAssembler.immediate(tile.rows()));
            asm.emit("IDIV " + plane + ", " + row + ", " + divisor);
            asm.emit("IREM " + row + ", " + row + ", " + divisor);
        } else {
            asm.emit("MOV " + row + ", RZ");
            asm.emit("MOV " + column + ", " + lane);
        }
        asm.emit("MOV " + word + ", " + lane);
        String coordinate = asm.register();
        String[] shared = new String[mapping.copyUnroll()];
        String[][] values = new String[mapping.copyUnroll()][graph.fields().size()];
        String[] global = new String[mapping.copyUnroll()];
        SimtFieldAddress[] sharedAt = new SimtFieldAddress[mapping.copyUnroll()];
        SimtFieldAddress[] globalAt = new SimtFieldAddress[mapping.copyUnroll()];
        for (int u = 0; u < mapping.copyUnroll(); u++) {
            shared[u] = asm.register();
            global[u] = asm.register();
            for (IrField field : mapping.asyncCopy() ? List.<IrField>of() : GlobalReads.stagedFields(graph)) {
                values[u][field.id()] = asm.register(field.type());   // an asynchronous copy holds no word in a register
            }
            sharedAt[u] = new SimtFieldAddress(layout, shared[u], layout.hasWideFields() ? asm.register() : null);
            globalAt[u] = new SimtFieldAddress(layout, global[u], layout.hasWideFields() ? asm.register() : null);
        }
        asm.place("copy");
        asm.emit("ISETP.GE.AND P0, PT, " + word + ", " + SimtAssembler.immediate(tile.words()) + ", PT");
        asm.emit("P0", "BRA copied");
        int last = graph.rank() - 1;
        for (int u = 0; u < mapping.copyUnroll(); u++) {
            asm.comment("word " + u + " of the round: P1 says it lies in the padded fields");
            if (graph.rank() == 3) {
                emitCopyAddress3d(global[u], coordinate, plane, row, column);
            } else if (graph.rank() == 2) {
                asm.emit("IADD " + global[u] + ", " + origin[0] + ", " + row);
                asm.emit("ISETP.LT.AND P1, PT, " + global[u] + ", "
                        + SimtAssembler.immediate(layout.extent(0)) + ", PT");
                asm.emit("IMAD " + global[u] + ", " + global[u] + ", " + SimtAssembler.immediate(layout.extent(1)) + ", "
                        + origin[1]);
                asm.emit("IADD " + global[u] + ", " + global[u] + ", " + column);
            } else {
                asm.emit("IADD " + global[u] + ", " + origin[0] + ", " + column);
            }
            asm.emit("IADD " + coordinate + ", " + origin[last] + ", " + column);
            asm.emit("ISETP.LT.AND P1, PT, " + coordinate + ", "
                    + SimtAssembler.immediate(layout.extent(last))
                    + ", " + (graph.rank() >= 2 ? "P1" : "PT"));
            asm.emit("SHL " + global[u] + ", " + global[u] + ", 0x2");
            asm.emit("SHL " + shared[u] + ", " + word + ", 0x2");
            emitWideOffsets(sharedAt[u], globalAt[u]);
            for (IrField field : GlobalReads.stagedFields(graph)) {
                String width = SimtAssembler.width(field.type());
                if (mapping.asyncCopy()) {
                    // CUDA's cp.async with a source size of 0 outside: a copy in flight, or a 0 stored at once
                    String sharedWord = sharedAt[u].at(field.id(), dataBase[field.id()]);
                    asm.emit("P1", "LDGSTS" + width + " " + sharedWord + ", " + globalAt[u].at(field.id(), layout.fieldByte(field.id())));
                    asm.emit("!P1", "STS" + width + " " + sharedWord + ", RZ");
                    continue;
                }
                String value = values[u][field.id()];
                asm.emit("MOV" + width + " " + value + ", RZ");
                asm.emit("P1", "LDG" + width + " " + value + ", " + globalAt[u].at(field.id(), layout.fieldByte(field.id())));
            }
            asm.emit("IADD " + word + ", " + word + ", " + SimtAssembler.immediate(lanes));
            if (plane != null) {
                emitNextWord3d(plane, row, column);
                continue;
            }
            asm.emit("IADD " + column + ", " + column + ", " + SimtAssembler.immediate(lanes));
            asm.emit("ISETP.GE.AND P0, PT, " + column + ", " + SimtAssembler.immediate(tile.width()) + ", PT");
            asm.emit("P0", "IADD " + column + ", " + column + ", " + SimtAssembler.immediate(-tile.width()));
            asm.emit("P0", "IADD " + row + ", " + row + ", 0x1");
        }
        for (int u = 0; u < (mapping.asyncCopy() ? 0 : mapping.copyUnroll()); u++) {
            for (IrField field : GlobalReads.stagedFields(graph)) {
                asm.emit("STS" + SimtAssembler.width(field.type()) + " " + sharedAt[u].at(field.id(), dataBase[field.id()])
                        + ", " + values[u][field.id()]);
            }
        }
        asm.emit("BRA copy");
        asm.place("copied");
        if (mapping.asyncCopy()) {
            asm.emit("DEPBAR   // every copy of this lane has landed; the barrier makes them every lane's");
        }
    }

    /** The padded index of copy word (plane, row, column) in {@code global}; P1 says it lies in the padded fields. */
    private void emitCopyAddress3d(String global, String coordinate, String plane, String row, String column) {
        asm.emit("IADD " + global + ", " + origin[0] + ", " + plane);
        asm.emit("ISETP.LT.AND P1, PT, " + global + ", " + SimtAssembler.immediate(layout.extent(0)) + ", PT");
        asm.emit("IADD " + coordinate + ", " + origin[1] + ", " + row);
        asm.emit("ISETP.LT.AND P1, PT, " + coordinate + ", " + SimtAssembler.immediate(layout.extent(1)) + ", P1");
        asm.emit("IMAD " + global + ", " + global + ", " + SimtAssembler.immediate(layout.extent(1)) + ", " + coordinate);
        asm.emit("IMAD " + global + ", " + global + ", " + SimtAssembler.immediate(layout.extent(2)) + ", " + origin[2]);
        asm.emit("IADD " + global + ", " + global + ", " + column);
    }

    /** Moves (plane, row, column) on by {@code lanes} words: the lanes split into planes, rows and columns, carried. */
    private void emitNextWord3d(String plane, String row, String column) {
        int perPlane = tile.rows() * tile.width();
        asm.emit("IADD " + column + ", " + column + ", " + SimtAssembler.immediate(lanes % tile.width()));
        asm.emit("IADD " + row + ", " + row + ", " + SimtAssembler.immediate(lanes % perPlane / tile.width()));
        asm.emit("IADD " + plane + ", " + plane + ", " + SimtAssembler.immediate(lanes / perPlane));
        asm.emit("ISETP.GE.AND P0, PT, " + column + ", " + SimtAssembler.immediate(tile.width()) + ", PT");
        asm.emit("P0", "IADD " + column + ", " + column + ", " + SimtAssembler.immediate(-tile.width()));
        asm.emit("P0", "IADD " + row + ", " + row + ", 0x1");
        asm.emit("ISETP.GE.AND P0, PT, " + row + ", " + SimtAssembler.immediate(tile.rows()) + ", PT");
        asm.emit("P0", "IADD " + row + ", " + row + ", " + SimtAssembler.immediate(-tile.rows()));
        asm.emit("P0", "IADD " + plane + ", " + plane + ", 0x1");
    }

    private void emitSweep() {
        int[] low = layout.haloLow();
        int steps = mapping.steps();
        asm.section("sweep: " + steps + " steps, a block barrier after each");
        String step = asm.register();
        asm.emit("MOV " + step + ", RZ");
        String[] point = new String[graph.rank()];
        String shared = asm.register();
        String global = asm.register();
        String inTile = asm.register();
        for (int d = 0; d < point.length; d++) {
            point[d] = asm.register();
        }
        SimtFieldAddress sharedAt = new SimtFieldAddress(layout, shared, layout.hasWideFields() ? asm.register() : null);
        SimtFieldAddress globalAt = new SimtFieldAddress(layout, global, layout.hasWideFields() ? asm.register() : null);
        String[] line = graph.rank() == 3 ? emitLine() : null;
        asm.place("step");
        if (line != null) {
            emitSweepPoint3d(line, step, inTile, point, shared, global);
        } else if (graph.rank() == 2) {
            asm.comment("lane t computes row t, column step - t");
            asm.emit("IADD " + inTile + ", " + step + ", -" + lane);
            asm.emit("ISETP.GE.AND P1, PT, " + inTile + ", RZ, PT");
            asm.emit("ISETP.LT.AND P1, PT, " + inTile + ", " + SimtAssembler.immediate(tile.interior()[1]) + ", P1");
            asm.emit("IADD " + point[0] + ", " + origin[0] + ", " + lane);
            asm.emit("IADD " + point[1] + ", " + origin[1] + ", " + inTile);
            asm.emit("IADD " + shared + ", " + lane + ", " + SimtAssembler.immediate(low[0]));
            asm.emit("IMUL " + shared + ", " + shared + ", " + SimtAssembler.immediate(tile.width()));
            asm.emit("IADD " + shared + ", " + shared + ", " + inTile);
            asm.emit("IADD " + shared + ", " + shared + ", " + SimtAssembler.immediate(low[1]));
            layout.emitPaddedIndex(asm, global, point);
        } else {
            asm.comment("lane t computes point step * lanes + t of the tile");
            asm.emit("IMAD " + inTile + ", " + step + ", " + SimtAssembler.immediate(lanes) + ", " + lane);
            asm.emit("ISETP.LT.AND P1, PT, " + inTile + ", " + SimtAssembler.immediate(tile.interior()[0]) + ", PT");
            asm.emit("IADD " + point[0] + ", " + origin[0] + ", " + inTile);
            asm.emit("IADD " + shared + ", " + inTile + ", " + SimtAssembler.immediate(low[0]));
            layout.emitPaddedIndex(asm, global, point);
        }
        for (int d = 0; d < point.length; d++) {
            asm.emit("ISETP.LT.AND P1, PT, " + point[d] + ", " + SimtAssembler.immediate(layout.size(d)) + ", P1");
        }
        asm.emit("SHL " + shared + ", " + shared + ", 0x2");
        asm.emit("SHL " + global + ", " + global + ", 0x2");
        emitWideOffsets(sharedAt, globalAt);
        asm.emit("!P1", "BRA computed");
        emitPoint(point, sharedAt, globalAt);
        asm.place("computed");
        asm.emit("BAR.RED.POPC RZ, RZ");
        asm.emit("IADD " + step + ", " + step + ", 0x1");
        asm.emit("ISETP.LT.AND P0, PT, " + step + ", " + SimtAssembler.immediate(steps) + ", PT");
        asm.emit("P0", "BRA step");
    }

    /** In 3D, lane t's line of the tile: (a, b) = (t / T1, t % T1), split once before the sweep. */
    private String[] emitLine() {
        int across = tile.interior()[1];
        asm.comment("lane t computes the line a = t / " + across + ", b = t % " + across + " of the tile");
        String divisor = asm.constant(across);
        String a = asm.register();
        String b = asm.register();
        asm.emit("IDIV " + a + ", " + lane + ", " + divisor);
        asm.emit("IREM " + b + ", " + lane + ", " + divisor);
        return new String[] {a, b};
    }

    /** Lane (a, b) at step s computes c = s - a - b of its line, when that lies in the tile. */
    private void emitSweepPoint3d(String[] line, String step, String depth, String[] point, String shared, String global) {
        int[] low = layout.haloLow();
        asm.comment("plane a + b + c = step: my point c = step - a - b");
        asm.emit("IADD " + depth + ", " + step + ", -" + line[0]);
        asm.emit("IADD " + depth + ", " + depth + ", -" + line[1]);
        asm.emit("ISETP.GE.AND P1, PT, " + depth + ", RZ, PT");
        asm.emit("ISETP.LT.AND P1, PT, " + depth + ", " + SimtAssembler.immediate(tile.interior()[2]) + ", P1");
        String[] inTile = {line[0], line[1], depth};
        for (int d = 0; d < 3; d++) {
            asm.emit("IADD " + point[d] + ", " + origin[d] + ", " + inTile[d]);
        }
        asm.emit("IADD " + shared + ", " + line[0] + ", " + SimtAssembler.immediate(low[0]));
        asm.emit("IMAD " + shared + ", " + shared + ", " + SimtAssembler.immediate(tile.rows()) + ", " + line[1]);
        asm.emit("IADD " + shared + ", " + shared + ", " + SimtAssembler.immediate(low[1]));
        asm.emit("IMAD " + shared + ", " + shared + ", " + SimtAssembler.immediate(tile.width()) + ", " + depth);
        asm.emit("IADD " + shared + ", " + shared + ", " + SimtAssembler.immediate(low[2]));
        layout.emitPaddedIndex(asm, global, point);
    }

    /** The 8-byte fields' offsets, twice the 4-byte ones, when the kernel has such fields. */
    private void emitWideOffsets(SimtFieldAddress shared, SimtFieldAddress global) {
        for (SimtFieldAddress offsets : new SimtFieldAddress[] {shared, global}) {
            if (offsets.wide() != null) {
                asm.emit("IADD " + offsets.wide() + ", " + offsets.narrow() + ", " + offsets.narrow());
            }
        }
    }

    private void emitPoint(String[] point, SimtFieldAddress shared, SimtFieldAddress global) {
        Map<Integer, String> produced = new HashMap<>();
        SimtExpressions expressions = new SimtExpressions(asm, new PointOperands(point, params, produced, load -> {
            Type type = graph.field(load.field()).type();
            String value = asm.register(type);
            asm.emit("LDS" + SimtAssembler.width(type) + " " + value + ", " + shared.at(load.field(),
                    dataBase[load.field()] + GpuTarget.elementBytes(type) * tile.wordOffset(load.offset())));
            return value;
        }), one, layout, mapping.target());
        expressions.lowerActors(graph, produced, (actor, value) -> {
            String width = SimtAssembler.width(graph.field(actor.writes()).type());
            asm.emit("STS" + width + " " + shared.at(actor.writes(), dataBase[actor.writes()]) + ", " + value);
            asm.emit("STG" + width + " " + global.at(actor.writes(), layout.fieldByte(actor.writes())) + ", " + value);
        });
    }
}
