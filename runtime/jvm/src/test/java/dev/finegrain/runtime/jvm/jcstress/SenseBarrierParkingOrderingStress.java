package dev.finegrain.runtime.jvm.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.finegrain.runtime.jvm.SenseBarrier;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * As {@link SenseBarrierOrderingStress}, with a barrier whose first arrival parks at once: the worker woken by the
 * last arrival's unpark sees the other's write too (and a lost wakeup would hang the test until the watchdog).
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the barrier ordered both phases")
@Outcome(id = ".*0.*", expect = FORBIDDEN, desc = "a worker left the barrier without the other's write")
@State
public class SenseBarrierParkingOrderingStress {
    private final SenseBarrier barrier = new SenseBarrier(2, 0L);
    private int x;
    private int y;

    @Actor
    public void worker0(II_Result r) {
        x = 1;
        barrier.await(0, Watchdogs.SHARED);
        r.r1 = y;
    }

    @Actor
    public void worker1(II_Result r) {
        y = 1;
        barrier.await(1, Watchdogs.SHARED);
        r.r2 = x;
    }
}
