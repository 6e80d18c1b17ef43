package dev.finegrain.compiler.backend.jvm.lanes;

import dev.finegrain.compiler.backend.jvm.code.JExpr.Binary.Op;
import dev.finegrain.compiler.backend.jvm.code.JExpr;
import dev.finegrain.compiler.backend.jvm.code.JStmt;
import dev.finegrain.compiler.backend.jvm.code.JType;
import dev.finegrain.compiler.backend.jvm.lowering.LoweringContext;
import dev.finegrain.compiler.ir.IrActor;
import dev.finegrain.compiler.ir.IrExpr;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.add;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.constant;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.mul;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.sub;

/**
 * A tile exactly k columns wide (k the lane count) in strips of k rows whose k lanes step together, for kernels whose
 * strips run one column apart ({@link StripMapping} with skew 1): lane r computes the tile's column t - r at step t, so
 * one strip of the tile is 2k - 1 vector steps. Such a tile holds no whole block of {@link LaneStrips} (k rows by
 * 2k - 1 columns), which would leave every cell to scalar loops, one dependent chain per row.
 *
 * <p>An input's vector c holds in lane r the row's column (c - r) mod k, which is lane r's column at step c and at step
 * c + k, so step t reads vector t mod k; the strip's inputs are copied element by element into that layout. The
 * results go back as whole row stores: vector i takes lanes r &lt;= i from step i and lanes r &gt; i from step k + i (a
 * masked store of each step's lanes inside the tile), the k vectors are transposed, and each row is rotated back. The
 * steps are one loop, not unrolled, with the step vectors of the inputs and of the results in a per-worker scratch
 * array: with the steps unrolled, or the inputs too transposed in registers, the run method is more than HotSpot's C1
 * compiles ("out of virtual registers"), so that it runs interpreted until C2, which takes seconds over it. Lanes
 * west of the tile (lane r before step r) compute throwaway values and then take the west halo's where a lane inside
 * reads them; lanes east of it (lane r after step k - 1 + r) are read by no lane inside, since a legal tiling has no
 * dependence from the east. A read of the row above comes from the previous steps shifted up one lane, lane 0 taking
 * the row above the strip from memory, as in {@link LaneStrips}.
 */
public final class TileLanes {

    private final LaneVectors v;
    private final LoweringContext cx;
    private final int k;
    private final JExpr.Local stripRow;
    private final JExpr.Local step;
    private final JExpr.Local lane;
    private final JExpr.Local laneIndex;
    /** Per worker: each input's k step vectors, each field's k result vectors, a column of the west halo, the rotations. */
    private final JExpr.Local scratch;
    private final int haloSlot;
    /** Where the scratch array holds the index vector that rotates r lanes (lane c takes lane (c - r) mod k) at r * k. */
    private final int rotationSlot;
    private final JExpr.Local[] outputRows;
    private final Map<String, Integer> inputSlot = new LinkedHashMap<>();
    private final Map<String, JExpr.Local> inputValue = new LinkedHashMap<>();
    private final Map<Integer, Integer> resultSlot = new LinkedHashMap<>();
    /** Per state field: this step's vector, and {@code earlier[b - 1]} the vector of b steps before. */
    private final Map<Integer, JExpr.Local> current = new LinkedHashMap<>();
    private final Map<Integer, JExpr.Local[]> earlier = new LinkedHashMap<>();
    /** Per state field: {@code aboveEarlier[b - 1]} the vector of b steps before, shifted up one lane. */
    private final Map<Integer, JExpr.Local[]> aboveEarlier = new LinkedHashMap<>();
    /** Per state field: the strip's west halo, one vector per column west of the tile that its reads reach. */
    private final Map<Integer, JExpr.Local[]> westHalo = new LinkedHashMap<>();

