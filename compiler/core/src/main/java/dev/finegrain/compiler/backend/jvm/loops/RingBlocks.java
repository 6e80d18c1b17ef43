package dev.finegrain.compiler.backend.jvm.loops;

import dev.finegrain.compiler.backend.jvm.code.JExpr;
import dev.finegrain.compiler.backend.jvm.code.JExpr.Binary.Op;
import dev.finegrain.compiler.backend.jvm.code.JStmt;
import dev.finegrain.compiler.backend.jvm.code.JType;
import dev.finegrain.compiler.backend.jvm.lanes.StripedRows;
import dev.finegrain.compiler.backend.jvm.lowering.LoweringContext;
import dev.finegrain.compiler.backend.jvm.tokens.RingCounterTokens;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.plan.DataflowPlan;
import dev.finegrain.compiler.plan.RingFolding;
import dev.finegrain.dsl.ReductionSpec;
import dev.finegrain.dsl.Type;
import dev.finegrain.runtime.jvm.RingCounters;
import dev.finegrain.runtime.jvm.StreamedReductions;

import java.util.ArrayList;
import java.util.List;

import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.add;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.constant;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.mul;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.sub;

/**
 * Spsc-ring's statements around a unit of a lock-dataflow class, set up before anything is lowered (the folded fields'
 * slots, {@link LoweringContext#foldIntoRing}). 1D, a block of instances dealt to the workers in turn: before it, the
 * blocks its reads and channels reach ({@link RingFolding#dataReach}) and, where a field is folded, every block that
 * reads a value the block's writes overwrite; after it, the block counted finished. 2D, a row of a worker's band: before
 * it, the rows of the neighbouring bands its reads reach and, where a field is folded, every band's rows that read the
 * row it overwrites, then the folded fields' halo columns of the new row; after it, the row counted finished.
 */
final class RingBlocks {

    private final LoweringContext cx;
    private final RingFolding folding;
    private final RingCounterTokens counters;
    private final int firstTokenChannel;
    private final DataflowPlan plan;

    RingBlocks(LoweringContext cx, DataflowPlan plan) {
        this.cx = cx;
        this.plan = plan;
        this.folding = RingFolding.of(plan).rings().orElseThrow(() -> new IllegalStateException(
                "the resolver refuses spsc-ring where its rings cannot hold the plan: " + RingFolding.of(plan).refusal().orElse("")));
        this.counters = (RingCounterTokens) cx.sync.tokens();
        int first = -1;
        for (int c = 0; c < plan.waits().size() && first < 0; c++) {
            if (cx.sync.arrayOfChannel().get(c) >= 0) {
                first = c;
            }
        }
        this.firstTokenChannel = Math.max(first, 0);
        for (int field : folding.folded()) {
            cx.foldIntoRing(field, folding.capacity());
        }
    }

    RingFolding folding() {
        return folding;
    }

    /** Before block {@code block}: the data it reads, then the space it writes. */
    List<JStmt> before(JExpr.Local block) {
        List<JStmt> out = new ArrayList<>();
        JExpr words = cx.syncArray[0];
        JExpr first = mul(block, constant(folding.block()));
        if (folding.dataReach() > 0) {
            out.add(new JStmt.Comment("the blocks this block's reads reach, finished"));
        }
        for (int back = 1; back <= folding.dataReach(); back++) {
            out.add(counters.awaitBlock(words, sub(block, constant(back)), cx.workers, cx.watchdog, constant(firstTokenChannel),
                    first, mul(sub(block, constant(back)), constant(folding.block()))));
        }
        if (!folding.folded().isEmpty()) {
            // RingFolding.lastReaderBefore(block): every block up to the last reader of the values these slots held
            JExpr lastReader = LoweringContext.math("floorDiv", JType.INT, add(first, constant(folding.spaceOffset())),
                    constant(folding.block()));
            out.add(new JStmt.Comment("back-pressure: the blocks that read the slots this block overwrites, finished"));
            out.add(counters.awaitBlocksThrough(words, lastReader, cx.workers, cx.watchdog, first, constant(folding.block())));
        }
        return out;
    }

