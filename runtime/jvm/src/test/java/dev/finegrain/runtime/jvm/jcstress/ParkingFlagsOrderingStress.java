package dev.finegrain.runtime.jvm.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.finegrain.runtime.jvm.ParkingFlags;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/** A consumer that returns from ParkingFlags.await (spinning or after a park) sees the data written before publish. */
@JCStressTest
@Outcome(id = "42", expect = ACCEPTABLE, desc = "the flag carried the data")
@Outcome(id = "0", expect = FORBIDDEN, desc = "flag seen ready, data stale")
@State
public class ParkingFlagsOrderingStress {
    private final ParkingFlags flags = new ParkingFlags(1);
    private int data;

    @Actor
    public void producer() {
        data = 42;
        flags.publish(0);
    }

    @Actor
    public void consumer(I_Result r) {
        flags.await(0, Watchdogs.SHARED, 0, 1, 0);
        r.r1 = data;
    }
}