    /** Tile lanes for a tile of {@code tileRows} x {@code tileColumns}, or the reason there are none. */
    public static Optional<String> shapeAgainst(int lanes, int skew, int tileRows, int tileColumns) {
        if (tileColumns != lanes || tileRows % lanes != 0) {
            return Optional.of("tiles of " + tileRows + " x " + tileColumns + " hold neither a block of a strip (" + lanes + " rows by "
                    + (skew * (lanes - 1) + lanes) + " columns) nor whole strips of " + lanes + " rows by " + lanes + " columns");
        }
        if (skew != 1) {
            return Optional.of("strips of a tile " + lanes + " columns wide need rows one column apart, and this kernel's are " + skew + " apart");
        }
        return Optional.empty();
    }

    TileLanes(LaneVectors lanes) {
        this.v = lanes;
        this.cx = lanes.cx;
        this.k = lanes.k;
        stripRow = cx.local("stripRow", JType.INT);
        step = cx.local("step", JType.INT);
        lane = cx.local("lane", JType.INT);
        v.declareLocals();
        laneIndex = v.laneIndex();
        outputRows = v.locals("tileStep", v.vector, k);
        int words = 0;
        for (String name : v.inputReads().keySet()) {
            inputSlot.put(name, words);
            inputValue.put(name, cx.local(name + "Lanes", v.vector));
            words += k * k;
        }
        for (IrActor actor : cx.graph.actors()) {
            int field = actor.writes();
            String name = cx.graph.field(field).name();
            resultSlot.put(field, words);
            words += k * k;
            current.put(field, cx.local(name + "Lanes", v.vector));
            earlier.put(field, v.locals(name + "Back", v.vector, Math.max(v.mapping.deepest(field, 0), v.mapping.deepest(field, 1))));
            aboveEarlier.put(field, v.locals(name + "AboveBack", v.vector, v.mapping.deepest(field, 1)));
            int west = v.mapping.reads().getOrDefault(field, List.of()).stream()
                    .mapToInt(read -> read.stepsBack() - read.rowsUp()).max().orElse(0);
            westHalo.put(field, v.locals(name + "West", v.vector, west));
        }
        haloSlot = words;
        rotationSlot = words + k;
        scratch = cx.local("tileScratch", JType.arrayOf(v.lane));
        cx.prologue.add(new JStmt.Assign(scratch, new JExpr.NewArrayOfLength(v.lane, constant(rotationSlot + k * k))));
        // the rotations' index vectors, filled by a loop: as constants they would make the run method too big for C1
        JExpr column = new JExpr.Binary(Op.AND, sub(sub(lane, mul(stripRow, constant(k))), stripRow), constant(k - 1));
        cx.prologue.add(new JStmt.Loop(stripRow, constant(0), constant(k), constant(1), List.of(new JStmt.Loop(lane, mul(stripRow, constant(k)),
                mul(add(stripRow, constant(1)), constant(k)), constant(1), List.of(new JStmt.Store(scratch, add(lane, constant(rotationSlot)),
                        v.lane.equals(JType.INT) ? column : new JExpr.Convert(column, v.lane)))))));
    }