    /**
     * 2D, before the current row of the band [bandStart, bandEnd) ({@code band} columns wide): the rows its reads reach
     * in the bands west and east of it, the space its folded rows take, and their halo columns.
     */
    List<JStmt> beforeRow(JExpr band, JExpr bandStart, JExpr bandEnd) {
        List<JStmt> out = new ArrayList<>();
        JExpr words = cx.syncArray[0];
        JExpr row = cx.coordinate[0];
        JExpr consumer = point(row, bandStart);
        for (int side : new int[] {1, -1}) {
            int minRows = Integer.MAX_VALUE;
            int columns = 0;
            int channel = -1;
            for (int c = 0; c < plan.waits().size(); c++) {
                int[] v = plan.waits().get(c).vector();
                if (cx.sync.arrayOfChannel().get(c) >= 0 && Integer.signum(v[cx.last]) == side) {
                    minRows = Math.min(minRows, v[0]);
                    columns = Math.max(columns, Math.abs(v[cx.last]));
                    channel = channel < 0 ? c : channel;
                }
            }
            if (channel < 0) {
                continue;
            }
            JExpr bands = LoweringContext.math("ceilDiv", JType.INT, constant(columns), band);
            JExpr rows = add(sub(row, constant(minRows)), constant(1));
            JExpr producer = point(sub(rows, constant(1)), side > 0 ? sub(bandStart, constant(1)) : bandEnd);
            out.add(new JStmt.Comment("the rows " + (side > 0 ? "west" : "east") + " of the band that this row reads, finished"));
            out.add(counters.awaitRows(words, side > 0 ? sub(cx.worker, bands) : add(cx.worker, constant(1)),
                    side > 0 ? sub(cx.worker, constant(1)) : add(cx.worker, bands), rows, cx.workers, cx.watchdog, constant(channel),
                    consumer, producer));
        }
        if (!folding.folded().isEmpty()) {
            // RingFolding.lastReaderBefore(row) + 1 rows: with blocks of one row, floorDiv by 1 is the identity
            JExpr rows = add(row, constant(folding.spaceOffset() + 1));
            out.add(new JStmt.Comment("back-pressure: every band's rows that read the row this one overwrites, finished"));
            out.add(counters.awaitRows(words, constant(0), sub(cx.workers, constant(1)), rows, cx.workers, cx.watchdog,
                    constant(RingCounters.SPACE_CHANNEL), consumer, point(sub(rows, constant(1)), constant(0))));
            out.addAll(haloColumns(bandStart, bandEnd));
        }
        return out;
    }

    /** The row-major number of the point at {@code row}, {@code column}, a long: a folded 2D run may have more than an int holds. */
    private JExpr point(JExpr row, JExpr column) {
        return new JExpr.Binary(Op.ADD, new JExpr.Binary(Op.MUL, new JExpr.Convert(row, JType.LONG),
                new JExpr.Convert(cx.size[cx.last], JType.LONG)), new JExpr.Convert(column, JType.LONG));
    }

