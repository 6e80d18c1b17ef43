package dev.finegrain.compiler.backend.jvm.tokens;

import dev.finegrain.compiler.backend.jvm.code.JExpr;
import dev.finegrain.compiler.backend.jvm.code.JStmt;
import dev.finegrain.compiler.backend.jvm.code.JType;
import dev.finegrain.runtime.jvm.SpinLockTokens;

import java.util.List;
import java.util.Optional;

/**
 * The atomic spin-lock (and the warp's shared one, which on the JVM differs only by its granularity): a CAS mutex per
 * token, held by its producer until it publishes; a consumer takes it, test then test-and-set, or with
 * {@code bySwap} test-and-set at every look.
 */
public record SpinLockWords(boolean bySwap) implements JvmTokens {

    @Override
    public JType wordsType() {
        return JType.INT_ARRAY;
    }

    @Override
    public Object create(int words) {
        return SpinLockTokens.createHeld(words);
    }

    @Override
    public JStmt await(JExpr tokens, JExpr word, JExpr watchdog, JExpr channel, JExpr consumer, JExpr producer) {
        return new JStmt.Evaluate(JvmTokens.runtime("SpinLockTokens", bySwap ? "takeBySwap" : "take", JType.VOID,
                JvmTokens.prepend(JType.INT_ARRAY, WAIT_PARAMETERS), tokens, word, watchdog, channel, consumer, producer));
    }

    @Override
    public Optional<JExpr> giveBack(JExpr tokens, JExpr word) {
        return Optional.of(JvmTokens.runtime("SpinLockTokens", "restore", JType.VOID, List.of(JType.INT_ARRAY, JType.INT),
                tokens, word));
    }

    @Override
    public JExpr publish(JExpr tokens, JExpr word) {
        return JvmTokens.runtime("SpinLockTokens", "release", JType.VOID, List.of(JType.INT_ARRAY, JType.INT), tokens, word);
    }

    @Override
    public boolean holdsALock() {
        return true;
    }
}
