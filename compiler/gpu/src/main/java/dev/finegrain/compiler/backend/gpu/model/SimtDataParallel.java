package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.gpu.DataParallelMapping;
import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.backend.gpu.TileGeometry;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.Type;

import java.util.HashMap;
import java.util.Map;

/**
 * Spells a {@link DataParallelMapping} in the model ISA, the way Rodinia's needle kernel is written: the block copies
 * the tile and its halo of every field into shared memory ({@link SimtTileCopy}; beside programmatic launches only the
 * words the tile reads before it writes them), then sweeps the tile's anti-diagonals with a block barrier
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
        new SimtTileCopy(mapping, layout, asm, lane, origin).emit();
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
        sharedAt.emitWide(asm);
        globalAt.emitWide(asm);
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
