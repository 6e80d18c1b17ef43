package dev.finegrain.runtime.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RingCountersTest {
    private static final int BLOCKS = 200_000;
    private static final int CAPACITY = 4;

    /**
     * Two workers, blocks dealt in turn: worker 0 produces even blocks into a ring of four slots, worker 1 reads each
     * into the next odd block. The producer waits for space (the block that read the slot's old value), the consumer
     * for data: every value arrives intact, and the producer is never more than the ring ahead of its consumer.
     */
    @Test
    void aRingOfFourSlotsCarriesEveryValueAndHoldsItsProducerBack() {
        Watchdog watchdog = Concurrently.watchdog();
        long[] counters = RingCounters.create(2);
        long[] ring = new long[CAPACITY];
        AtomicInteger consumed = new AtomicInteger();
        int[] maxAhead = new int[1];
        long[] sum = new long[1];
        Concurrently.run(
                () -> {
                    for (int block = 0; block < BLOCKS; block += 2) {
                        // this slot last held the value of block - 2 * CAPACITY, read by the block after it
                        RingCounters.awaitBlock(counters, block - 2 * CAPACITY + 1, 2, watchdog, RingCounters.SPACE_CHANNEL, block, 0);
                        maxAhead[0] = Math.max(maxAhead[0], block / 2 - consumed.get());
                        ring[(block / 2) % CAPACITY] = block * 7L + 1;
                        RingCounters.finish(counters, block, 2);
                    }
                },
                () -> {
                    for (int block = 1; block < BLOCKS; block += 2) {
                        RingCounters.awaitBlock(counters, block - 1, 2, watchdog, 0, block, block - 1);
                        long value = ring[((block - 1) / 2) % CAPACITY];
                        assertEquals((block - 1) * 7L + 1, value, "block " + block);
                        sum[0] += value;
                        consumed.incrementAndGet();
                        RingCounters.finish(counters, block, 2);
                    }
                });
        assertEquals(BLOCKS / 2, consumed.get());
        assertTrue(maxAhead[0] <= CAPACITY, "the producer ran " + maxAhead[0] + " values ahead of a ring of " + CAPACITY);
    }

    @Test
    void aBlockIsFinishedOnceItsWorkerCountsItAndEarlierBlocksOfThatWorkerWithIt() {
        long[] counters = RingCounters.create(3);
        assertFalse(RingCounters.finished(counters, 4, 3));
        RingCounters.finish(counters, 1, 3);
        RingCounters.finish(counters, 4, 3);   // worker 1's second block: its first, block 1, came before it
        assertTrue(RingCounters.finished(counters, 1, 3));
        assertTrue(RingCounters.finished(counters, 4, 3));
        assertFalse(RingCounters.finished(counters, 7, 3));
        assertFalse(RingCounters.finished(counters, 0, 3));
        RingCounters.awaitBlocksThrough(counters, -1, 3, Concurrently.watchdog(), 0, 1);   // nothing before block 0
    }

    @Test
    void aWaitForABlockThatNeverFinishesEndsInTheStallReport() {
        long[] counters = RingCounters.create(2);
        StallException stall = org.junit.jupiter.api.Assertions.assertThrows(StallException.class,
                () -> RingCounters.awaitBlock(counters, 1, 2, Concurrently.shortWatchdog(), RingCounters.SPACE_CHANNEL, 4, 1));
        // the watchdog's describer names the waiting point, the space channel and the block it waits for
        assertTrue(stall.waits().stream().anyMatch(w -> w.contains("cell 4 waits on channel " + RingCounters.SPACE_CHANNEL
                + " for cell 1")), stall.getMessage());
    }

    /** A 2D wait names its points by longs: a folded run may number more points than an int holds (65536 x 65536). */
    @Test
    void aRowWaitBeyondIntPointsStallsNamingItsPoints() {
        long[] counters = RingCounters.create(2);
        long consumer = 65535L * 65536 + 32768;
        StallException e = org.junit.jupiter.api.Assertions.assertThrows(StallException.class,
                () -> RingCounters.awaitRows(counters, 0, 0, 65536, 2, Concurrently.shortWatchdog(), 1, consumer, consumer - 1));
        assertEquals(java.util.List.of("cell 4294934528 waits on channel 1 for cell 4294934527"), e.waits());
    }
}
