package dev.finegrain.runtime.jvm.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.finegrain.runtime.jvm.PackedReadyWords;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/** The packed word's value and the data written beside it before publish are both seen after await. */
@JCStressTest
@Outcome(id = "7, 7, 42", expect = ACCEPTABLE, desc = "value and data both published")
@Outcome(id = "7, 7, 0", expect = FORBIDDEN, desc = "word seen ready, side data stale")
@State
public class PackedReadyWordsOrderingStress {
    private final long[] words = PackedReadyWords.create(1);
    private int data;

    @Actor
    public void producer() {
        data = 42;
        PackedReadyWords.publish(words, 0, 7);
    }

    @Actor
    public void consumer(III_Result r) {
        r.r1 = PackedReadyWords.await(words, 0, Watchdogs.SHARED, 0, 1, 0);
        r.r2 = PackedReadyWords.value(words, 0);
        r.r3 = data;
    }
}
