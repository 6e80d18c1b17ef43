package dev.finegrain.runtime.jvm.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.finegrain.runtime.jvm.LockBox;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * A PRIVATE channel: the consumer that takes the released word sees the data written before release, whether it
 * took the word free with a CAS or was handed it while parked.
 */
@JCStressTest
@Outcome(id = "42", expect = ACCEPTABLE, desc = "the token carried the data")
@Outcome(id = "0", expect = FORBIDDEN, desc = "token taken, data stale")
@State
public class LockBoxOrderingStress {
    private final LockBox box = new LockBox(1);
    private int data;

    @Actor
    public void producer() {
        data = 42;
        box.release(0);
    }

    @Actor
    public void consumer(I_Result r) {
        box.take(0, Watchdogs.SHARED, 0, 1, 0);
        r.r1 = data;
    }
}