    /**
     * A folded row's slot held an older row: its halo columns take this row's boundary values, written by the band that
     * owns the first column (the low halo) and the one that owns the last (the high halo), before anything reads them.
     */
    private List<JStmt> haloColumns(JExpr bandStart, JExpr bandEnd) {
        List<JStmt> low = new ArrayList<>();
        List<JStmt> high = new ArrayList<>();
        JExpr.Local x = cx.coordinate[cx.last];
        for (int f : folding.folded()) {
            IrField field = cx.graph.field(f);
            for (int c = -field.haloLow()[cx.last]; c < 0; c++) {
                low.add(new JStmt.Assign(x, constant(c)));
                low.addAll(boundaryStore(field));
            }
            for (int c = 0; c < field.haloHigh()[cx.last]; c++) {
                high.add(new JStmt.Assign(x, add(cx.size[cx.last], constant(c))));
                high.addAll(boundaryStore(field));
            }
        }
        List<JStmt> out = new ArrayList<>();
        if (!low.isEmpty()) {
            out.add(new JStmt.Comment("the folded row's halo columns before the first column, from the boundary"));
            out.add(new JStmt.If(LoweringContext.compare(dev.finegrain.compiler.backend.jvm.code.JExpr.Binary.Op.EQ, bandStart,
                    constant(0)), low, List.of()));
        }
        if (!high.isEmpty()) {
            // only the band that owns the last column: a band left empty (more workers than columns) ends there too
            out.add(new JStmt.Comment("the folded row's halo columns after the last column, from the boundary"));
            out.add(new JStmt.If(new JExpr.Binary(dev.finegrain.compiler.backend.jvm.code.JExpr.Binary.Op.AND,
                    LoweringContext.compare(dev.finegrain.compiler.backend.jvm.code.JExpr.Binary.Op.LT, bandStart, bandEnd),
                    LoweringContext.compare(dev.finegrain.compiler.backend.jvm.code.JExpr.Binary.Op.EQ, bandEnd, cx.size[cx.last])),
                    high, List.of()));
        }
        return out;
    }

    /** Stores field {@code field}'s boundary value at the current point (a halo point): its expression, or its input's value. */
    private List<JStmt> boundaryStore(IrField field) {
        List<JStmt> out = new ArrayList<>();
        JExpr value;
        if (field.boundary() != null) {
            dev.finegrain.compiler.ir.IrActor writer = cx.graph.actors().stream().filter(a -> a.writes() == field.id())
                    .findFirst().orElseThrow();
            value = cx.actors.lower(writer, field.boundary(), out);
        } else if (field.boundaryInput() != IrField.NO_INPUT) {
            value = cx.value(field.boundaryInput(), cx.index(field.boundaryInput(), new int[cx.rank]));
        } else {
            return out;
        }
        JType element = cx.storageType(field).element();
        if (field.type() == Type.BOOL && value.type().equals(JType.BOOLEAN)) {
            value = new JExpr.Convert(value, JType.INT);
        }
        out.add(new JStmt.Store(cx.array[field.id()], cx.index(field.id(), new int[cx.rank]),
                value.type().equals(element) ? value : new JExpr.Convert(value, element)));
        return out;
    }

    /** 2D, after the current row: counted finished, so its readers and the writers of its slots may go on. */
    List<JStmt> afterRow(JExpr bandStart, JExpr bandEnd) {
        List<JStmt> out = new ArrayList<>();
        JExpr firstPoint = point(cx.coordinate[0], bandStart);
        // a 2D ring's row is whole: the band's values are consecutive from the row base, no wrap (mask -1)
        out.addAll(reduce(field -> add(cx.rowBase[field], bandStart), constant(-1), sub(bandEnd, bandStart), firstPoint));
        out.add(counters.finishRows(cx.syncArray[0], cx.worker, add(cx.coordinate[0], constant(1))));
        return out;
    }

    /**
     * 2D, after the current row of a band whose rows lie striped ({@link StripedRows}): its values reduced from the
     * striped row, where its ring row holds only the band's last column, then counted finished.
     */
    List<JStmt> afterStripedRow(JExpr bandStart, StripedRows.Layout layout) {
        List<JStmt> out = new ArrayList<>(stream("StripedReductions", "this worker's striped row", field -> {
            if (field.id() != layout.field()) {
                throw new IllegalStateException("a striped row holds field " + layout.field() + ", not " + field.name());
            }
            return List.of(layout.values(), constant(layout.lanes()), layout.segments(), layout.columns());
        }, point(cx.coordinate[0], bandStart)));
        out.add(counters.finishRows(cx.syncArray[0], cx.worker, add(cx.coordinate[0], constant(1))));
        return out;
    }

