package dev.finegrain.runtime.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ReadyFlagsTest {
    private static final int TOKENS = 100_000;

    @Test
    void threeStagePipelineDeliversEveryValue() {
        Watchdog watchdog = Concurrently.watchdog();
        int[] first = new int[TOKENS];
        int[] second = new int[TOKENS];
        int[] firstReady = ReadyFlags.create(TOKENS);
        int[] secondReady = ReadyFlags.create(TOKENS);
        long[] sum = new long[1];
        Concurrently.run(
                () -> {
                    for (int i = 0; i < TOKENS; i++) {
                        first[i] = i * 3 + 1;
                        ReadyFlags.publish(firstReady, i);
                    }
                },
                () -> {
                    for (int i = 0; i < TOKENS; i++) {
                        ReadyFlags.await(firstReady, i, watchdog, 0, i, i);
                        second[i] = first[i] * 2;
                        ReadyFlags.publish(secondReady, i);
                    }
                },
                () -> {
                    for (int i = 0; i < TOKENS; i++) {
                        ReadyFlags.await(secondReady, i, watchdog, 1, i, i);
                        assertEquals((i * 3 + 1) * 2, second[i], "token " + i);
                        sum[0] += second[i];
                    }
                });
        assertEquals(2L * (3L * TOKENS * (TOKENS - 1) / 2 + TOKENS), sum[0]);
    }

    @Test
    void awaitOnAPublishedFlagReturnsAtOnce() {
        int[] flags = ReadyFlags.create(2);
        ReadyFlags.publish(flags, 1);
        ReadyFlags.await(flags, 1, Concurrently.shortWatchdog(), 0, 0, 0);
        assertEquals(0, flags[0]);
    }

    @Test
    void unpublishedFlagStallsWithinTheTimeoutNamingTheWaiter() {
        int[] flags = ReadyFlags.create(4);
        Watchdog watchdog = Concurrently.shortWatchdog();
        long start = System.nanoTime();
        StallException e = assertThrows(StallException.class, () -> ReadyFlags.await(flags, 3, watchdog, 1, 7, 6));
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(millis >= 200 && millis < 5_000, "stall took " + millis + " ms");
        assertEquals(List.of("cell 7 waits on channel 1 for cell 6"), e.waits());
        assertTrue(watchdog.stalled());
    }
}
