package dev.finegrain.runtime.jvm.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.finegrain.runtime.jvm.SpinLockTokens;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/** A PRIVATE channel: the consumer that takes the released token sees the data written before release. */
@JCStressTest
@Outcome(id = "42", expect = ACCEPTABLE, desc = "the token carried the data")
@Outcome(id = "0", expect = FORBIDDEN, desc = "token taken, data stale")
@State
public class SpinLockTokensOrderingStress {
    private final int[] mutex = SpinLockTokens.createHeld(1);
    private int data;

    @Actor
    public void producer() {
        data = 42;
        SpinLockTokens.release(mutex, 0);
    }

    @Actor
    public void consumer(I_Result r) {
        SpinLockTokens.take(mutex, 0, Watchdogs.SHARED, 0, 1, 0);
        r.r1 = data;
    }
}
