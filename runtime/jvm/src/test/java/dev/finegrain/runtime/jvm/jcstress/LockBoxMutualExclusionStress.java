package dev.finegrain.runtime.jvm.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.finegrain.runtime.jvm.LockBox;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A lock-box word never admits two owners, whether taken free with a CAS or handed over to a parked waiter: two
 * consumers each take it, do a plain read-modify-write of a counter, record whether they saw another owner inside,
 * and restore it. Both increments must survive. (Two actors, as the tests that run on a 2-core machine: jcstress
 * skips a test with more actors than CPUs.)
 */
@JCStressTest
@Outcome(id = "2, 0, 0", expect = ACCEPTABLE, desc = "one owner at a time")
@Outcome(id = ".*", expect = FORBIDDEN, desc = "two owners at once: a lost increment or an overlap")
@State
public class LockBoxMutualExclusionStress {
    private final LockBox box = new LockBox(1);
    private int counter;
    private int owners;
    private int firstSawOverlap;
    private int secondSawOverlap;

    public LockBoxMutualExclusionStress() {
        box.release(0);
    }

    @Actor
    public void first() {
        box.take(0, Watchdogs.SHARED, 0, 1, 0);
        firstSawOverlap = ++owners - 1;
        counter++;
        owners--;
        box.restore(0);
    }

    @Actor
    public void second() {
        box.take(0, Watchdogs.SHARED, 0, 2, 0);
        secondSawOverlap = ++owners - 1;
        counter++;
        owners--;
        box.restore(0);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = counter;
        r.r2 = firstSawOverlap;
        r.r3 = secondSawOverlap;
    }
}
