package dev.finegrain.runtime.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The ticket mutex as a token: values arrive, one owner at a time, stalls reported; and test-and-set alike. */
class TicketTokensTest {
    private static final int TOKENS = 50_000;

    @Test
    void sharedChannelTokenIsTakenAndRestoredByEveryConsumer() {
        Watchdog watchdog = Concurrently.watchdog();
        int[] data = new int[TOKENS];
        int[] pairs = TicketTokens.createHeld(TOKENS);
        Runnable consumer = () -> {
            for (int i = 0; i < TOKENS; i++) {
                TicketTokens.take(pairs, i, watchdog, 0, i, i);
                assertEquals(i * 7, data[i], "token " + i);
                TicketTokens.restore(pairs, i);
            }
        };
        Concurrently.run(() -> {
            for (int i = 0; i < TOKENS; i++) {
                data[i] = i * 7;
                TicketTokens.release(pairs, i);
            }
        }, consumer, consumer);
    }

    @Test
    void aTicketAdmitsOneOwnerAtATime() {
        Watchdog watchdog = Concurrently.watchdog();
        int[] pairs = TicketTokens.createHeld(1);
        TicketTokens.release(pairs, 0);
        int rounds = TOKENS;
        int[] counter = new int[1];
        Runnable incrementer = () -> {
            for (int i = 0; i < rounds; i++) {
                TicketTokens.take(pairs, 0, watchdog, 0, 0, 0);
                counter[0]++;
                TicketTokens.restore(pairs, 0);
            }
        };
        Concurrently.run(incrementer, incrementer);
        assertEquals(2 * rounds, counter[0]);
    }

    @Test
    void testAndSetAdmitsOneOwnerAtATime() {
        Watchdog watchdog = Concurrently.watchdog();
        int[] mutex = SpinLockTokens.createHeld(1);
        SpinLockTokens.release(mutex, 0);
        int[] counter = new int[1];
        Runnable incrementer = () -> {
            for (int i = 0; i < TOKENS; i++) {
                SpinLockTokens.takeBySwap(mutex, 0, watchdog, 0, 0, 0);
                counter[0]++;
                SpinLockTokens.restore(mutex, 0);
            }
        };
        Concurrently.run(incrementer, incrementer);
        assertEquals(2 * TOKENS, counter[0]);
    }

    @Test
    void aTicketNeverServedStallsNamingTheWaiter() {
        int[] pairs = TicketTokens.createHeld(1);
        StallException e = assertThrows(StallException.class,
                () -> TicketTokens.take(pairs, 0, Concurrently.shortWatchdog(), 3, 1, 0));
        assertEquals(List.of("cell 1 waits on channel 3 for cell 0"), e.waits());
    }
}
