package dev.finegrain.runtime.jvm;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Every item put into a ready structure is taken exactly once, under contention, whatever the structure grows to. */
class ReadyStructuresTest {
    private static final int WORKERS = 4;
    private static final int ITEMS_PER_WORKER = 50_000;

    @Test
    void everyItemIsTakenExactlyOnce() throws InterruptedException {
        List<IntFunction<ReadyStructure>> structures = List.of(workers -> new LockedReadyQueue(),
                workers -> new MichaelScottQueue(), WorkStealingDeques::new);
        for (IntFunction<ReadyStructure> make : structures) {
            ReadyStructure ready = make.apply(WORKERS);
            int total = WORKERS * ITEMS_PER_WORKER;
            AtomicIntegerArray taken = new AtomicIntegerArray(total);
            AtomicInteger remaining = new AtomicInteger(total);
            Thread[] threads = new Thread[WORKERS];
            for (int w = 0; w < WORKERS; w++) {
                int worker = w;
                threads[w] = Thread.ofPlatform().start(() -> {
                    int next = 0;
                    while (remaining.get() > 0) {
                        // put in bursts, as producers make several consumers ready at once; take in between
                        for (int burst = 0; burst < 3 && next < ITEMS_PER_WORKER; burst++) {
                            ready.put(worker, worker * ITEMS_PER_WORKER + next++);
                        }
                        int item = ready.take(worker);
                        if (item != ReadyStructure.EMPTY) {
                            taken.incrementAndGet(item);
                            remaining.decrementAndGet();
                        }
                    }
                });
            }
            for (Thread thread : threads) {
                thread.join();
            }
            for (int item = 0; item < total; item++) {
                assertEquals(1, taken.get(item), ready.getClass().getSimpleName() + " item " + item);
            }
        }
    }

    @Test
    void aDequesOwnerTakesItsNewestAndAThiefItsOldest() {
        WorkStealingDeques deques = new WorkStealingDeques(2);
        for (int item = 0; item < 100; item++) {
            deques.put(0, item);   // past the first array's 32 slots: it grows
        }
        assertEquals(99, deques.take(0));
        assertEquals(0, deques.take(1), "worker 1's deque is empty, so it steals worker 0's oldest");
        assertEquals(1, deques.steal(0));
        assertEquals(98, deques.pop(0));
    }
}
