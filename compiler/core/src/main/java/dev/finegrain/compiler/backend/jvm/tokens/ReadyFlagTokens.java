package dev.finegrain.compiler.backend.jvm.tokens;

import dev.finegrain.compiler.backend.jvm.code.JExpr;
import dev.finegrain.compiler.backend.jvm.code.JStmt;
import dev.finegrain.compiler.backend.jvm.code.JType;
import dev.finegrain.runtime.jvm.ReadyFlags;

import java.util.List;

/** Acquire-release: a ready flag per token, published with a release store and awaited with acquire loads. */
public record ReadyFlagTokens() implements JvmTokens {

    @Override
    public JType wordsType() {
        return JType.INT_ARRAY;
    }

    @Override
    public Object create(int words) {
        return ReadyFlags.create(words);
    }

    /** A flag stays set once published, so every consumer reads it and none gives anything back. */
    @Override
    public JStmt await(JExpr tokens, JExpr word, JExpr watchdog, JExpr channel, JExpr consumer, JExpr producer) {
        return new JStmt.Evaluate(JvmTokens.runtime("ReadyFlags", "await", JType.VOID,
                JvmTokens.prepend(JType.INT_ARRAY, WAIT_PARAMETERS), tokens, word, watchdog, channel, consumer, producer));
    }

    @Override
    public JExpr publish(JExpr tokens, JExpr word) {
        return JvmTokens.runtime("ReadyFlags", "publish", JType.VOID, List.of(JType.INT_ARRAY, JType.INT), tokens, word);
    }
}