    /** Rows [rowFrom, rowTo) (a multiple of k) x the k columns from {@code columnFrom}, in strips of k rows. */
    public List<JStmt> strips(JExpr rowFrom, JExpr rowTo, JExpr columnFrom) {
        List<JStmt> strip = new ArrayList<>();
        strip.add(new JStmt.Assign(cx.coordinate[0], stripRow));
        strip.addAll(cx.rowBases());
        strip.add(new JStmt.Comment("the inputs, element by element into the scratch array: row r's column c to lane r of vector "
                + "(c + r) mod " + k + ", which holds lane r's column at steps c and c + " + k));
        v.inputReads().forEach((name, input) -> {
            JExpr slot = add(mul(new JExpr.Binary(Op.AND, add(step, lane), constant(k - 1)), constant(k)), add(lane, constant(inputSlot.get(name))));
            strip.add(new JStmt.Loop(lane, constant(0), constant(k), constant(1), List.of(new JStmt.Loop(step, constant(0), constant(k), constant(1),
                    List.of(new JStmt.Store(scratch, slot, new JExpr.ArrayLoad(cx.array[input.field()],
                            add(add(rowStart(input.field(), lane, columnFrom), step), cx.delta(input.field(), input.offset())))))))));
        });
        strip.add(new JStmt.Comment("the west halo, a vector per column west of the tile that a read reaches; lanes west of the tile take it"));
        westHalo.forEach((field, columns) -> {
            for (int q = 1; q <= columns.length; q++) {
                int west = q;
                strip.add(new JStmt.Loop(lane, constant(0), constant(k), constant(1), List.of(new JStmt.Store(scratch, add(lane, constant(haloSlot)),
                        new JExpr.ArrayLoad(cx.array[field], rowStart(field, lane, add(columnFrom, constant(-west))))))));
                strip.add(new JStmt.Assign(columns[q - 1], new JExpr.VectorLoad(v.species, scratch, constant(haloSlot))));
            }
        });
        strip.add(new JStmt.Comment("the step vectors before step 0, and those shifted up one lane"));
        earlier.forEach((field, back) -> {
            for (int b = 1; b <= back.length; b++) {
                strip.add(new JStmt.Assign(back[b - 1], withWestHalo(field, constant(-b), v.broadcastInt(constant(0)))));
            }
        });
        aboveEarlier.forEach((field, back) -> {
            for (int b = 2; b <= back.length; b++) {
                strip.add(new JStmt.Assign(back[b - 1], shiftedUp(field, earlier.get(field)[b - 1], columnFrom, constant(1 - b))));
            }
        });
        strip.add(new JStmt.Comment((2 * k - 1) + " steps; at step t lane r computes column t - r"));
        strip.add(new JStmt.Loop(step, constant(0), constant(2 * k - 1), constant(1), stepBody(columnFrom)));
        strip.add(new JStmt.Comment("the results: vector i holds lanes r <= i of step i and the others of step " + k
                + " + i; transposed, and each row rotated back"));
        resultSlot.forEach((field, slot) -> {
            for (int i = 0; i < k; i++) {
                strip.add(new JStmt.Assign(outputRows[i], new JExpr.VectorLoad(v.species, scratch, constant(slot + i * k))));
            }
            strip.addAll(v.transpose(outputRows, v.scratchA));
            for (int r = 0; r < k; r++) {
                JExpr row = r == 0 ? v.scratchA[r] : new JExpr.Permute(rotation(k - r), v.scratchA[r], v.scratchA[r]);
                strip.add(new JStmt.VectorStore(row, cx.array[field], rowStart(field, constant(r), columnFrom)));
            }
        });
        return List.of(new JStmt.Comment("strips of " + k + " rows in " + k + " lanes, lane r one column behind lane r - 1, so the cells of "
                        + "one step do not depend on each other"),
                new JStmt.Loop(stripRow, rowFrom, rowTo, constant(k), strip));
    }

