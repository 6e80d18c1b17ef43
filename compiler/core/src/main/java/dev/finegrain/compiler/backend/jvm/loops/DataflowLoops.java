package dev.finegrain.compiler.backend.jvm.loops;

import dev.finegrain.compiler.backend.jvm.code.JClass;
import dev.finegrain.compiler.backend.jvm.code.JExpr.Binary.Op;
import dev.finegrain.compiler.backend.jvm.code.JExpr;
import dev.finegrain.compiler.backend.jvm.code.JStmt;
import dev.finegrain.compiler.backend.jvm.code.JType;
import dev.finegrain.compiler.backend.jvm.lanes.BandRows;
import dev.finegrain.compiler.backend.jvm.lanes.LaneStrips;
import dev.finegrain.compiler.backend.jvm.lanes.LaneVectors;
import dev.finegrain.compiler.backend.jvm.lanes.RowScanBands;
import dev.finegrain.compiler.backend.jvm.lanes.StripedRows;
import dev.finegrain.compiler.backend.jvm.lanes.WestMaxRecurrence;
import dev.finegrain.compiler.backend.jvm.layout.AlignedStorage;
import dev.finegrain.compiler.backend.jvm.layout.SyncLayout;
import dev.finegrain.compiler.backend.jvm.layout.VectorWidth;
import dev.finegrain.compiler.backend.jvm.lowering.LoweringContext;
import dev.finegrain.compiler.ir.IrActor;
import dev.finegrain.compiler.ir.IrChannel;
import dev.finegrain.compiler.plan.DataflowPlan;
import dev.finegrain.compiler.plan.RingFolding;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.add;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.compare;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.constant;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.sub;

/**
 * Lock-based dataflow on threads: actor instances are mapped to workers statically and each worker fires its
 * instances in lexicographic order, awaiting a channel's token only when the producer belongs to another worker
 * (program order already covers its own), and publishing tokens that another worker may await.
 *
 * <p>Rank 2 and 3: worker w owns a band of columns (the last dimension) across all rows, so only channels that
 * cross a band edge need tokens; a worker follows its western neighbour one row behind, and the score rows, the
 * long streams the kernel is bound by, stay in one core's cache. Only the few columns at a band's edges await or
 * publish; the rest of each row runs as a plain loop. Rank 1: blocks, see {@link #blockSize}.
 *
 * <p>With lanes, a band's rows run as row scans where the kernel's value is a max-plus recurrence along the row
 * ({@link RowScanBands}, storage in band blocks; {@link StripedRows}, in the band's own striped rows, where spsc-ring
 * folds the field), else in strips ({@link LaneStrips}); the tokens' statements are
 * {@link DataflowTokens}'.
 */
public final class DataflowLoops {

    private final LoweringContext cx;
    private final List<IrChannel> waits;
    private final int blockSize;
    /** A chain's instances dealt to workers in turn, rather than all run by worker 0 (the schedule's choice). */
    private final boolean interleaved;
    private final DataflowTokens tokens;
    /** Spsc-ring's blocks and rings, where the mechanism counts blocks ({@link RingBlocks}); else null. */
    private final RingBlocks rings;
    private JExpr.Local groupsPerRow;
    private JExpr.Local band;
    private JExpr.Local bandStart;
    private JExpr.Local bandEnd;

    private DataflowLoops(LoweringContext cx, DataflowPlan plan) {
        this.cx = cx;
        this.waits = plan.waits();
        this.rings = cx.sync.countsBlocks() ? new RingBlocks(cx, plan) : null;
        this.blockSize = rings != null ? rings.folding().block() : blockSize(cx, waits, plan.lockChoices().groupSize());
        this.interleaved = plan.interleaved();
        this.tokens = new DataflowTokens(cx, waits, blockSize);
    }

