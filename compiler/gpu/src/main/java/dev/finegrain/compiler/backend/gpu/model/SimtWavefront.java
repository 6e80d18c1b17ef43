package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.gpu.WavefrontDiagonals;
import dev.finegrain.compiler.backend.gpu.WavefrontMapping;
import dev.finegrain.compiler.backend.gpu.WavefrontPlanes;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.GridBarrier;
import dev.finegrain.dsl.Type;

import java.util.HashMap;
import java.util.Map;

/**
 * Spells a {@link WavefrontMapping} in the model ISA: one launch over global memory, the hyperplane steps (planes of
 * candidates in 3D, the anti-diagonals i + j = s in 2D, runs of {@code stride} points in 1D), the threads of the grid
 * dealt the points of a step, and a barrier between steps: the block barrier, and with persistent blocks the mapping's
 * inter-block barrier: seed 000's atomic one (a block barrier, one atomic increment per block, a spin until every
 * block arrived) or Xiao and Feng's XF barrier (flags, no atomics); or, for a relaunch, one step per launch, read
 * from the launch-index word.
 */
final class SimtWavefront {

    private final KernelGraph graph;
    private final WavefrontMapping mapping;
    private final GlobalLayout layout;
    private final int steps;
    private final int stride;
    private final int threads;
    private final int blocks;
    private final SimtAssembler asm = new SimtAssembler();
    /** The barrier's polls nap as the mapping's wait policy says. */
    private final SimtNaps naps;

    private SimtWavefront(WavefrontMapping mapping, GlobalLayout layout) {
        this.graph = mapping.graph();
        this.mapping = mapping;
        this.layout = layout;
        this.steps = mapping.steps();
        this.stride = mapping.stride();
        this.threads = mapping.threadsPerBlock();
        this.blocks = mapping.blocks();
        this.naps = new SimtNaps(asm, mapping.waitPolicy());
    }

    static SimtKernel emit(WavefrontMapping mapping, GlobalLayout layout) {
        return new SimtWavefront(mapping, layout).emit();
    }

    private SimtKernel emit() {
        emitProgram();
        return new SimtKernel(asm.text(), mapping.launchPlan(), threads, mapping.blocksPerLaunch(), 0, 0, -1,
                new SimtKernel.Resources(0, 0, 0, 0, 0, asm.registersUsed()));
    }

    private final Map<Integer, String> params = new HashMap<>();

