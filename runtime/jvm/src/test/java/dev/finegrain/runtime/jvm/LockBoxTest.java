package dev.finegrain.runtime.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

class LockBoxTest {
    private static final int TOKENS = 100_000;

    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    @Test
    void privateChannelPipelineDeliversEveryValue() {
        Watchdog watchdog = Concurrently.watchdog();
        int[] data = new int[TOKENS];
        LockBox box = new LockBox(TOKENS);
        Concurrently.run(
                () -> {
                    for (int i = 0; i < TOKENS; i++) {
                        data[i] = i ^ 0x5a5a;
                        box.release(i);
                    }
                },
                () -> {
                    for (int i = 0; i < TOKENS; i++) {
                        box.take(i, watchdog, 0, i, i);
                        assertEquals(i ^ 0x5a5a, data[i], "token " + i);
                    }
                });
    }

    @Test
    void sharedChannelTokenIsTakenAndRestoredByEveryConsumer() {
        Watchdog watchdog = Concurrently.watchdog();
        int tokens = TOKENS / 4;
        int[] data = new int[tokens];
        LockBox box = new LockBox(tokens);
        Runnable consumer = () -> {
            for (int i = 0; i < tokens; i++) {
                box.take(i, watchdog, 0, i, i);
                assertEquals(i * 7, data[i], "token " + i);
                box.restore(i);
            }
        };
        Concurrently.run(() -> {
            for (int i = 0; i < tokens; i++) {
                data[i] = i * 7;
                box.release(i);
            }
        }, consumer, consumer, consumer);
        for (int i = 0; i < tokens; i++) {
            assertTrue(box.free(i), "token " + i);
        }
    }

    /** Four threads take and restore one word; inside, they count owners and bump a plain counter. */
    @Test
    void wordAdmitsOneOwnerAtATime() {
        Watchdog watchdog = Concurrently.watchdog();
        LockBox box = new LockBox(1);
        box.release(0);
        int rounds = 20_000;
        int threads = 4;
        int[] counter = new int[1];
        AtomicInteger owners = new AtomicInteger();
        AtomicInteger mostOwners = new AtomicInteger();
        Runnable incrementer = () -> {
            for (int i = 0; i < rounds; i++) {
                box.take(0, watchdog, 0, 0, 0);
                mostOwners.accumulateAndGet(owners.incrementAndGet(), Math::max);
                counter[0]++;
                owners.decrementAndGet();
                box.restore(0);
            }
        };
        Runnable[] parties = new Runnable[threads];
        Arrays.fill(parties, incrementer);
        Concurrently.run(parties);
        assertEquals(threads * rounds, counter[0]);
        assertEquals(1, mostOwners.get());
        assertTrue(box.free(0));
    }