    /**
     * Rank 1: a worker owns blocks of consecutive instances. With per-instance tokens a block is as long as the
     * shortest dependence distance, so no instance of a block waits for another one of the same block and
     * consecutive blocks alternate between workers (the chain's 32, seed 003's element-by-element 1). With group
     * tokens a block is one group, because a group is published by the worker that computed all of it.
     */
    private static int blockSize(LoweringContext cx, List<IrChannel> waits, int groupSize) {
        if (cx.sync.group() > 1) {
            return cx.sync.group();
        }
        return waits.stream().filter(cx::needsToken).mapToInt(w -> Math.abs(w.vector()[0])).min()
                .orElse(groupSize);
    }

    public static JClass lower(String className, DataflowPlan plan, SyncLayout layout, VectorWidth width) {
        LoweringContext cx = new LoweringContext(plan.graph(), layout, width);
        DataflowLoops loops = new DataflowLoops(cx, plan);
        Optional<String> notScan = RowScanBands.against(plan.graph());
        LaneVectors.Choice scanLanes = notScan.isPresent() ? null : LaneVectors.choose(cx, width, true, true,
                (k, skew) -> loops.rowScanAgainst());
        List<JStmt> body;
        String summary;
        if (scanLanes != null && scanLanes.lanes().isPresent()) {
            Optional<RingFolding> folding = Optional.ofNullable(loops.rings).map(RingBlocks::folding);
            Optional<String> notStriped = StripedRows.against(plan.graph(), folding, layout.mechanism().cliName());
            BandRows rows = notStriped.isEmpty() ? new StripedRows(scanLanes.lanes().get()) : new RowScanBands(scanLanes.lanes().get());
            if (loops.bandBlocks()) {
                // each band's rows are a block of their own, its first column on a line where the storage is aligned
                cx.layout.alignRowsInBands(scanLanes.lanes().get().k, cx.sync.group());
            }
            body = loops.body(Optional.empty(), Optional.of(rows));
            // why not striped, where it could matter: spsc-ring's rings, or a field the kernel keeps in part
            summary = scanLanes.lanes().get().lanesSummary() + rows.summary() + (folding.isPresent() || StripedRows.keptInPart(plan.graph())
                    ? notStriped.map(reason -> " Not striped: " + reason + ".").orElse("") : "");
        } else {
            LaneStrips.Choice lanes = LaneStrips.choose(cx, width, (k, skew) -> loops.stripsAgainst());
            // a band's strips run across whole rows, so their blocks can start on aligned columns
            lanes.strips().ifPresent(strips -> cx.layout.alignRows(strips.skew(), strips.lanes()));
            body = loops.body(lanes.strips(), Optional.empty());
            // a kernel of a row scan's shape whose lanes were refused: that refusal says why, not the strips'
            Optional<String> whyNoScan = notScan.or(() -> Optional.ofNullable(scanLanes).flatMap(LaneVectors.Choice::refusal));
            summary = (lanes.strips().isEmpty() && scanLanes != null ? scanLanes.summary() : lanes.summary())
                    + whyNoScan.filter(reason -> lanes.strips().isPresent() && plan.graph().rank() == 2)
                    .map(reason -> " No row scan: " + reason + ".").orElse("");
        }
        List<JStmt> run = new ArrayList<>(cx.prologue);
        run.addAll(body);
        return new JClass(className, List.of(LoweringContext.RUNTIME + "TeamTask"),
                "Lock-based dataflow of kernel " + plan.graph().name() + " with " + layout.mechanism().cliName()
                        + " tokens; generated by Finegrain.\n" + summary + "\n" + mutexLine(plan, layout)
                        + (loops.rings == null ? "" : loops.rings.folding().describe(plan.graph()) + ".\n"), cx.bindings, cx.runLocals(run), run, cx.helpers, cx.layout.rows());
    }

    /** For a mechanism that holds a lock, which mutex takes it and why; else nothing. */
    private static String mutexLine(DataflowPlan plan, SyncLayout layout) {
        if (!dev.finegrain.compiler.backend.jvm.tokens.JvmTokens.of(layout.mechanism()).map(t -> t.holdsALock()).orElse(false)) {
            return "";
        }
        return "Mutex: " + layout.mutex().cliName() + " (" + (plan.lockChoices().mutex().isPresent() ? "named by the schedule"
                : "the JVM's default") + ").\n";
    }