    private void emitProgram() {
        asm.section(graph.name() + ": wavefront, " + steps + " steps");
        String thread = asm.register();
        String block = asm.register();
        asm.emit("S2R " + thread + ", SR_TID.X");
        asm.emit("S2R " + block + ", SR_CTAID.X");
        String one = asm.constant(1);
        String first = asm.register();
        asm.emit("IMAD " + first + ", " + block + ", " + SimtAssembler.immediate(threads) + ", " + thread);
        params.putAll(SimtParams.load(asm, graph, layout));
        if (graph.rank() == 3) {
            emitPlanes(thread, first, one);
            return;
        }
        String step = asm.register();
        String count = asm.register();
        String low = asm.register();
        String k = asm.register();
        String target = asm.register();
        String[] point = new String[graph.rank()];
        for (int d = 0; d < point.length; d++) {
            point[d] = asm.register();
        }
        String global = asm.register();
        String wideGlobal = layout.hasWideFields() ? asm.register() : null;
        WavefrontDiagonals diagonals = graph.rank() == 2 ? mapping.diagonals() : null;
        String slope = diagonals != null && diagonals.slope() > 1 ? asm.constant(diagonals.slope()) : null;
        firstStep(step);
        asm.emit("MOV " + target + ", RZ");
        asm.place("step");
        if (diagonals != null) {
            emitDiagonalBounds(diagonals, step, low, count, slope);
        } else {
            asm.comment("points s * stride .. min(n, s * stride + stride) - 1");
            asm.emit("IMUL " + low + ", " + step + ", " + SimtAssembler.immediate(stride));
            asm.emit("IADD " + count + ", RZ, -" + low);
            asm.emit("IADD " + count + ", " + count + ", " + SimtAssembler.immediate(layout.size(0)));
            asm.emit("ISETP.GT.AND P0, PT, " + count + ", " + SimtAssembler.immediate(stride) + ", PT");
            asm.emit("P0", "MOV32I " + count + ", " + SimtAssembler.immediate(stride));
        }
        asm.emit("MOV " + k + ", " + first);
        asm.place("point");
        asm.emit("ISETP.GE.AND P0, PT, " + k + ", " + count + ", PT");
        asm.emit("P0", "BRA barrier");
        if (diagonals != null) {
            int row = diagonals.row();
            int derived = diagonals.derived();
            asm.emit("IADD " + point[row] + ", " + low + ", " + k);
            if (diagonals.slope() == 0) {
                asm.emit("MOV " + point[derived] + ", " + step);
            } else if (diagonals.slope() == 1) {
                asm.emit("IADD " + point[derived] + ", " + step + ", -" + point[row]);
            } else {
                asm.emit("IMUL " + point[derived] + ", " + point[row] + ", " + SimtAssembler.immediate(diagonals.slope()));
                asm.emit("IADD " + point[derived] + ", " + step + ", -" + point[derived]);
            }
        } else {
            asm.emit("IADD " + point[0] + ", " + low + ", " + k);
        }
        layout.emitPaddedIndex(asm, global, point);
        asm.emit("SHL " + global + ", " + global + ", 0x2");
        if (wideGlobal != null) {
            asm.emit("IADD " + wideGlobal + ", " + global + ", " + global + "   // the point's offset in 8-byte fields");
        }
        emitPoint(point, new SimtFieldAddress(layout, global, wideGlobal), one);
        asm.emit("IADD " + k + ", " + k + ", " + SimtAssembler.immediate((long) threads * blocks));
        asm.emit("BRA point");
        emitStepEnd(thread, target, one, step);
    }

    /**
     * A 2D step s ({@link WavefrontDiagonals}): rows max(0, ceil((s - last) / c)) to min(rows - 1, s / c) of the row
     * dimension; the anti-diagonals (c = 1) need no division, and c = 0 takes every row.
     */
    private void emitDiagonalBounds(WavefrontDiagonals diagonals, String step, String low, String count, String slope) {
        int c = diagonals.slope();
        int rowLast = diagonals.sizes()[diagonals.row()] - 1;
        int derivedLast = diagonals.sizes()[diagonals.derived()] - 1;
        if (c == 1) {
            asm.comment("rows max(0, s - (cols - 1)) .. min(rows - 1, s) of anti-diagonal s");
            asm.emit("IADD " + low + ", " + step + ", " + SimtAssembler.immediate(-derivedLast));
            asm.emit("ISETP.LT.AND P0, PT, " + low + ", RZ, PT");
            asm.emit("SEL " + low + ", RZ, " + low + ", P0");
            asm.emit("ISETP.LT.AND P0, PT, " + step + ", " + SimtAssembler.immediate(rowLast) + ", PT");
            asm.emit("SEL " + count + ", " + step + ", " + SimtAssembler.immediate(rowLast) + ", P0");
            asm.emit("IADD " + count + ", " + count + ", -" + low);
            asm.emit("IADD " + count + ", " + count + ", 0x1");
            return;
        }
        asm.comment("the points of " + diagonals.describe());
        if (c == 0) {
            asm.emit("MOV " + low + ", RZ");
            asm.emit("MOV32I " + count + ", " + SimtAssembler.immediate(rowLast + 1));
            return;
        }
        asm.emit("IADD " + low + ", " + step + ", " + SimtAssembler.immediate(c - 1 - derivedLast));
        asm.emit("IDIV " + low + ", " + low + ", " + slope);   // rounds towards zero: below 0 it gives 0 at most
        asm.emit("ISETP.LT.AND P0, PT, " + low + ", RZ, PT");
        asm.emit("SEL " + low + ", RZ, " + low + ", P0");
        asm.emit("IDIV " + count + ", " + step + ", " + slope);
        asm.emit("ISETP.GT.AND P0, PT, " + count + ", " + SimtAssembler.immediate(rowLast) + ", PT");
        asm.emit("P0", "MOV32I " + count + ", " + SimtAssembler.immediate(rowLast));
        asm.emit("IADD " + count + ", " + count + ", -" + low);
        asm.emit("IADD " + count + ", " + count + ", 0x1");
    }

