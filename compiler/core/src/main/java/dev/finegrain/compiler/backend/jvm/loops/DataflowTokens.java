package dev.finegrain.compiler.backend.jvm.loops;

import dev.finegrain.compiler.backend.jvm.code.JExpr.Binary.Op;
import dev.finegrain.compiler.backend.jvm.code.JExpr;
import dev.finegrain.compiler.backend.jvm.code.JStmt;
import dev.finegrain.compiler.backend.jvm.code.JType;
import dev.finegrain.compiler.backend.jvm.lowering.LoweringContext;
import dev.finegrain.compiler.backend.jvm.tokens.JvmTokens;
import dev.finegrain.compiler.ir.IrActor;
import dev.finegrain.compiler.ir.IrChannel;
import dev.finegrain.dsl.ChannelPolicy;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.add;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.compare;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.constant;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.runtime;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.sub;

/**
 * The statements of a lock-dataflow class that await and publish the plan's tokens at the current point: an await
 * where the producer exists and belongs to another worker (another band of columns, or for rank 1 another block), a
 * publish of every token the point produces (per group: at the group's last point), in the mechanism's own calls.
 * None under a mechanism that counts whole blocks and rows instead ({@link RingBlocks} awaits and counts those).
 */
final class DataflowTokens {

    private final LoweringContext cx;
    private final List<IrChannel> waits;
    private final int blockSize;
    private JExpr.Local bandStart;
    private JExpr.Local bandEnd;
    private JExpr.Local groupsPerRow;

    DataflowTokens(LoweringContext cx, List<IrChannel> waits, int blockSize) {
        this.cx = cx;
        this.waits = waits;
        this.blockSize = blockSize;
    }

    /** Rank 2 and up: the worker's band of columns, whose edges decide which producers are remote. */
    void band(JExpr.Local bandStart, JExpr.Local bandEnd) {
        this.bandStart = bandStart;
        this.bandEnd = bandEnd;
    }

    /** With group tokens: the number of groups per row, which numbers a group's word. */
    void groupsPerRow(JExpr.Local groupsPerRow) {
        this.groupsPerRow = groupsPerRow;
    }

    /** Every await of actor {@code actor}'s channels that take tokens, in the plan's order. */
    List<JStmt> awaits(int actor) {
        List<JStmt> awaits = new ArrayList<>();
        if (cx.sync.countsBlocks()) {
            return awaits;
        }
        for (int wait = 0; wait < waits.size(); wait++) {
            if (waits.get(wait).consumer() == actor && cx.needsToken(waits.get(wait))) {
                awaits.addAll(await(wait));
            }
        }
        return awaits;
    }

    /** The awaits of every actor, in actor order. */
    List<JStmt> allAwaits() {
        List<JStmt> awaits = new ArrayList<>();
        for (int actor : cx.graph.actorOrder()) {
            awaits.addAll(awaits(actor));
        }
        return awaits;
    }

    /** The publishes of every actor, in actor order. */
    List<JStmt> allPublishes() {
        List<JStmt> publishes = new ArrayList<>();
        for (int actor : cx.graph.actorOrder()) {
            publishes.addAll(publish(cx.graph.actor(actor)));
        }
        return publishes;
    }

