package dev.finegrain.runtime.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class SpinLockTokensTest {
    private static final int TOKENS = 100_000;

    @Test
    void privateChannelPipelineDeliversEveryValue() {
        Watchdog watchdog = Concurrently.watchdog();
        int[] data = new int[TOKENS];
        int[] mutex = SpinLockTokens.createHeld(TOKENS);
        Concurrently.run(
                () -> {
                    for (int i = 0; i < TOKENS; i++) {
                        data[i] = i ^ 0x5a5a;
                        SpinLockTokens.release(mutex, i);
                    }
                },
                () -> {
                    for (int i = 0; i < TOKENS; i++) {
                        SpinLockTokens.take(mutex, i, watchdog, 0, i, i);
                        assertEquals(i ^ 0x5a5a, data[i], "token " + i);
                    }
                });
    }

    @Test
    void sharedChannelTokenIsTakenAndRestoredByEveryConsumer() {
        Watchdog watchdog = Concurrently.watchdog();
        int tokens = TOKENS / 4;
        int[] data = new int[tokens];
        int[] mutex = SpinLockTokens.createHeld(tokens);
        Runnable consumer = () -> {
            for (int i = 0; i < tokens; i++) {
                SpinLockTokens.take(mutex, i, watchdog, 0, i, i);
                assertEquals(i * 7, data[i], "token " + i);
                SpinLockTokens.restore(mutex, i);
            }
        };
        Concurrently.run(() -> {
            for (int i = 0; i < tokens; i++) {
                data[i] = i * 7;
                SpinLockTokens.release(mutex, i);
            }
        }, consumer, consumer);
    }

    @Test
    void tokenAdmitsOneOwnerAtATime() {
        Watchdog watchdog = Concurrently.watchdog();
        int[] mutex = SpinLockTokens.createHeld(1);
        SpinLockTokens.release(mutex, 0);
        int rounds = TOKENS / 2;
        int[] counter = new int[1];
        Runnable incrementer = () -> {
            for (int i = 0; i < rounds; i++) {
                SpinLockTokens.take(mutex, 0, watchdog, 0, 0, 0);
                counter[0]++;
                SpinLockTokens.restore(mutex, 0);
            }
        };
        Concurrently.run(incrementer, incrementer);
        assertEquals(2 * rounds, counter[0]);
    }

    @Test
    void tokenNeverReleasedStallsNamingTheWaiter() {
        int[] mutex = SpinLockTokens.createHeld(1);
        StallException e = assertThrows(StallException.class,
                () -> SpinLockTokens.take(mutex, 0, Concurrently.shortWatchdog(), 3, 1, 0));
        assertEquals(List.of("cell 1 waits on channel 3 for cell 0"), e.waits());
    }
}