    private static int kind(ReductionSpec reduction) {
        return switch (reduction.reduction()) {
            case SUM -> StreamedReductions.SUM;
            case MAX -> StreamedReductions.MAX;
            case MIN -> StreamedReductions.MIN;
        };
    }

    /** After block {@code block} (its instances up to {@code end}): reduced, then counted finished. */
    List<JStmt> after(JExpr.Local block, JExpr end) {
        List<JStmt> out = new ArrayList<>(reduceBlock(block, end));
        out.add(counters.finish(cx.syncArray[0], block, cx.workers));
        return out;
    }

    /**
     * The streamed reductions of block {@code block}'s values, before anything may overwrite their slots; where blocks
     * are not counted (a chain, which one worker runs whole), after each block all the same.
     */
    List<JStmt> reduceBlock(JExpr.Local block, JExpr end) {
        if (folding.streamed(cx.graph).isEmpty()) {
            return List.of();
        }
        List<JStmt> out = new ArrayList<>();
        JExpr first = mul(block, constant(folding.block()));
        // the first instance's slot: its index in the ring, as a read at offset 0 of that instance finds it
        out.add(new JStmt.Assign(cx.coordinate[0], first));
        out.addAll(reduce(field -> cx.index(field, new int[] {0}), null, sub(end, first), new JExpr.Convert(first, JType.LONG)));
        return out;
    }

    /**
     * Each streamed reduction fed the {@code count} values from {@code first(field)} in its folded field's ring
     * ({@code mask}: the ring's, or -1 where they cannot wrap), whose points are {@code firstPoint} on, into the
     * reduction's two words of this worker's counter line ({@link RingFolding#streamed}).
     */
    private List<JStmt> reduce(java.util.function.IntFunction<JExpr> first, JExpr mask, JExpr count, JExpr firstPoint) {
        return stream("StreamedReductions", "this worker's values just finished", field -> List.of(cx.array[field.id()],
                mask != null ? mask : constant(cx.ringMask(field.id())), first.apply(field.id()), count), firstPoint);
    }

    /**
     * Each streamed reduction's call of {@code owner}'s {@code ofInts} or {@code ofLongs}: {@code values} gives a field's
     * array and the three ints that say where its values lie, then come the first point, the kind and the reduction's two
     * words in this worker's counter line ({@link RingFolding#streamed}).
     */
    private List<JStmt> stream(String owner, String whose, java.util.function.Function<IrField, List<JExpr>> values, JExpr firstPoint) {
        List<JStmt> out = new ArrayList<>();
        List<ReductionSpec> streamed = folding.streamed(cx.graph);
        for (int k = 0; k < streamed.size(); k++) {
            ReductionSpec reduction = streamed.get(k);
            IrField field = cx.graph.field(reduction.field());
            boolean ints = field.type() == Type.INT;
            JExpr at = add(mul(cx.worker, constant(RingCounters.STRIDE)), constant(RingFolding.streamedWord(k)));
            List<JExpr> arguments = new ArrayList<>(values.apply(field));
            arguments.addAll(List.of(firstPoint, constant(kind(reduction)), cx.syncArray[0], at));
            out.add(new JStmt.Comment("stream " + reduction.name() + ": " + whose + ", into its counter line"));
            out.add(new JStmt.Evaluate(LoweringContext.runtime(owner, ints ? "ofInts" : "ofLongs", JType.VOID,
                    List.of(ints ? JType.arrayOf(JType.INT) : JType.arrayOf(JType.LONG), JType.INT, JType.INT, JType.INT, JType.LONG,
                            JType.INT, JType.arrayOf(JType.LONG), JType.INT), arguments.toArray(JExpr[]::new))));
        }
        return out;
    }
}
