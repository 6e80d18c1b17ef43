package dev.finegrain.runtime.jvm;

import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * Lincheck: each of Stuart and Owens' exclusions that admit one worker (the spin-lock and fetch-and-add mutexes, the
 * spin-lock and sleeping semaphores at capacity 1) guards a plain counter; an operation enters, bumps or reads the
 * counter, and leaves. The sequential specification is this class on one thread, so two holders at once show up as
 * a lost increment or a stale read. Model checking explores the interleavings of the swaps, tickets and polls;
 * stress mode runs real threads.
 */
@Param(name = "which", gen = IntGen.class, conf = "0:3")
public class PrimitivesLincheckTest {
    private final Watchdog watchdog = Concurrently.watchdog();
    private final Exclusion[] exclusions = {new SpinMutex(watchdog), new FetchAddMutex(watchdog),
            new SpinSemaphore(1, watchdog), new SleepingSemaphore(1, watchdog)};
    private final int[] counters = new int[exclusions.length];

    @Operation
    public int increment(@Param(name = "which") int which) {
        exclusions[which].acquire(0);
        int value = ++counters[which];
        exclusions[which].release(0);
        return value;
    }

    @Operation
    public int get(@Param(name = "which") int which) {
        exclusions[which].acquire(0);
        int value = counters[which];
        exclusions[which].release(0);
        return value;
    }

    @Test
    void modelChecking() {
        new ModelCheckingOptions().iterations(10).invocationsPerIteration(200).threads(3).actorsPerThread(2)
                .check(PrimitivesLincheckTest.class);
    }

    @Test
    void stress() {
        new StressOptions().iterations(8).invocationsPerIteration(500).threads(3).actorsPerThread(3)
                .check(PrimitivesLincheckTest.class);
    }
}