    /**
     * The 3D steps ({@link WavefrontPlanes}): each thread splits its first candidate into (row, column) once, then
     * steps through the candidates of a step by adding the grid's split, so no step divides.
     */
    private void emitPlanes(String thread, String first, String one) {
        WavefrontPlanes planes = mapping.planes();
        int row = planes.rowDimension();
        int column = planes.columnDimension();
        int derived = planes.derived();
        int columns = planes.columns();
        long grid = (long) threads * blocks;
        asm.comment("my first candidate, split into (row, column) of the step's box, " + columns + " columns a row");
        String columnCount = asm.constant(columns);
        String firstRow = asm.register();
        String firstColumn = asm.register();
        asm.emit("IDIV " + firstRow + ", " + first + ", " + columnCount);
        asm.emit("IREM " + firstColumn + ", " + first + ", " + columnCount);
        String step = asm.register();
        String target = asm.register();
        String low = asm.register();
        String rows = asm.register();
        String candidateRow = asm.register();
        String candidateColumn = asm.register();
        String[] point = {asm.register(), asm.register(), asm.register()};
        String global = asm.register();
        String wideGlobal = layout.hasWideFields() ? asm.register() : null;
        firstStep(step);
        asm.emit("MOV " + target + ", RZ");
        asm.place("step");
        if (planes.onPlane(row)) {
            asm.comment("rows max(0, s - " + planes.rowReach() + ") .. min(" + (layout.size(row) - 1) + ", s) of plane s");
            asm.emit("IADD " + low + ", " + step + ", " + SimtAssembler.immediate(-planes.rowReach()));
            asm.emit("ISETP.LT.AND P0, PT, " + low + ", RZ, PT");
            asm.emit("SEL " + low + ", RZ, " + low + ", P0");
            asm.emit("ISETP.LT.AND P0, PT, " + step + ", " + SimtAssembler.immediate(layout.size(row) - 1) + ", PT");
            asm.emit("SEL " + rows + ", " + step + ", " + SimtAssembler.immediate(layout.size(row) - 1) + ", P0");
            asm.emit("IADD " + rows + ", " + rows + ", -" + low);
            asm.emit("IADD " + rows + ", " + rows + ", 0x1");
        } else {
            asm.comment("every row of the box: the plane does not constrain the row dimension");
            asm.emit("MOV " + low + ", RZ");
            asm.emit("MOV32I " + rows + ", " + SimtAssembler.immediate(layout.size(row)));
        }
        asm.emit("MOV " + candidateRow + ", " + firstRow);
        asm.emit("MOV " + candidateColumn + ", " + firstColumn);
        asm.place("point");
        asm.emit("ISETP.GE.AND P0, PT, " + candidateRow + ", " + rows + ", PT");
        asm.emit("P0", "BRA barrier");
        asm.emit("IADD " + point[row] + ", " + low + ", " + candidateRow);
        asm.emit("MOV " + point[column] + ", " + candidateColumn);
        asm.emit("MOV " + point[derived] + ", " + step);
        for (int d : new int[] {row, column}) {
            if (planes.onPlane(d)) {
                asm.emit("IADD " + point[derived] + ", " + point[derived] + ", -" + point[d]);
            }
        }
        asm.comment("a candidate whose derived coordinate leaves the domain computes nothing");
        asm.emit("ISETP.GE.AND P1, PT, " + point[derived] + ", RZ, PT");
        asm.emit("ISETP.LT.AND P1, PT, " + point[derived] + ", " + SimtAssembler.immediate(layout.size(derived)) + ", P1");
        asm.emit("!P1", "BRA next");
        layout.emitPaddedIndex(asm, global, point);
        asm.emit("SHL " + global + ", " + global + ", 0x2");
        if (wideGlobal != null) {
            asm.emit("IADD " + wideGlobal + ", " + global + ", " + global + "   // the point's offset in 8-byte fields");
        }
        emitPoint(point, new SimtFieldAddress(layout, global, wideGlobal), one);
        asm.place("next");
        asm.comment("the next candidate, " + grid + " on: " + grid / columns + " rows and " + grid % columns + " columns");
        asm.emit("IADD " + candidateColumn + ", " + candidateColumn + ", " + SimtAssembler.immediate(grid % columns));
        asm.emit("IADD " + candidateRow + ", " + candidateRow + ", " + SimtAssembler.immediate(grid / columns));
        asm.emit("ISETP.GE.AND P0, PT, " + candidateColumn + ", " + SimtAssembler.immediate(columns) + ", PT");
        asm.emit("P0", "IADD " + candidateColumn + ", " + candidateColumn + ", " + SimtAssembler.immediate(-columns));
        asm.emit("P0", "IADD " + candidateRow + ", " + candidateRow + ", 0x1");
        asm.emit("BRA point");
        emitStepEnd(thread, target, one, step);
    }

