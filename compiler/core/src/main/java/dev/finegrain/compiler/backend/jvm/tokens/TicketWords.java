package dev.finegrain.compiler.backend.jvm.tokens;

import dev.finegrain.compiler.backend.jvm.code.JExpr;
import dev.finegrain.compiler.backend.jvm.code.JStmt;
import dev.finegrain.compiler.backend.jvm.code.JType;
import dev.finegrain.runtime.jvm.TicketTokens;

import java.util.List;
import java.util.Optional;

/**
 * A spin-lock taken as Stuart and Owens' fetch-and-add ticket mutex: per token a pair (next ticket, ticket served);
 * the producer holds ticket 0 until it publishes, a consumer draws a ticket and waits until it is served, and a shared
 * token is given back by serving the next one, so consumers are served in the order they came.
 */
public record TicketWords() implements JvmTokens {

    private static final List<JType> WORD = List.of(JType.INT_ARRAY, JType.INT);

    @Override
    public JType wordsType() {
        return JType.INT_ARRAY;
    }

    @Override
    public Object create(int words) {
        return TicketTokens.createHeld(words);
    }

    @Override
    public JStmt await(JExpr tokens, JExpr word, JExpr watchdog, JExpr channel, JExpr consumer, JExpr producer) {
        return new JStmt.Evaluate(JvmTokens.runtime("TicketTokens", "take", JType.VOID,
                JvmTokens.prepend(JType.INT_ARRAY, WAIT_PARAMETERS), tokens, word, watchdog, channel, consumer, producer));
    }

    @Override
    public Optional<JExpr> giveBack(JExpr tokens, JExpr word) {
        return Optional.of(JvmTokens.runtime("TicketTokens", "restore", JType.VOID, WORD, tokens, word));
    }

    @Override
    public JExpr publish(JExpr tokens, JExpr word) {
        return JvmTokens.runtime("TicketTokens", "release", JType.VOID, WORD, tokens, word);
    }

    @Override
    public boolean holdsALock() {
        return true;
    }
}