    /** Why a band's rows cannot run in vectors: a vector store would overwrite packed ready bits. */
    private Optional<String> packedAgainst() {
        return cx.sync.packed() ? Optional.of("tiny-lock keeps a ready bit in every data word, which whole-vector stores would not set")
                : Optional.empty();
    }

    /**
     * Whether a row scan's rows lie in band blocks (each band's rows a block of their own, its first column on a line):
     * unless spsc-ring folds a field, whose rows then wrap in a ring of whole rows, every field's rows dense beside it.
     */
    private boolean bandBlocks() {
        return rings == null || rings.folding().folded().isEmpty();
    }

    /** Why a band's rows cannot run as row scans: {@link #packedAgainst}, or a token from the east, which a row would await only after it. */
    private Optional<String> rowScanAgainst() {
        return packedAgainst().or(() -> eastChannel().map(channel -> "channel " + channel.via()
                + " takes tokens from the band to the east, and a band's row scan awaits its tokens before the row, from the west"));
    }

    private Optional<IrChannel> eastChannel() {
        return waits.stream().filter(cx::needsToken).filter(w -> w.vector()[cx.last] < 0).findFirst();
    }

    /**
     * Why a band cannot run in strips, if it cannot: strips await a band edge's tokens before a strip and publish them
     * after it, which needs every token to come from the west; and a vector store would overwrite packed ready bits.
     */
    private Optional<String> stripsAgainst() {
        if (rings != null) {
            return Optional.of("spsc-ring awaits and counts whole rows, and a strip steps its lanes across several rows at once");
        }
        return packedAgainst().or(() -> eastChannel().map(channel -> "channel " + channel.via()
                + " takes tokens from the band to the east, and a strip waits for a whole strip of them"));
    }

