package dev.finegrain.runtime.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The token waits' policies (adaptive spin, yield, then park by default): late tokens still arrive, stalls are still reported. */
class WaitPolicyTest {
    /** Far past the spin and yield phases (well under a millisecond), so the waiter is parked when the token comes. */
    private static final long LATE_MILLIS = 100;

    @Test
    void parksDoubleFromTheFirstParkUpToTheCap() {
        long first = WaitPolicy.firstPark();
        assertEquals(WaitPolicy.MIN_PARK_NANOS, WaitPolicy.parkNanos(first));
        assertEquals(2 * WaitPolicy.MIN_PARK_NANOS, WaitPolicy.parkNanos(first + 1));
        assertEquals(4 * WaitPolicy.MIN_PARK_NANOS, WaitPolicy.parkNanos(first + 2));
        assertEquals(WaitPolicy.MAX_PARK_NANOS, WaitPolicy.parkNanos(first + 1_000));
        assertEquals(WaitPolicy.MAX_PARK_NANOS, WaitPolicy.parkNanos(Long.MAX_VALUE));
    }

    /** Every policy: a token published late still reaches its waiter with the data, and a stall is still reported. */
    @Test
    void everyPolicyDeliversALateTokenAndReportsAStall() {
        for (WaitPolicy policy : WaitPolicy.values()) {
            int[] data = new int[1];
            int[] flags = ReadyFlags.create(1);
            int[] seen = new int[1];
            Watchdog watchdog = new Watchdog(Watchdog.DEFAULT_TIMEOUT_NANOS, Concurrently.DESCRIBER, policy);
            long waited = waitedMillis(() -> {
                ReadyFlags.await(flags, 0, watchdog, 0, 1, 0);
                seen[0] = data[0];
            }, () -> {
                data[0] = 42;
                ReadyFlags.publish(flags, 0);
            });
            assertEquals(42, seen[0], policy.toString());
            assertTrue(waited >= LATE_MILLIS, policy + " returned after " + waited + " ms, before the token was published");

            int[] mutex = SpinLockTokens.createHeld(1);
            Watchdog short_ = new Watchdog(200_000_000L, Concurrently.DESCRIBER, policy);
            long start = System.nanoTime();
            StallException stall = assertThrows(StallException.class, () -> SpinLockTokens.take(mutex, 0, short_, 3, 7, 6));
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(millis >= 200 && millis < 1_200, policy + ": the stall took " + millis + " ms");
            assertEquals(List.of("cell 7 waits on channel 3 for cell 6"), stall.waits(), policy.toString());
        }
    }

    @Test
    void readyFlagPublishedLateReachesAParkedWaiterWithTheData() {
        int[] data = new int[1];
        int[] flags = ReadyFlags.create(1);
        int[] seen = new int[1];
        long waited = waitedMillis(() -> {
            ReadyFlags.await(flags, 0, Concurrently.watchdog(), 0, 1, 0);
            seen[0] = data[0];
        }, () -> {
            data[0] = 42;
            ReadyFlags.publish(flags, 0);
        });
        assertEquals(42, seen[0]);
        assertTrue(waited >= LATE_MILLIS, "returned after " + waited + " ms, before the token was published");
    }

    @Test
    void packedWordPublishedLateReachesAParkedWaiterWithItsValue() {
        long[] words = PackedReadyWords.create(1);
        int[] seen = new int[1];
        waitedMillis(() -> seen[0] = PackedReadyWords.await(words, 0, Concurrently.watchdog(), 0, 1, 0),
                () -> PackedReadyWords.publish(words, 0, -7));
        assertEquals(-7, seen[0]);
    }

    @Test
    void spinLockTokenReleasedLateIsTakenByAParkedWaiter() {
        int[] mutex = SpinLockTokens.createHeld(1);
        int[] data = new int[1];
        int[] seen = new int[1];
        waitedMillis(() -> {
            SpinLockTokens.take(mutex, 0, Concurrently.watchdog(), 0, 1, 0);
            seen[0] = data[0];
        }, () -> {
            data[0] = 9;
            SpinLockTokens.release(mutex, 0);
        });
        assertEquals(9, seen[0]);
    }

    @Test
    void parkedWaitStallsWithinTheTimeoutNamingTheWaiter() {
        long[] words = PackedReadyWords.create(1);
        Watchdog watchdog = Concurrently.shortWatchdog();
        long start = System.nanoTime();
        StallException e = assertThrows(StallException.class,
                () -> PackedReadyWords.await(words, 0, watchdog, 2, 5, 4));
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        long timeoutMillis = TimeUnit.NANOSECONDS.toMillis(watchdog.timeoutNanos());
        assertTrue(millis >= timeoutMillis && millis < timeoutMillis + 1_000, "stall took " + millis + " ms");
        assertEquals(List.of("cell 5 waits on channel 2 for cell 4"), e.waits());
    }

    @Test
    void aStallDeclaredElsewhereEndsAParkedWaitAtOnce() {
        int[] flags = ReadyFlags.create(1);
        Watchdog watchdog = Concurrently.watchdog();
        AtomicReference<Throwable> ended = new AtomicReference<>();
        long[] endedAt = new long[1];
        Thread waiter = new Thread(() -> {
            try {
                ReadyFlags.await(flags, 0, watchdog, 0, 1, 0);
            } catch (Throwable t) {
                ended.set(t);
            }
            endedAt[0] = System.nanoTime();
        });
        waiter.setDaemon(true);
        waiter.start();
        sleep(LATE_MILLIS);
        long declared = System.nanoTime();
        assertThrows(StallException.class, () -> watchdog.declareStall(9, 9, 9));
        join(waiter);
        assertTrue(ended.get() instanceof StallException, "the waiter ended with " + ended.get());
        long lateMillis = TimeUnit.NANOSECONDS.toMillis(endedAt[0] - declared);
        assertTrue(lateMillis < 1_000, "the parked waiter saw the stall after " + lateMillis + " ms");
        assertEquals(2, watchdog.recordedWaits().size());
    }

    /** Runs {@code await} on a thread, runs {@code publish} {@link #LATE_MILLIS} later here; the waiter's time. */
    private static long waitedMillis(Runnable await, Runnable publish) {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long[] returnedAt = new long[1];
        Thread waiter = new Thread(() -> {
            try {
                await.run();
                returnedAt[0] = System.nanoTime();
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        waiter.setDaemon(true);
        long start = System.nanoTime();
        waiter.start();
        sleep(LATE_MILLIS);
        publish.run();
        join(waiter);
        if (failure.get() != null) {
            throw new AssertionError("the waiter failed", failure.get());
        }
        return TimeUnit.NANOSECONDS.toMillis(returnedAt[0] - start);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private static void join(Thread t) {
        try {
            t.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        assertTrue(!t.isAlive(), "the waiter is still waiting");
    }
}
