package dev.finegrain.runtime.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class SenseBarrierTest {

    /** Each phase every worker writes its slot, then reads all slots; no worker may run ahead or lag a phase. */
    @Test
    void everyWorkerSeesEveryWriteOfThePhaseBeforeTheBarrier() {
        int parties = 3;
        int phases = 2_000;
        Watchdog watchdog = Concurrently.watchdog();
        SenseBarrier barrier = new SenseBarrier(parties);
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
    void singlePartyNeverWaits() {
        SenseBarrier barrier = new SenseBarrier(1);
        for (int i = 0; i < 3; i++) {
            barrier.await(0, Concurrently.shortWatchdog());
        }
        assertEquals(1, barrier.parties());
    }

    @Test
    void missingPartyStallsWithABarrierWait() {
        SenseBarrier barrier = new SenseBarrier(2);
        StallException e = assertThrows(StallException.class, () -> barrier.await(0, Concurrently.shortWatchdog()));
        assertEquals(List.of("cell -1 waits on channel -1 for cell -1"), e.waits());
    }
}
