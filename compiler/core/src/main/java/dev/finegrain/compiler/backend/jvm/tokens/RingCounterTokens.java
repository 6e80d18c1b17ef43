package dev.finegrain.compiler.backend.jvm.tokens;

import dev.finegrain.compiler.backend.jvm.code.JExpr;
import dev.finegrain.compiler.backend.jvm.code.JStmt;
import dev.finegrain.compiler.backend.jvm.code.JType;
import dev.finegrain.runtime.jvm.RingCounters;

import java.util.List;

/**
 * Spsc-ring: a counter of finished blocks per worker ({@link RingCounters}), not a word per token. A block awaits the
 * blocks its reads reach and, where a field is folded into a ring, the blocks that read the slots it overwrites, all
 * before its first instance; it counts itself after its last. So the per-instance {@link #await} and {@link #publish}
 * of the other mechanisms have no meaning here, and the lowering calls {@link #awaitBlock}, {@link #awaitBlocksThrough}
 * and {@link #finish} instead ({@link #countsBlocks}).
 */
public record RingCounterTokens() implements JvmTokens {

    @Override
    public JType wordsType() {
        return JType.LONG_ARRAY;
    }

    /** The counters of a team of {@code words} workers. */
    @Override
    public Object create(int words) {
        return RingCounters.create(words);
    }

    @Override
    public boolean countsBlocks() {
        return true;
    }

    @Override
    public JStmt await(JExpr tokens, JExpr word, JExpr watchdog, JExpr channel, JExpr consumer, JExpr producer) {
        throw new IllegalStateException("spsc-ring awaits whole blocks (awaitBlock), not one instance's token");
    }

    @Override
    public JExpr publish(JExpr tokens, JExpr word) {
        throw new IllegalStateException("spsc-ring counts whole blocks (finish), not one instance's token");
    }

    /** Awaits block {@code block} (nothing when it is negative). */
    public JStmt awaitBlock(JExpr counters, JExpr block, JExpr workers, JExpr watchdog, JExpr channel, JExpr consumer, JExpr producer) {
        return new JStmt.Evaluate(JvmTokens.runtime("RingCounters", "awaitBlock", JType.VOID,
                List.of(JType.LONG_ARRAY, JType.INT, JType.INT, WATCHDOG, JType.INT, JType.INT, JType.INT),
                counters, block, workers, watchdog, channel, consumer, producer));
    }

    /** Awaits every block up to {@code last}: the space a block's writes to folded fields need. */
    public JStmt awaitBlocksThrough(JExpr counters, JExpr last, JExpr workers, JExpr watchdog, JExpr consumer, JExpr blockSize) {
        return new JStmt.Evaluate(JvmTokens.runtime("RingCounters", "awaitBlocksThrough", JType.VOID,
                List.of(JType.LONG_ARRAY, JType.INT, JType.INT, WATCHDOG, JType.INT, JType.INT),
                counters, last, workers, watchdog, consumer, blockSize));
    }

    /**
     * Awaits the workers from {@code from} to {@code to} (clipped to the team) having finished their first {@code rows}
     * rows; the points that name the wait are longs, as a folded 2D run may number more than an int holds.
     */
    public JStmt awaitRows(JExpr counters, JExpr from, JExpr to, JExpr rows, JExpr workers, JExpr watchdog, JExpr channel,
                           JExpr consumer, JExpr producer) {
        return new JStmt.Evaluate(JvmTokens.runtime("RingCounters", "awaitRows", JType.VOID,
                List.of(JType.LONG_ARRAY, JType.INT, JType.INT, JType.INT, JType.INT, WATCHDOG, JType.INT, JType.LONG, JType.LONG),
                counters, from, to, rows, workers, watchdog, channel, consumer, producer));
    }

    /** Counts the worker's first {@code rows} rows finished, after their writes. */
    public JStmt finishRows(JExpr counters, JExpr worker, JExpr rows) {
        return new JStmt.Evaluate(JvmTokens.runtime("RingCounters", "finishRows", JType.VOID,
                List.of(JType.LONG_ARRAY, JType.INT, JType.INT), counters, worker, rows));
    }

    /** Counts block {@code block} finished, after its writes. */
    public JStmt finish(JExpr counters, JExpr block, JExpr workers) {
        return new JStmt.Evaluate(JvmTokens.runtime("RingCounters", "finish", JType.VOID,
                List.of(JType.LONG_ARRAY, JType.INT, JType.INT), counters, block, workers));
    }
}
