package dev.finegrain.runtime.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class PackedReadyWordsTest {
    private static final int TOKENS = 100_000;

    @Test
    void pipelineCarriesValuesInTheWordsAndDataBesideThem() {
        Watchdog watchdog = Concurrently.watchdog();
        long[] first = PackedReadyWords.create(TOKENS);
        long[] second = PackedReadyWords.create(TOKENS);
        int[] side = new int[TOKENS];
        Concurrently.run(
                () -> {
                    for (int i = 0; i < TOKENS; i++) {
                        side[i] = i + 5;
                        PackedReadyWords.publish(first, i, -i);
                    }
                },
                () -> {
                    for (int i = 0; i < TOKENS; i++) {
                        int v = PackedReadyWords.await(first, i, watchdog, 0, i, i);
                        PackedReadyWords.publish(second, i, v - side[i]);
                    }
                },
                () -> {
                    for (int i = 0; i < TOKENS; i++) {
                        int v = PackedReadyWords.await(second, i, watchdog, 1, i, i);
                        assertEquals(-2 * i - 5, v, "token " + i);
                        assertEquals(v, PackedReadyWords.value(second, i), "token " + i);
                    }
                });
    }

    @Test
    void extremeValuesRoundTrip() {
        long[] words = PackedReadyWords.create(3);
        int[] values = {Integer.MIN_VALUE, 0, Integer.MAX_VALUE};
        for (int i = 0; i < 3; i++) {
            PackedReadyWords.publish(words, i, values[i]);
        }
        for (int i = 0; i < 3; i++) {
            assertEquals(values[i], PackedReadyWords.await(words, i, Concurrently.shortWatchdog(), 0, 0, 0));
        }
    }

    @Test
    void unpublishedWordStallsNamingTheWaiter() {
        long[] words = PackedReadyWords.create(1);
        StallException e = assertThrows(StallException.class,
                () -> PackedReadyWords.await(words, 0, Concurrently.shortWatchdog(), 2, 9, 8));
        assertEquals(List.of("cell 9 waits on channel 2 for cell 8"), e.waits());
    }
}