    private List<JStmt> body(Optional<LaneStrips> strips, Optional<BandRows> bandRows) {
        List<JStmt> out = new ArrayList<>();
        int last = cx.last;
        if (cx.sync.group() > 1) {
            groupsPerRow = cx.local("groupsPerRow", JType.INT);
            tokens.groupsPerRow(groupsPerRow);
            out.add(new JStmt.Assign(groupsPerRow, LoweringContext.math("ceilDiv", JType.INT, cx.size[last], constant(cx.sync.group()))));
        }
        if (cx.rank > 1) {
            out.addAll(bands());
        }
        if (bandRows.isPresent() && bandBlocks()) {
            out.addAll(cx.layout.blockOrigins(cx.worker, bandStart));
        }
        // a west value crosses a band's edge only in the synced columns, where it is read after its token; with no
        // token channel along a row (edge 0) nothing is read west, and a band must not seed from its neighbour's column
        boolean carry = cx.rank > 1 && edgeWidth() > 0;
        if (carry) {
            cx.carries.carryWestReads();
        }
        List<JStmt> synced = new ArrayList<>();
        List<JStmt> plain = new ArrayList<>();
        for (int actor : cx.graph.actorOrder()) {
            IrActor spec = cx.graph.actor(actor);
            List<JStmt> awaits = tokens.awaits(actor);
            List<JStmt> folds = new ArrayList<>();
            JExpr value = cx.actors.lower(spec, spec.body(), folds);
            List<JStmt> fire = new ArrayList<>(folds);
            cx.actors.store(spec, value, fire);
            synced.add(cx.actors.describe(spec));
            if (!folds.isEmpty() && !awaits.isEmpty() && cx.actors.foldsReadNoState(spec.body())) {
                synced.add(new JStmt.Comment("the independent work first: these folds read no state, so they need no token"));
                synced.addAll(folds);
                synced.addAll(awaits);
                synced.addAll(fire.subList(folds.size(), fire.size()));
            } else {
                synced.addAll(awaits);
                synced.addAll(fire);
            }
            synced.addAll(tokens.publish(spec));
            if (carry) {
                // the plain middle of a band reads its west neighbour from the carried local, not from memory
                cx.carries.readFromLocals(true);
                cx.actors.fire(spec, plain);
                cx.carries.readFromLocals(false);
            } else {
                plain.add(cx.actors.describe(spec));
                plain.addAll(fire);
            }
        }
        synced.addAll(cx.carries.advance());
        plain.addAll(cx.carries.advance());
        List<JStmt> row = new ArrayList<>(cx.rowBases());
        if (cx.rank == 1) {
            JExpr.Local units = cx.local("blocks", JType.INT);
            JExpr.Local block = cx.local("block", JType.INT);
            JExpr.Local end = cx.local("blockEnd", JType.INT);
            boolean chain = cx.sync.group() == 1 && !interleaved
                    && waits.stream().filter(cx::needsToken).anyMatch(wait -> Math.abs(wait.vector()[0]) == 1);
            out.add(new JStmt.Comment(chain
                    ? "a chain: every instance waits for the one before it, so worker 0 runs them all; dealt in turn, each"
                            + " instance would hand its token to another core and wait for it back"
                    : "blocks of " + blockSize + " consecutive instances, dealt to workers in turn"));
            out.add(new JStmt.Assign(units, LoweringContext.math("ceilDiv", JType.INT, cx.size[0], constant(blockSize))));
            List<JStmt> perBlock = new ArrayList<>(row);
            perBlock.add(new JStmt.Assign(end, LoweringContext.math("min", JType.INT, cx.size[0],
                    add(LoweringContext.mul(block, constant(blockSize)), constant(blockSize)))));
            JStmt points = new JStmt.Loop(cx.coordinate[0], LoweringContext.mul(block, constant(blockSize)), end, constant(1), synced);
            if (rings != null && !chain) {
                perBlock.addAll(rings.before(block));
                perBlock.add(points);
                perBlock.addAll(rings.after(block, end));
            } else {
                perBlock.add(points);
                if (rings != null) {
                    perBlock.addAll(rings.reduceBlock(block, end));
                }
            }
            out.add(chain ? new JStmt.Loop(block, LoweringContext.mul(cx.worker, units), units, constant(1), perBlock)
                    : new JStmt.Loop(block, cx.worker, units, cx.workers, perBlock));
            return out;
        }
        JExpr.Local x = cx.coordinate[last];
        JExpr.Local prefixEnd = cx.local("prefixEnd", JType.INT);
        int edge = edgeWidth();
        RowScanBands.Plain points = (from, to) -> {
            List<JStmt> run = new ArrayList<>(cx.carries.seed(from));
            run.add(new JStmt.Loop(x, from, to, constant(1), plain));
            return run;
        };
        if (rings != null && bandRows.isEmpty()) {
            out.add(new JStmt.Comment("spsc-ring: each row of the band awaits its neighbours' rows, runs whole, and counts itself"));
            row.addAll(rings.beforeRow(band, bandStart, bandEnd));
            row.addAll(points.points(bandStart, bandEnd));
            row.addAll(rings.afterRow(bandStart, bandEnd));
        } else if (bandRows.isPresent()) {
            out.add(new JStmt.Comment(rings != null ? "spsc-ring: each row scan awaits its neighbours' rows and counts itself"
                    : "the first and last " + edge + " column(s) of a band await and publish tokens, before and after each row"));
            out.add(new JStmt.Assign(prefixEnd, LoweringContext.math("min", JType.INT, add(bandStart, constant(edge)), bandEnd)));
            out.addAll(bandRows.get().columns(bandStart, bandEnd));
            row.addAll(bandRow(bandRows.get(), prefixEnd, edge, points));
        } else {
            out.add(new JStmt.Comment(edge == 0 ? "no token channel crosses a column, so no point awaits or publishes"
                    : "only the first and last " + edge + " column(s) of a band await or publish tokens; the rest run plain"));
            out.add(new JStmt.Assign(prefixEnd, LoweringContext.math("min", JType.INT, add(bandStart, constant(edge)), bandEnd)));
            JExpr.Local suffixStart = cx.local("suffixStart", JType.INT);
            out.add(new JStmt.Assign(suffixStart, LoweringContext.math("max", JType.INT, sub(bandEnd, constant(edge)), prefixEnd)));
            row.add(new JStmt.Loop(x, bandStart, prefixEnd, constant(1), synced));
            row.addAll(points.points(prefixEnd, suffixStart));
            row.add(new JStmt.Loop(x, suffixStart, bandEnd, constant(1), synced));
        }
        if (strips.isPresent() && cx.rank == 2) {
            out.addAll(strips(strips.get(), prefixEnd, edge));
            out.add(new JStmt.Comment("the rows after the last whole strip, one by one"));
            out.add(new JStmt.Loop(cx.coordinate[0], strips.get().stripsEnd(), cx.size[0], constant(1), row));
            return out;
        }
        List<JStmt> nest = row;
        for (int d = last - 1; d >= 0; d--) {
            nest = List.of(new JStmt.Loop(cx.coordinate[d], constant(0), cx.size[d], constant(1), nest));
        }
        if (bandRows.isPresent() && bandBlocks()) {
            // a band with no columns has no block of storage, so its rows must not even read their west value; in a ring
            // it walks its rows all the same, counting each, since back-pressure waits for every band
            nest = List.of(new JStmt.If(compare(Op.LT, bandStart, bandEnd), nest, List.of()));
        }
        out.addAll(nest);
        return out;
    }