    /** Step 0, or for a relaunch the launch's own step, which the host leaves in the launch-index word. */
    private void firstStep(String step) {
        if (mapping.relaunch()) {
            asm.comment("a launch per step: this launch's step is its launch index");
            asm.emit("LDG " + step + ", [" + SimtAssembler.immediate(GlobalLayout.LAUNCH_INDEX_BYTE) + "]");
        } else {
            asm.emit("MOV " + step + ", RZ");
        }
    }

    /**
     * The end of every step, in 2D and 3D alike: the barrier, then the next step or the end of the kernel; a
     * relaunch's step ends with its launch.
     */
    private void emitStepEnd(String thread, String target, String one, String step) {
        asm.place("barrier");
        if (mapping.relaunch()) {
            asm.emit("EXIT");
            return;
        }
        emitBarrier(thread, target, one);
        asm.emit("IADD " + step + ", " + step + ", 0x1");
        asm.emit("ISETP.LT.AND P0, PT, " + step + ", " + SimtAssembler.immediate(steps) + ", PT");
        asm.emit("P0", "BRA step");
        asm.emit("EXIT");
    }

    private void emitBarrier(String thread, String target, String one) {
        asm.emit("BAR.RED.POPC RZ, RZ");
        if (blocks == 1) {
            return;
        }
        if (mapping.barrier() == GridBarrier.XF) {
            emitXfBarrier(thread, target);
            return;
        }
        asm.comment("atomic inter-block barrier (seed 000): thread 0 counts its block in and waits for the rest");
        asm.emit("IADD " + target + ", " + target + ", " + SimtAssembler.immediate(blocks));
        asm.emit("ISETP.NE.AND P0, PT, " + thread + ", RZ, PT");
        asm.emit("P0", "BRA arrived");
        String counter = asm.register();
        asm.emit("ATOM.ADD RZ, [" + SimtAssembler.immediate(GlobalLayout.BARRIER_COUNTER_BYTE) + "], " + one);
        naps.start();
        asm.place("spin");
        asm.emit("LDG " + counter + ", [" + SimtAssembler.immediate(GlobalLayout.BARRIER_COUNTER_BYTE) + "]");
        asm.emit("ISETP.LT.AND P0, PT, " + counter + ", " + target + ", PT");
        naps.pause("P0");
        asm.emit("P0", "BRA spin");
        asm.place("arrived");
        asm.emit("BAR.RED.POPC RZ, RZ");
    }

