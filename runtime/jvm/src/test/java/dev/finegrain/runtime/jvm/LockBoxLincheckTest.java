package dev.finegrain.runtime.jvm;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import kotlin.Unit;
import kotlin.jvm.JvmClassMappingKt;
import kotlin.reflect.KFunction;
import kotlin.reflect.full.KClasses;
import org.jetbrains.lincheck.datastructures.DSLThreadScenario;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * Lincheck: two lock-box words, each guarding a plain counter, as a data structure whose operations take a word,
 * read or bump its counter and restore the word. Its sequential specification is this class run on one thread, so
 * every concurrent history must be explainable as some order of whole operations: two owners at once show up as a
 * lost increment or a stale read. Model checking explores the interleavings of the fast CAS, the queueing, the
 * hand-off and the parks (lincheck lets a timed park return early, so the waiter's re-check loop is explored too);
 * stress mode runs real threads.
 */
@Param(name = "word", gen = IntGen.class, conf = "0:1")
public class LockBoxLincheckTest {
    /** A park slice longer than any run, so that a lost hand-off is a hang, not a slow success. */
    private final LockBox box = new LockBox(2, TimeUnit.SECONDS.toNanos(60));
    private final Watchdog watchdog = Concurrently.watchdog();
    private final int[] counters = new int[2];

    public LockBoxLincheckTest() {
        box.release(0);
        box.release(1);
    }

    @Operation
    public int increment(@Param(name = "word") int word) {
        box.take(word, watchdog, word, 1, 0);
        int value = ++counters[word];
        box.restore(word);
        return value;
    }

    @Operation
    public int get(@Param(name = "word") int word) {
        box.take(word, watchdog, word, 1, 0);
        int value = counters[word];
        box.restore(word);
        return value;
    }

    /** Random scenarios over both words. */
    @Test
    void modelChecking() {
        new ModelCheckingOptions()
                .iterations(5)
                .invocationsPerIteration(200)
                .threads(2)
                .actorsPerThread(3)
                .actorsAfter(1)
                .check(LockBoxLincheckTest.class);
    }

    /**
     * The hand-off's barging window, which random scenarios over two words rarely reach within a few seconds: a
     * holder releases to a parked waiter and at once takes the word again. A release that set the word free while
     * granting it (so that the holder's next CAS succeeds beside the waiter) fails this check with a lost increment.
     */
    @Test
    void modelCheckingHandOff() {
        KFunction<?> increment = operation("increment");
        new ModelCheckingOptions()
                .iterations(0)
                .invocationsPerIteration(1_000)
                .addCustomScenario(parallel(List.of(
                        t -> {
                            t.actor(increment, 0);
                            t.actor(increment, 0);
                        },
                        t -> t.actor(increment, 0))))
                .check(LockBoxLincheckTest.class);
    }

    @Test
    void stress() {
        new StressOptions()
                .iterations(5)
                .invocationsPerIteration(500)
                .threads(3)
                .actorsPerThread(3)
                .check(LockBoxLincheckTest.class);
    }

    private static KFunction<?> operation(String name) {
        return KClasses.getDeclaredMemberFunctions(JvmClassMappingKt.getKotlinClass(LockBoxLincheckTest.class))
                .stream().filter(f -> f.getName().equals(name)).findFirst().orElseThrow();
    }

    /** A scenario of these threads run in parallel, nothing before or after. */
    private static kotlin.jvm.functions.Function1<org.jetbrains.lincheck.datastructures.DSLScenarioBuilder, Unit>
            parallel(List<Consumer<DSLThreadScenario>> threads) {
        return scenario -> {
            scenario.parallel(p -> {
                for (Consumer<DSLThreadScenario> thread : threads) {
                    p.thread(t -> {
                        thread.accept(t);
                        return Unit.INSTANCE;
                    });
                }
                return Unit.INSTANCE;
            });
            return Unit.INSTANCE;
        };
    }
}
