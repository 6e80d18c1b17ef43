package dev.finegrain.runtime.jvm.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.finegrain.runtime.jvm.SpinLockTokens;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/** A SHARED channel: both consumers take and restore one token, and both see the producer's data. */
@JCStressTest
@Outcome(id = "42, 42", expect = ACCEPTABLE, desc = "each consumer saw the data")
@Outcome(id = ".*0.*", expect = FORBIDDEN, desc = "a consumer took the token but saw stale data")
@State
public class SpinLockTokensSharedOrderingStress {
    private final int[] mutex = SpinLockTokens.createHeld(1);
    private int data;

    @Actor
    public void producer() {
        data = 42;
        SpinLockTokens.release(mutex, 0);
    }

    @Actor
    public void firstConsumer(II_Result r) {
        SpinLockTokens.take(mutex, 0, Watchdogs.SHARED, 0, 1, 0);
        r.r1 = data;
        SpinLockTokens.restore(mutex, 0);
    }

    @Actor
    public void secondConsumer(II_Result r) {
        SpinLockTokens.take(mutex, 0, Watchdogs.SHARED, 0, 2, 0);
        r.r2 = data;
        SpinLockTokens.restore(mutex, 0);
    }
}