    /** One step: the vectors shifted up, every actor's vector (the west halo in lanes west of the tile), kept for the results. */
    private List<JStmt> stepBody(JExpr columnFrom) {
        List<JStmt> out = new ArrayList<>();
        aboveEarlier.forEach((field, back) -> {
            if (back.length > 0) {
                out.add(new JStmt.Assign(back[0], shiftedUp(field, earlier.get(field)[0], columnFrom,
                        LoweringContext.math("min", JType.INT, step, constant(k - 1)))));
            }
        });
        inputValue.forEach((name, local) -> out.add(new JStmt.Assign(local, new JExpr.VectorLoad(v.species, scratch,
                add(mul(new JExpr.Binary(Op.AND, step, constant(k - 1)), constant(k)), constant(inputSlot.get(name)))))));
        for (int actor : cx.graph.actorOrder()) {
            IrActor spec = cx.graph.actor(actor);
            int field = spec.writes();
            JExpr value = LaneExpressions.lower(spec.body(), this::read,
                    dimension -> v.indexVector(dimension, stripRow, add(columnFrom, step)), v::uniform);
            out.add(new JStmt.Assign(current.get(field), withWestHalo(field, step, value)));
            // the lanes inside the tile, into the vector of the results that holds their columns (step t mod k)
            out.add(new JStmt.MaskedVectorStore(current.get(field), scratch,
                    add(mul(new JExpr.Binary(Op.AND, step, constant(k - 1)), constant(k)), constant(resultSlot.get(field))), insideTile()));
        }
        current.forEach((field, value) -> {
            JExpr.Local[] back = earlier.get(field);
            JExpr.Local[] above = aboveEarlier.get(field);
            for (int b = above.length; b >= 2; b--) {
                out.add(new JStmt.Assign(above[b - 1], above[b - 2]));
            }
            for (int b = back.length; b >= 2; b--) {
                out.add(new JStmt.Assign(back[b - 1], back[b - 2]));
            }
            if (back.length > 0) {
                out.add(new JStmt.Assign(back[0], value));
            }
        });
        return out;
    }

    /** The index vector that rotates a vector r lanes up (lane c takes lane (c - r) mod k). */
    private JExpr rotation(int r) {
        return new JExpr.VectorLoad(v.species, scratch, constant(rotationSlot + r * k));
    }

    /** The lanes whose column at this step, step - r, lies inside the tile: r <= step and r > step - k. */
    private JExpr insideTile() {
        return new JExpr.Lanewise(JExpr.LaneOp.AND, new JExpr.LaneCompare(Op.LE, laneIndex, v.broadcastInt(step)),
                new JExpr.LaneCompare(Op.GT, laneIndex, v.broadcastInt(sub(step, constant(k)))));
    }

    /** The storage index of row r of the strip at column {@code column}. */
    private JExpr rowStart(int field, JExpr r, JExpr column) {
        return add(add(cx.rowBase[field], r instanceof JExpr.Const c && c.integral() == 0 ? constant(0) : mul(r, cx.stride[field][0])), column);
    }

    /**
     * {@code vector} (the field's at some step u) shifted up one lane, lane 0 taking the row above the strip at the
     * column lane 0 reaches at step u + 1 ({@code column}; past the tile only throwaway lanes read it, so it is clamped).
     */
    private JExpr shiftedUp(int field, JExpr vector, JExpr columnFrom, JExpr column) {
        return v.shiftedUp(vector, new JExpr.ArrayLoad(cx.array[field], add(sub(cx.rowBase[field], cx.stride[field][0]), add(columnFrom, column))));
    }

    /** {@code value} with the lanes whose column at step {@code at} lies west of the tile, where reads reach, from the halo. */
    private JExpr withWestHalo(int field, JExpr at, JExpr value) {
        JExpr.Local[] columns = westHalo.get(field);
        JExpr out = value;
        for (int q = 1; q <= columns.length; q++) {
            // lane at + q is q columns west of the tile at this step; no lane matches once at + q reaches k
            out = new JExpr.Blend(new JExpr.LaneCompare(Op.EQ, laneIndex, v.broadcastInt(add(at, constant(q)))), columns[q - 1], out);
        }
        return out;
    }

    /** A read's vector at the current step. */
    private JExpr read(IrExpr.Load load) {
        if (cx.graph.field(load.field()).isInput()) {
            return inputValue.get(v.accessKey(load.field(), load.offset()));
        }
        StripMapping.StateRead source = v.mapping.stateRead(load.offset());
        if (source.stepsBack() == 0) {
            return current.get(load.field());
        }
        return (source.rowsUp() == 0 ? earlier : aboveEarlier).get(load.field())[source.stepsBack() - 1];
    }
}