    /**
     * The band in strips: before a strip, every token its first {@code edge} columns await (so the strip reads its west
     * neighbour's values freely); after it, every token its last {@code edge} columns publish. A worker thus follows
     * its western neighbour one strip behind, with one hand-off per strip edge.
     */
    private List<JStmt> strips(LaneStrips strips, JExpr.Local prefixEnd, int edge) {
        List<JStmt> awaits = tokens.allAwaits();
        List<JStmt> publishes = tokens.allPublishes();
        List<JStmt> before = new ArrayList<>();
        List<JStmt> after = new ArrayList<>();
        if (edge > 0) {
            JExpr.Local publishFrom = cx.local("publishFrom", JType.INT);
            JExpr stripEnd = add(strips.stripRow(), constant(strips.lanes()));
            List<JStmt> awaitRow = new ArrayList<>(cx.rowBases());
            awaitRow.add(new JStmt.Loop(cx.coordinate[cx.last], bandStart, prefixEnd, constant(1), awaits));
            before.add(new JStmt.Comment("the tokens the strip's first " + edge + " column(s) await, all before the strip"));
            before.add(new JStmt.Loop(cx.coordinate[0], strips.stripRow(), stripEnd, constant(1), awaitRow));
            List<JStmt> publishRow = new ArrayList<>(cx.rowBases());
            publishRow.add(new JStmt.Loop(cx.coordinate[cx.last], publishFrom, bandEnd, constant(1), publishes));
            after.add(new JStmt.Comment("the tokens of the strip's last " + edge + " column(s), all after the strip"));
            after.add(new JStmt.Assign(publishFrom, LoweringContext.math("max", JType.INT, sub(bandEnd, constant(edge)), bandStart)));
            after.add(new JStmt.Loop(cx.coordinate[0], strips.stripRow(), stripEnd, constant(1), publishRow));
        }
        return strips.strips(constant(0), cx.size[0], bandStart, bandEnd, before, after);
    }