    /** Awaits the token of the plan's wait {@code channelIndex} at the current point, when its producer exists and runs on another worker. */
    private List<JStmt> await(int channelIndex) {
        IrChannel channel = waits.get(channelIndex);
        int[] d = channel.vector();
        JExpr condition = null;
        for (int k = 0; k < cx.rank; k++) {
            if (d[k] > 0) {
                condition = and(condition, compare(Op.GE, cx.coordinate[k], constant(d[k])));
            } else if (d[k] < 0) {
                condition = and(condition, compare(Op.LT, sub(cx.coordinate[k], constant(d[k])), cx.size[k]));
            }
        }
        JExpr remote;
        if (cx.rank == 1) {
            JExpr producerBlock = new JExpr.Binary(Op.DIV, sub(cx.coordinate[0], constant(d[0])), constant(blockSize));
            remote = compare(Op.NE, new JExpr.Binary(Op.REM, producerBlock, cx.workers), cx.worker);
        } else {
            JExpr producerColumn = sub(cx.coordinate[cx.last], constant(d[cx.last]));
            remote = d[cx.last] > 0 ? compare(Op.LT, producerColumn, bandStart) : compare(Op.GE, producerColumn, bandEnd);
        }
        JExpr consumer = cx.linearPoint();
        JExpr producer = cx.linearPointBefore(d);
        JExpr channelId = constant(channelIndex);
        List<JStmt> waits = new ArrayList<>();
        waits.add(new JStmt.Comment("await " + channel.via() + " from " + cx.graph.actor(channel.producer()).name()));
        if (cx.sync.packed()) {
            int field = cx.graph.actor(channel.producer()).writes();
            int[] back = java.util.Arrays.stream(d).map(c -> -c).toArray();
            waits.add(new JStmt.Evaluate(runtime("PackedReadyWords", "await", JType.INT,
                    List.of(JType.LONG_ARRAY, JType.INT, LoweringContext.WATCHDOG, JType.INT, JType.INT, JType.INT),
                    cx.array[field], cx.index(field, back), cx.watchdog, channelId, consumer, producer)));
        } else {
            JExpr.Local tokens = cx.syncArray[cx.sync.arrayOfChannel().get(channelIndex)];
            JExpr word = word(d, producer);
            JvmTokens form = cx.sync.tokens();
            waits.add(form.await(tokens, word, cx.watchdog, channelId, consumer, producer));
            Optional<JExpr> giveBack = form.giveBack(tokens, word);
            if (giveBack.isPresent() && (channel.policy() == ChannelPolicy.SHARED || cx.sync.group() > 1)) {
                waits.add(new JStmt.Comment(channel.policy() == ChannelPolicy.SHARED
                        ? "a shared token goes back for the producer's other consumers"
                        : "a group's token goes back for the other instances that consume the same group"));
                waits.add(new JStmt.Evaluate(giveBack.get()));
            }
        }
        return List.of(new JStmt.If(and(condition, remote), waits, List.of()));
    }

    /** Publishes the tokens the actor produces at the current point (per group: at the group's last point). */
    List<JStmt> publish(IrActor actor) {
        if (cx.sync.packed() || cx.sync.countsBlocks()) {
            return List.of();
        }
        Set<Integer> arrays = new LinkedHashSet<>();
        for (int c = 0; c < waits.size(); c++) {
            IrChannel channel = waits.get(c);
            if (channel.producer() == actor.id() && cx.needsToken(channel)) {
                arrays.add(cx.sync.arrayOfChannel().get(c));
            }
        }
        List<JStmt> publishes = new ArrayList<>();
        JExpr word = word(new int[cx.rank], cx.linearPoint());
        for (int array : arrays) {
            JExpr.Local tokens = cx.syncArray[array];
            publishes.add(new JStmt.Evaluate(cx.sync.tokens().publish(tokens, word)));
        }
        if (publishes.isEmpty() || cx.sync.group() == 1) {
            return publishes;
        }
        JExpr x = cx.coordinate[cx.last];
        JExpr groupEnds = new JExpr.Binary(Op.OR,
                compare(Op.EQ, new JExpr.Binary(Op.REM, x, constant(cx.sync.group())), constant(cx.sync.group() - 1)),
                compare(Op.EQ, x, sub(cx.size[cx.last], constant(1))));
        return List.of(new JStmt.Comment("a group publishes once, after its last instance"), new JStmt.If(groupEnds, publishes, List.of()));
    }

    /** The sync word of the point {@code d} before the current one: its instance, or its group. */
    private JExpr word(int[] d, JExpr linearPoint) {
        if (cx.sync.group() == 1) {
            return linearPoint;
        }
        JExpr row = cx.rowNumber;
        for (int k = 0; k < cx.last; k++) {
            if (d[k] != 0) {
                row = sub(row, LoweringContext.mul(constant(d[k]),
                        new JExpr.Binary(Op.DIV, cx.linearStride[k], cx.size[cx.last])));
            }
        }
        JExpr column = new JExpr.Binary(Op.DIV, sub(cx.coordinate[cx.last], constant(d[cx.last])), constant(cx.sync.group()));
        return add(LoweringContext.mul(row, groupsPerRow), column);
    }

    private static JExpr and(JExpr a, JExpr b) {
        return a == null ? b : new JExpr.Binary(Op.AND, a, b);
    }
}
