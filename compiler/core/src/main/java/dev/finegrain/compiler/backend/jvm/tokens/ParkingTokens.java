package dev.finegrain.compiler.backend.jvm.tokens;

import dev.finegrain.compiler.backend.jvm.code.JExpr;
import dev.finegrain.compiler.backend.jvm.code.JStmt;
import dev.finegrain.compiler.backend.jvm.code.JType;
import dev.finegrain.runtime.jvm.ParkingFlags;

import java.util.List;

/** Blocking: a ready flag per token whose waiters spin briefly, then park until the producer unparks them. */
public record ParkingTokens() implements JvmTokens {

    private static final JType PARKING = JType.reference(RUNTIME + "ParkingFlags");

    @Override
    public JType wordsType() {
        return PARKING;
    }

    @Override
    public Object create(int words) {
        return new ParkingFlags(words);
    }

    /** A flag stays set once published, so every consumer reads it and none gives anything back. */
    @Override
    public JStmt await(JExpr tokens, JExpr word, JExpr watchdog, JExpr channel, JExpr consumer, JExpr producer) {
        return new JStmt.Evaluate(new JExpr.InvokeVirtual(tokens, "await", WAIT_PARAMETERS, JType.VOID,
                List.of(word, watchdog, channel, consumer, producer)));
    }

    @Override
    public JExpr publish(JExpr tokens, JExpr word) {
        return new JExpr.InvokeVirtual(tokens, "publish", List.of(JType.INT), JType.VOID, List.of(word));
    }

    /** Its waiters park and are woken by their producer's release: no wait policy applies. */
    @Override
    public boolean followsWaitPolicy() {
        return false;
    }
}