    /**
     * Xiao and Feng's barrier: thread 0 stores the step number into its block's arrival flag; block 0's threads poll
     * every arrival flag (thread t the flags t, t + threads, ...), meet, and store it into every release flag; thread 0
     * of each block polls its own release flag; a block barrier lets the block go. The flags follow the kernel's data
     * ({@link #flagsByte}), {@code blocks} words each.
     */
    private void emitXfBarrier(String thread, String goal) {
        int arrived = flagsByte(layout);
        int released = arrived + 4 * blocks;
        asm.comment("XF inter-block barrier (Xiao and Feng): flags, no atomics; block 0 gathers and releases");
        asm.emit("IADD " + goal + ", " + goal + ", 0x1");
        String block = asm.register();
        String mine = asm.register();
        String k = asm.register();
        String flag = asm.register();
        String offset = asm.register();
        asm.emit("S2R " + block + ", SR_CTAID.X");
        asm.emit("SHL " + mine + ", " + block + ", 0x2");
        asm.emit("ISETP.EQ.AND P0, PT, " + thread + ", RZ, PT");
        asm.emit("P0", "STG [" + mine + "+" + SimtAssembler.immediate(arrived) + "], " + goal);
        asm.emit("ISETP.NE.AND P0, PT, " + block + ", RZ, PT");
        asm.emit("P0", "BRA xf_wait");
        asm.emit("MOV " + k + ", " + thread);
        asm.place("xf_gather");
        asm.emit("ISETP.GE.AND P0, PT, " + k + ", " + SimtAssembler.immediate(blocks) + ", PT");
        asm.emit("P0", "BRA xf_gathered");
        asm.emit("SHL " + offset + ", " + k + ", 0x2");
        naps.start();
        asm.place("xf_poll_in");
        asm.emit("LDG " + flag + ", [" + offset + "+" + SimtAssembler.immediate(arrived) + "]");
        asm.emit("ISETP.NE.AND P0, PT, " + flag + ", " + goal + ", PT");
        naps.pause("P0");
        asm.emit("P0", "BRA xf_poll_in");
        asm.emit("IADD " + k + ", " + k + ", " + SimtAssembler.immediate(threads));
        asm.emit("BRA xf_gather");
        asm.place("xf_gathered");
        asm.emit("BAR.RED.POPC RZ, RZ");
        asm.emit("MOV " + k + ", " + thread);
        asm.place("xf_release");
        asm.emit("ISETP.GE.AND P0, PT, " + k + ", " + SimtAssembler.immediate(blocks) + ", PT");
        asm.emit("P0", "BRA xf_wait");
        asm.emit("SHL " + offset + ", " + k + ", 0x2");
        asm.emit("STG [" + offset + "+" + SimtAssembler.immediate(released) + "], " + goal);
        asm.emit("IADD " + k + ", " + k + ", " + SimtAssembler.immediate(threads));
        asm.emit("BRA xf_release");
        asm.place("xf_wait");
        asm.emit("ISETP.NE.AND P0, PT, " + thread + ", RZ, PT");
        asm.emit("P0", "BRA xf_released");
        naps.start();
        asm.place("xf_poll_out");
        asm.emit("LDG " + flag + ", [" + mine + "+" + SimtAssembler.immediate(released) + "]");
        asm.emit("ISETP.NE.AND P0, PT, " + flag + ", " + goal + ", PT");
        naps.pause("P0");
        asm.emit("P0", "BRA xf_poll_out");
        asm.place("xf_released");
        asm.emit("BAR.RED.POPC RZ, RZ");
    }

    /** Where XF's flags start: after the kernel's data, on an 8-byte boundary. */
    static int flagsByte(GlobalLayout layout) {
        return layout.scratchByte();
    }

    private void emitPoint(String[] point, SimtFieldAddress global, String one) {
        Map<Integer, String> produced = new HashMap<>();
        SimtExpressions expressions = new SimtExpressions(asm, new PointOperands(point, params, produced, load -> {
            Type type = graph.field(load.field()).type();
            String value = asm.register(type);
            asm.emit("LDG" + SimtAssembler.width(type) + " " + value + ", " + global.at(load.field(),
                    layout.fieldByte(load.field()) + layout.byteOffset(load.field(), load.offset())));
            return value;
        }), one, layout, mapping.target());
        expressions.lowerActors(graph, produced, (actor, value) ->
                asm.emit("STG" + SimtAssembler.width(graph.field(actor.writes()).type()) + " "
                        + global.at(actor.writes(), layout.fieldByte(actor.writes())) + ", " + value));
    }
}