    /** Waiters queued one after another, each seen parked before the next starts, get the word in that order. */
    @Test
    void waitersAcquireInArrivalOrder() {
        Watchdog watchdog = Concurrently.watchdog();
        LockBox box = new LockBox(1);
        List<Integer> order = new ArrayList<>();
        List<Thread> waiters = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            int id = i;
            Thread t = start(() -> {
                box.take(0, watchdog, 0, id, 0);
                order.add(id);
                box.restore(0);
            });
            waiters.add(t);
            awaitTrue(() -> box.waiters(0) == id + 1 && parked(t), "waiter " + id + " parked");
        }
        box.release(0);
        waiters.forEach(this::join);
        assertEquals(List.of(0, 1, 2, 3, 4, 5), order);
        assertTrue(box.free(0));
    }

    /**
     * A release with waiters hands the word to the first of them: it is never free, so a taker that arrives while
     * the first waiter holds it queues behind the second.
     */
    @Test
    void takerArrivingWhileOthersWaitQueuesBehindThem() {
        Watchdog watchdog = Concurrently.watchdog();
        LockBox box = new LockBox(1);
        CountDownLatch firstMayRestore = new CountDownLatch(1);
        List<String> order = new ArrayList<>();
        Thread first = start(() -> {
            box.take(0, watchdog, 0, 1, 0);
            order.add("first");
            awaitLatch(firstMayRestore);
            box.restore(0);
        });
        awaitTrue(() -> box.waiters(0) == 1 && parked(first), "first parked");
        Thread second = start(() -> {
            box.take(0, watchdog, 0, 2, 0);
            order.add("second");
            box.restore(0);
        });
        awaitTrue(() -> box.waiters(0) == 2 && parked(second), "second parked");
        box.release(0);
        assertFalse(box.free(0), "released with waiters, the word went straight to the oldest");
        assertEquals(1, box.waiters(0));
        Thread late = start(() -> {
            box.take(0, watchdog, 0, 3, 0);
            order.add("late");
            box.restore(0);
        });
        awaitTrue(() -> box.waiters(0) == 2, "the late taker queued");
        firstMayRestore.countDown();
        List.of(first, second, late).forEach(this::join);
        assertEquals(List.of("first", "second", "late"), order);
    }

    /**
     * A parked waiter and a fresh taker race for each release: a lock that frees the word on release lets the
     * running taker in before the waiter wakes; the lock-box hands the word to the waiter every time.
     */
    @Test
    void freshTakerRacingAReleaseNeverBargesPastAParkedWaiter() {
        Watchdog watchdog = Concurrently.watchdog();
        for (int round = 0; round < 100; round++) {
            LockBox box = new LockBox(1);
            List<String> order = new ArrayList<>();
            Thread waiter = start(() -> {
                box.take(0, watchdog, 0, 1, 0);
                order.add("waiter");
                box.restore(0);
            });
            awaitTrue(() -> box.waiters(0) == 1 && parked(waiter), "waiter parked");
            CountDownLatch go = new CountDownLatch(1);
            Thread barger = start(() -> {
                awaitLatch(go);
                box.take(0, watchdog, 0, 2, 0);
                order.add("barger");
                box.restore(0);
            });
            go.countDown();
            box.release(0);
            join(waiter);
            join(barger);
            assertEquals(List.of("waiter", "barger"), order, "round " + round);
        }
    }

    @Test
    void parkedWaiterUsesNoCpu() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadCpuTimeSupported());
        threads.setThreadCpuTimeEnabled(true);
        LockBox box = new LockBox(1);
        Thread waiter = start(() -> box.take(0, Concurrently.watchdog(), 0, 1, 0));
        awaitTrue(() -> box.waiters(0) == 1 && parked(waiter), "waiter parked");
        long before = threads.getThreadCpuTime(waiter.threadId());
        // park may return spuriously (its contract), and the waiter then re-checks its word and parks again: a sample
        // may catch it runnable, so the test asks for most samples parked and bounds the CPU it used
        int parkedSamples = 0;
        for (int i = 0; i < 20; i++) {
            sleepMillis(10);
            parkedSamples += parked(waiter) ? 1 : 0;
        }
        assertTrue(parkedSamples >= 15, "waiter parked in " + parkedSamples + " of 20 samples");
        long used = threads.getThreadCpuTime(waiter.threadId()) - before;
        assertTrue(used < TimeUnit.MILLISECONDS.toNanos(20), "waiter used " + used / 1000 + " us of CPU in 200 ms");
        box.release(0);
        join(waiter);
        assertFalse(box.free(0), "the waiter holds the word");
    }

    @Test
    void wordNeverReleasedStallsNamingTheWaiterAndLeavesTheQueue() {
        LockBox box = new LockBox(2);
        long start = System.nanoTime();
        StallException e = assertThrows(StallException.class,
                () -> box.take(1, Concurrently.shortWatchdog(), 3, 1, 0));
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(millis >= 200 && millis < 5_000, "stall took " + millis + " ms");
        assertEquals(List.of("cell 1 waits on channel 3 for cell 0"), e.waits());
        assertEquals(0, box.waiters(1));
        box.release(1);
        assertTrue(box.free(1), "the word went free: no waiter left queued");
    }

    /** A waiter that stalls leaves its place; the waiter behind it still gets the word from the next release. */
    @Test
    void stalledWaiterLeavesTheQueueToTheOthers() {
        LockBox box = new LockBox(1, TimeUnit.MILLISECONDS.toNanos(1));
        Watchdog watchdog = Concurrently.watchdog();
        Watchdog stalling = Concurrently.watchdog();
        AtomicInteger stalls = new AtomicInteger();
        Thread quitter = start(() -> {
            try {
                box.take(0, stalling, 0, 1, 0);
            } catch (StallException e) {
                stalls.incrementAndGet();
            }
        });
        awaitTrue(() -> box.waiters(0) == 1, "quitter queued");
        int[] data = new int[1];
        Thread patient = start(() -> {
            box.take(0, watchdog, 0, 2, 0);
            assertEquals(42, data[0]);
            box.restore(0);
        });
        awaitTrue(() -> box.waiters(0) == 2, "patient queued");
        stalling.abort();
        join(quitter);
        assertEquals(1, stalls.get());
        assertEquals(1, box.waiters(0));
        data[0] = 42;
        box.release(0);
        join(patient);
        assertTrue(box.free(0));
    }

    /**
     * A release races a stall of its only waiter: whether the waiter returns holding the word or leaves with the
     * exception (passing on a word granted meanwhile), the word ends free once everyone is done.
     */
    @Test
    void stallRacingAHandOffNeverLosesTheWord() {
        int[] outcomes = new int[2];
        for (int round = 0; round < 300; round++) {
            LockBox box = new LockBox(1, TimeUnit.MICROSECONDS.toNanos(50));
            Watchdog watchdog = Concurrently.watchdog();
            boolean[] stalled = new boolean[1];
            Thread waiter = start(() -> {
                try {
                    box.take(0, watchdog, 0, 1, 0);
                    box.restore(0);
                } catch (StallException e) {
                    stalled[0] = true;
                }
            });
            awaitTrue(() -> box.waiters(0) == 1, "waiter queued");
            CountDownLatch go = new CountDownLatch(1);
            Thread aborter = start(() -> {
                awaitLatch(go);
                watchdog.abort();
            });
            go.countDown();
            box.release(0);
            join(aborter);
            join(waiter);
            outcomes[stalled[0] ? 1 : 0]++;
            assertTrue(box.free(0), "round " + round + ": the word was lost");
            assertEquals(0, box.waiters(0));
        }
        assertEquals(300, outcomes[0] + outcomes[1]);
    }

    private static boolean parked(Thread t) {
        Thread.State s = t.getState();
        return s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING;
    }

    /** Starts an action on its own thread; {@link #join} rethrows the first failure of any. */
    private Thread start(Runnable action) {
        Thread t = new Thread(() -> {
            try {
                action.run();
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            }
        }, "lockbox-test");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private void join(Thread t) {
        try {
            t.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        assertFalse(t.isAlive(), t.getName() + " still running");
        if (failure.get() != null) {
            throw new AssertionError("a test thread failed", failure.get());
        }
    }

    private static void awaitLatch(CountDownLatch latch) {
        try {
            assertTrue(latch.await(30, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private static void awaitTrue(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - deadline < 0, "timed out waiting for: " + what);
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
        }
    }

    private static void sleepMillis(long millis) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        for (long left; (left = end - System.nanoTime()) > 0; ) {
            LockSupport.parkNanos(left);
        }
    }
}
