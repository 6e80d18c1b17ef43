package dev.finegrain.compiler.backend.jvm.tokens;

import dev.finegrain.compiler.backend.jvm.code.JExpr;
import dev.finegrain.compiler.backend.jvm.code.JStmt;
import dev.finegrain.compiler.backend.jvm.code.JType;
import dev.finegrain.runtime.jvm.LockBox;

import java.util.List;
import java.util.Optional;

/**
 * Seed 003's lock-box: a lock per token, held by its producer until it publishes; a consumer that finds it held is
 * suspended (parked, never spinning) in a FIFO queue, and each release hands the lock straight to the oldest waiter.
 */
public record LockBoxTokens() implements JvmTokens {

    private static final JType LOCK_BOX = JType.reference(RUNTIME + "LockBox");

    @Override
    public JType wordsType() {
        return LOCK_BOX;
    }

    @Override
    public Object create(int words) {
        return new LockBox(words);
    }

    @Override
    public JStmt await(JExpr tokens, JExpr word, JExpr watchdog, JExpr channel, JExpr consumer, JExpr producer) {
        return new JStmt.Evaluate(new JExpr.InvokeVirtual(tokens, "take", WAIT_PARAMETERS, JType.VOID,
                List.of(word, watchdog, channel, consumer, producer)));
    }

    /** The restore hands the lock to the oldest waiting consumer, or sets it free. */
    @Override
    public Optional<JExpr> giveBack(JExpr tokens, JExpr word) {
        return Optional.of(new JExpr.InvokeVirtual(tokens, "restore", List.of(JType.INT), JType.VOID, List.of(word)));
    }

    @Override
    public JExpr publish(JExpr tokens, JExpr word) {
        return new JExpr.InvokeVirtual(tokens, "release", List.of(JType.INT), JType.VOID, List.of(word));
    }

    /** Its waiters park and are woken by their producer's release: no wait policy applies. */
    @Override
    public boolean followsWaitPolicy() {
        return false;
    }
}
