package dev.finegrain.runtime.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ParkingFlagsTest {
    private static final int TOKENS = 100_000;

    @Test
    void pipelineDeliversEveryValue() {
        Watchdog watchdog = Concurrently.watchdog();
        int[] first = new int[TOKENS];
        int[] second = new int[TOKENS];
        ParkingFlags firstReady = new ParkingFlags(TOKENS);
        ParkingFlags secondReady = new ParkingFlags(TOKENS);
        Concurrently.run(
                () -> {
                    for (int i = 0; i < TOKENS; i++) {
                        first[i] = i + 11;
                        firstReady.publish(i);
                    }
                },
                () -> {
                    for (int i = 0; i < TOKENS; i++) {
                        firstReady.await(i, watchdog, 0, i, i);
                        second[i] = first[i] * 5;
                        secondReady.publish(i);
                    }
                },
                () -> {
                    for (int i = 0; i < TOKENS; i++) {
                        secondReady.await(i, watchdog, 1, i, i);
                        assertEquals((i + 11) * 5, second[i], "token " + i);
                    }
                });
    }

    /**
     * Every await parks (no spinning) and a park lasts longer than the watchdog's timeout, so a single lost wakeup
     * turns into a StallException instead of a slow pass.
     */
    @Test
    void pingPongThroughParkedWaitersLosesNoWakeup() {
        int rounds = 10_000;
        Watchdog watchdog = new Watchdog(TimeUnit.SECONDS.toNanos(2), Concurrently.DESCRIBER);
        long slice = TimeUnit.SECONDS.toNanos(20);
        ParkingFlags ping = new ParkingFlags(rounds, 0, slice);
        ParkingFlags pong = new ParkingFlags(rounds, 0, slice);
        int[] ball = new int[rounds];
        Concurrently.run(
                () -> {
                    for (int i = 0; i < rounds; i++) {
                        ball[i] = i;
                        ping.publish(i);
                        pong.await(i, watchdog, 1, 0, 1);
                        assertEquals(i + 1, ball[i], "round " + i);
                    }
                },
                () -> {
                    for (int i = 0; i < rounds; i++) {
                        ping.await(i, watchdog, 0, 1, 0);
                        ball[i]++;
                        pong.publish(i);
                    }
                });
    }

    @Test
    void publishWakesEveryParkedWaiterOfTheWord() {
        Watchdog watchdog = Concurrently.watchdog();
        ParkingFlags flags = new ParkingFlags(1, 0, TimeUnit.SECONDS.toNanos(20));
        int[] data = new int[1];
        Runnable waiter = () -> {
            flags.await(0, watchdog, 0, 1, 0);
            assertEquals(42, data[0]);
        };
        Concurrently.run(waiter, waiter, waiter, () -> {
            LockSupportSleep.millis(50);
            data[0] = 42;
            flags.publish(0);
        });
    }

    @Test
    void waitersInDifferentChunksOfStacksAreWoken() {
        Watchdog watchdog = Concurrently.watchdog();
        int[] words = {0, ParkingFlags.CHUNK - 1, ParkingFlags.CHUNK, 3 * ParkingFlags.CHUNK - 1};
        ParkingFlags flags = new ParkingFlags(3 * ParkingFlags.CHUNK, 0, TimeUnit.SECONDS.toNanos(20));
        int[] data = new int[words.length];
        Runnable[] parties = new Runnable[words.length + 1];
        for (int w = 0; w < words.length; w++) {
            int index = w;
            parties[w] = () -> {
                flags.await(words[index], watchdog, 0, 1, 0);
                assertEquals(index + 1, data[index], "word " + words[index]);
            };
        }
        parties[words.length] = () -> {
            LockSupportSleep.millis(50);
            for (int w = words.length - 1; w >= 0; w--) {
                data[w] = w + 1;
                flags.publish(words[w]);
            }
        };
        Concurrently.run(parties);
    }

    @Test
    void unpublishedFlagStallsWithinTheTimeoutNamingTheWaiter() {
        ParkingFlags flags = new ParkingFlags(2);
        long start = System.nanoTime();
        StallException e = assertThrows(StallException.class,
                () -> flags.await(1, Concurrently.shortWatchdog(), 4, 12, 11));
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(millis >= 200 && millis < 5_000, "stall took " + millis + " ms");
        assertEquals(List.of("cell 12 waits on channel 4 for cell 11"), e.waits());
    }

    /** Sleeps without a checked exception, for a producer that must come after its consumers parked. */
    private static final class LockSupportSleep {
        static void millis(long millis) {
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
            for (long left; (left = end - System.nanoTime()) > 0; ) {
                java.util.concurrent.locks.LockSupport.parkNanos(left);
            }
        }
    }
}
