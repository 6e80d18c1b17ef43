package dev.finegrain.runtime.jvm.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.finegrain.runtime.jvm.ReadyFlags;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/** A consumer that returns from ReadyFlags.await sees the data written before publish. */
@JCStressTest
@Outcome(id = "42", expect = ACCEPTABLE, desc = "the flag carried the data")
@Outcome(id = "0", expect = FORBIDDEN, desc = "flag seen ready, data stale")
@State
public class ReadyFlagsOrderingStress {
    private final int[] flags = ReadyFlags.create(1);
    private int data;

    @Actor
    public void producer() {
        data = 42;
        ReadyFlags.publish(flags, 0);
    }

    @Actor
    public void consumer(I_Result r) {
        ReadyFlags.await(flags, 0, Watchdogs.SHARED, 0, 1, 0);
        r.r1 = data;
    }
}