    /**
     * A band's row in lanes ({@link BandRows}): first every token its first {@code edge} column(s) await, and the value west of the
     * band (the last column of the band to the west, in that band's block) copied into this block's halo column, where
     * the row reads it; then the whole row in vectors from the band's first column, which band blocks start on a line;
     * then every token its last {@code edge} column(s) publish.
     */
    private List<JStmt> bandRow(BandRows rows, JExpr.Local prefixEnd, int edge, RowScanBands.Plain points) {
        JExpr.Local x = cx.coordinate[cx.last];
        List<JStmt> awaits = tokens.allAwaits();
        List<JStmt> publishes = tokens.allPublishes();
        List<JStmt> row = new ArrayList<>();
        if (rings != null) {
            // spsc-ring: the neighbours' rows before the row (a folded row's halo columns set), the row counted after it
            row.addAll(rings.beforeRow(band, bandStart, bandEnd));
        }
        if (edge > 0 && !awaits.isEmpty()) {
            row.add(new JStmt.Comment("the tokens the row's first " + edge + " column(s) await, all before the row"));
            row.add(new JStmt.Loop(x, bandStart, prefixEnd, constant(1), awaits));
        }
        if (edge > 0 && bandBlocks()) {
            int field = WestMaxRecurrence.field(cx.graph);
            row.add(new JStmt.Assign(x, bandStart));
            JExpr west = cx.index(field, new int[] {0, -1});
            row.add(new JStmt.If(compare(Op.GT, bandStart, constant(0)), List.of(
                    new JStmt.Comment("the value west of the band, from the western band's block into this block's halo column"),
                    new JStmt.Store(cx.array[field], west, new JExpr.ArrayLoad(cx.array[field], add(sub(west, cx.layout.blockStride(field)), band)))),
                    List.of()));
        }
        row.addAll(rows.row(points));
        if (rings != null) {
            row.addAll(rows instanceof StripedRows striped ? rings.afterStripedRow(bandStart, striped.layout())
                    : rings.afterRow(bandStart, bandEnd));
        }
        if (edge > 0 && !publishes.isEmpty()) {
            JExpr.Local publishFrom = cx.local("publishFrom", JType.INT);
            row.add(new JStmt.Comment("the tokens of the row's last " + edge + " column(s), all after the row"));
            row.add(new JStmt.Assign(publishFrom, LoweringContext.math("max", JType.INT, sub(bandEnd, constant(edge)), bandStart)));
            row.add(new JStmt.Loop(x, publishFrom, bandEnd, constant(1), publishes));
        }
        return row;
    }

    /**
     * Worker w's columns: [w * band, (w + 1) * band) clipped to the domain, with the band a whole number of sync
     * groups so that no group's token is published by two workers ({@link AlignedStorage#bandWidth}, which lays out
     * storage for the same bands).
     */
    private List<JStmt> bands() {
        int group = cx.sync.group();
        band = cx.local("band", JType.INT);
        bandStart = cx.local("bandStart", JType.INT);
        bandEnd = cx.local("bandEnd", JType.INT);
        tokens.band(bandStart, bandEnd);
        JExpr columns = cx.size[cx.last];
        JExpr perWorker = LoweringContext.math("ceilDiv", JType.INT, columns, cx.workers);
        return List.of(
                new JStmt.Comment("columns dealt to workers in bands; every worker runs every row of its band, rows in order"),
                new JStmt.Assign(band, group == 1 ? perWorker
                        : LoweringContext.mul(LoweringContext.math("ceilDiv", JType.INT, perWorker, constant(group)), constant(group))),
                new JStmt.Assign(bandStart, LoweringContext.math("min", JType.INT, LoweringContext.mul(cx.worker, band), columns)),
                new JStmt.Assign(bandEnd, LoweringContext.math("min", JType.INT, add(bandStart, band), columns)));
    }

    /**
     * How many columns at each end of a band hold every point that awaits or publishes: the longest reach of a
     * token channel along the last dimension, rounded up to whole sync groups (groups start at band starts).
     */
    private int edgeWidth() {
        int reach = waits.stream().filter(cx::needsToken).mapToInt(w -> Math.abs(w.vector()[cx.last])).max().orElse(0);
        return Math.ceilDiv(reach, cx.sync.group()) * cx.sync.group();
    }
}
