package dev.finegrain.runtime.jvm;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Stuart and Owens' primitives on threads: counts, capacities and phases kept under contention; misuse stalls. */
class SyncPrimitivesTest {
    private static final int THREADS = 3;
    private static final int OPS = 5_000;

    @Test
    void semaphoresNeverAdmitMoreThanTheirCapacity() throws InterruptedException {
        List<Function<Watchdog, Exclusion>> semaphores = List.of(w -> new SpinSemaphore(2, w),
                w -> new SleepingSemaphore(2, w));
        for (Function<Watchdog, Exclusion> make : semaphores) {
            Exclusion semaphore = make.apply(Concurrently.watchdog());
            AtomicInteger inside = new AtomicInteger();
            AtomicInteger most = new AtomicInteger();
            AtomicInteger entries = new AtomicInteger();
            runAll(worker -> {
                for (int op = 0; op < OPS; op++) {
                    semaphore.acquire(worker);
                    int now = inside.incrementAndGet();
                    most.accumulateAndGet(now, Math::max);
                    entries.incrementAndGet();
                    inside.decrementAndGet();
                    semaphore.release(worker);
                }
            });
            assertTrue(most.get() <= 2, semaphore.getClass().getSimpleName() + " admitted " + most.get());
            assertEquals(THREADS * OPS, entries.get());
        }
    }

    @Test
    void mutexesKeepAPlainCounterExact() throws InterruptedException {
        Watchdog backoff = new Watchdog(Watchdog.DEFAULT_TIMEOUT_NANOS, (c, w, p) -> "mutex", WaitPolicy.BACKOFF);
        for (Exclusion mutex : List.of(new SpinMutex(Concurrently.watchdog()), new SpinMutex(backoff),
                new FetchAddMutex(backoff))) {
            int[] counter = new int[1];
            runAll(worker -> {
                for (int op = 0; op < OPS; op++) {
                    mutex.acquire(worker);
                    counter[0]++;
                    mutex.release(worker);
                }
            });
            assertEquals(THREADS * OPS, counter[0], mutex.getClass().getSimpleName());
        }
    }

    @Test
    void barrierPhasesNeverMix() throws InterruptedException {
        for (StepBarrier barrier : List.of(new CountingBarrier(THREADS), new XfBarrier(THREADS),
                new SenseBarrier(THREADS), new DisseminationBarrier(THREADS))) {
            Watchdog watchdog = Concurrently.watchdog();
            AtomicInteger arrivals = new AtomicInteger();
            AtomicInteger violations = new AtomicInteger();
            int steps = 1_000;
            runAll(worker -> {
                for (int step = 1; step <= steps; step++) {
                    arrivals.incrementAndGet();
                    barrier.await(worker, watchdog);
                    int seen = arrivals.get();
                    if (seen < step * THREADS || seen >= (step + 1) * THREADS) {
                        violations.incrementAndGet();
                    }
                }
            });
            assertEquals(0, violations.get(), barrier.getClass().getSimpleName());
        }
    }

    @Test
    void aBarrierMissingAWorkerStallsNamingTheWaitInsteadOfHanging() throws InterruptedException {
        Watchdog watchdog = new Watchdog(TimeUnit.MILLISECONDS.toNanos(200),
                (channel, worker, other) -> "xf-barrier: worker " + worker + " waits", WaitPolicy.SPIN);
        StepBarrier barrier = new XfBarrier(3);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] threads = new Thread[2];
        for (int w = 0; w < 2; w++) {
            int worker = w;
            threads[w] = Thread.ofPlatform().start(() -> {
                try {
                    barrier.await(worker, watchdog);
                } catch (RuntimeException e) {
                    failure.compareAndSet(null, e);
                }
            });
        }
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        }
        StallException stall = assertInstanceOf(StallException.class, failure.get());
        assertTrue(stall.waits().stream().anyMatch(w -> w.startsWith("xf-barrier: worker")), stall.waits().toString());
    }

    interface Body {
        void run(int worker);
    }

    private static void runAll(Body body) throws InterruptedException {
        Thread[] threads = new Thread[THREADS];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int w = 0; w < THREADS; w++) {
            int worker = w;
            threads[w] = Thread.ofPlatform().start(() -> {
                try {
                    body.run(worker);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
        }
        for (Thread thread : threads) {
            thread.join();
        }
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
    }
}
