package dev.finegrain.runtime.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

class SenseBarrierTest {

    /** Each phase every worker writes its slot, then reads all slots; no worker may run ahead or lag a phase. */
    @Test
    void everyWorkerSeesEveryWriteOfThePhaseBeforeTheBarrier() {
        everyWorkerSeesEveryWriteOfThePhase(new SenseBarrier(3), 2_000);
    }

    /** The same with waiters that park at once: the last arrival must wake them, and what they see is the same. */
    @Test
    void parkedWaitersSeeEveryWriteOfThePhaseBeforeTheBarrier() {
        everyWorkerSeesEveryWriteOfThePhase(new SenseBarrier(3, 0L), 500);
    }

    /**
     * Waiters that park at once and would sleep a minute unless unparked: a lost wakeup would hold a phase for the
     * whole slice, and the run would miss its deadline.
     */
    @Test
    void theLastArrivalUnparksTheParkedWaiters() {
        SenseBarrier barrier = new SenseBarrier(2, 0L, 60_000_000_000L);
        Watchdog watchdog = Concurrently.watchdog();
        int phases = 300;
        long start = System.nanoTime();
        Concurrently.run(
                () -> {
                    for (int phase = 0; phase < phases; phase++) {
                        barrier.await(0, watchdog);
                    }
                },
                () -> {
                    for (int phase = 0; phase < phases; phase++) {
                        barrier.await(1, watchdog);
                    }
                });
        assertTrue(System.nanoTime() - start < 20_000_000_000L, "300 phases took longer than 20 s");
    }

    /**
     * A waiter that spins past its budget parks, and leaves as soon as the last one arrives: the last arrival waits
     * until the waiter is parked on the barrier, and the waiter must be back well within its 60 s park slice, so only
     * the arrival's unpark can have woken it.
     */
    @Test
    void aWaiterThatSpunOutParksUntilTheLastArrival() {
        SenseBarrier barrier = new SenseBarrier(2, 1_000L, 60_000_000_000L);
        Watchdog watchdog = Concurrently.watchdog();
        AtomicReference<Thread> waiter = new AtomicReference<>();
        long[] left = new long[1];
        long[] arrived = new long[1];
        Concurrently.run(
                () -> {
                    waiter.set(Thread.currentThread());
                    barrier.await(0, watchdog);
                    left[0] = System.nanoTime();
                },
                () -> {
                    while (waiter.get() == null || LockSupport.getBlocker(waiter.get()) != barrier) {
                        Thread.onSpinWait();
                    }
                    arrived[0] = System.nanoTime();
                    barrier.await(1, watchdog);
                });
        assertFalse(watchdog.stalled());
        assertTrue(left[0] - arrived[0] < 10_000_000_000L, "the parked waiter left " + (left[0] - arrived[0]) + " ns after the arrival");
    }

    @Test
    void aParkedWaiterNoticesADepartureWithinASlice() {
        SenseBarrier barrier = new SenseBarrier(2, 0L, 1_000_000L);
        Concurrently.run(() -> {
            sleepMillis(20);
            barrier.depart();
        }, () -> assertThrows(StallException.class, () -> barrier.await(0, Concurrently.watchdog())));
    }

    private static void everyWorkerSeesEveryWriteOfThePhase(SenseBarrier barrier, int phases) {
        int parties = barrier.parties();
        Watchdog watchdog = Concurrently.watchdog();
        int[] slots = new int[parties];
        Runnable[] workers = new Runnable[parties];
        for (int w = 0; w < parties; w++) {
            int worker = w;
            workers[w] = () -> {
                for (int phase = 1; phase <= phases; phase++) {
                    slots[worker] = phase;
                    barrier.await(worker, watchdog);
                    for (int other = 0; other < parties; other++) {
                        assertEquals(phase, slots[other], "phase " + phase + ", slot " + other);
                    }
                    barrier.await(worker, watchdog);
                }
            };
        }
        Concurrently.run(workers);
    }

    @Test
    void aNegativeSpinIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new SenseBarrier(2, -1L));
    }

    @Test
    void singlePartyNeverWaits() {
        SenseBarrier barrier = new SenseBarrier(1);
        for (int i = 0; i < 3; i++) {
            barrier.await(0, Concurrently.shortWatchdog());
        }
        assertEquals(1, barrier.parties());
    }

    /** A broken plan: the other party finished its task without arriving, so this wait could never end. */
    @Test
    void aPartyThatDepartedWithoutArrivingStallsTheWait() {
        SenseBarrier barrier = new SenseBarrier(2);
        barrier.depart();
        StallException e = assertThrows(StallException.class, () -> barrier.await(0, Concurrently.shortWatchdog()));
        assertEquals(List.of("cell -1 waits on channel -2 for cell -1"), e.waits());
    }

    /** Found in review: a wait was timed like a token wait, so a peer's step longer than the timeout was a stall. */
    @Test
    void aStepLongerThanTheTimeoutIsNoStall() {
        SenseBarrier barrier = new SenseBarrier(2);
        Watchdog watchdog = Concurrently.shortWatchdog();
        Concurrently.run(
                () -> barrier.await(0, watchdog),
                () -> {
                    sleepMillis(3 * watchdog.timeoutNanos() / 1_000_000);
                    barrier.await(1, watchdog);
                });
        assertFalse(watchdog.stalled());
    }

    @Test
    void aStallDeclaredElsewhereEndsTheWait() {
        SenseBarrier barrier = new SenseBarrier(2);
        Watchdog watchdog = Concurrently.shortWatchdog();
        watchdog.abort();
        StallException e = assertThrows(StallException.class, () -> barrier.await(0, watchdog));
        assertTrue(e.afterAbort());
    }

    private static void sleepMillis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
