package dev.finegrain.runtime.jvm.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.finegrain.runtime.jvm.TicketTokens;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A ticket-mutex token never admits two owners: two consumers each draw a ticket and wait to be served, do a plain
 * read-modify-write of a counter and record whether they saw another owner inside, then serve the next ticket. Both
 * increments must survive.
 */
@JCStressTest
@Outcome(id = "2, 0, 0", expect = ACCEPTABLE, desc = "one owner at a time")
@Outcome(id = ".*", expect = FORBIDDEN, desc = "two owners at once: a lost increment or an overlap")
@State
public class TicketTokensMutualExclusionStress {
    private final int[] mutex = TicketTokens.createHeld(1);
    private int counter;
    private int owners;
    private int firstSawOverlap;
    private int secondSawOverlap;

    public TicketTokensMutualExclusionStress() {
        TicketTokens.release(mutex, 0);
    }

    @Actor
    public void first() {
        TicketTokens.take(mutex, 0, Watchdogs.SHARED, 0, 1, 0);
        firstSawOverlap = ++owners - 1;
        counter++;
        owners--;
        TicketTokens.restore(mutex, 0);
    }

    @Actor
    public void second() {
        TicketTokens.take(mutex, 0, Watchdogs.SHARED, 0, 2, 0);
        secondSawOverlap = ++owners - 1;
        counter++;
        owners--;
        TicketTokens.restore(mutex, 0);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = counter;
        r.r2 = firstSawOverlap;
        r.r3 = secondSawOverlap;
    }
}
