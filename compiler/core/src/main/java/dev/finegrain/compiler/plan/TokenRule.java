package dev.finegrain.compiler.plan;

import dev.finegrain.compiler.ir.IrChannel;
import dev.finegrain.dsl.internal.DependenceMath;

/**
 * The one rule for which channels of a lock-dataflow plan need a token: every channel, unless its producer instance
 * always belongs to the consumer's own worker, which runs it earlier in program order. Which instances a worker
 * owns is the mapping's choice, so the rule takes it.
 */
public final class TokenRule {

    /** How a lowering deals actor instances to workers (threads of a team, threads of a GPU). */
    public enum Ownership {
        /** One worker per point: only a channel within one point stays inside a worker. */
        POINT,
        /**
         * A worker owns a band of the last dimension across every row (rank 1: blocks along the one dimension), so a
         * channel along the other dimensions stays inside a worker in rank 2 and 3.
         */
        COLUMN_BAND
    }

    private TokenRule() {}

    public static boolean needsToken(IrChannel channel, int rank, Ownership ownership) {
        int[] vector = channel.vector();
        if (DependenceMath.isZero(vector)) {
            return false;
        }
        return ownership == Ownership.POINT || rank == 1 || vector[rank - 1] != 0;
    }
}
