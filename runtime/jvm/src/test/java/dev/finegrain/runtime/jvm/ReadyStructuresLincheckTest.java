package dev.finegrain.runtime.jvm;

import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * Lincheck: the four ready structures are linearizable. The three queues against a FIFO queue (their class on one
 * thread); a Chase-Lev deque against a deque whose owner pushes and pops at the bottom and thieves steal at the top
 * (owner operations never run in parallel with each other, as only the owning worker calls them). Model checking
 * explores the interleavings of the CASes and the volatile accesses; stress mode runs real threads.
 */
class ReadyStructuresLincheckTest {

    @Param(name = "item", gen = IntGen.class, conf = "0:9")
    public static class LockedQueue {
        private final LockedReadyQueue queue = new LockedReadyQueue();

        @Operation
        public void put(@Param(name = "item") int item) {
            queue.put(0, item);
        }

        @Operation
        public int take() {
            return queue.take(0);
        }
    }

    @Param(name = "item", gen = IntGen.class, conf = "0:9")
    public static class LockFreeQueue {
        private final MichaelScottQueue queue = new MichaelScottQueue();

        @Operation
        public void put(@Param(name = "item") int item) {
            queue.put(0, item);
        }

        @Operation
        public int take() {
            return queue.take(0);
        }
    }

    @Param(name = "item", gen = IntGen.class, conf = "0:9")
    public static class Ring {
        private final TicketRing ring = new TicketRing(64);

        @Operation
        public void put(@Param(name = "item") int item) {
            ring.put(0, item);
        }

        @Operation
        public int take() {
            return ring.take(0);
        }
    }

    @Param(name = "item", gen = IntGen.class, conf = "0:9")
    public static class ChaseLev {
        private final WorkStealingDeques deques = new WorkStealingDeques(1);

        @Operation(nonParallelGroup = "owner")
        public void push(@Param(name = "item") int item) {
            deques.put(0, item);
        }

        @Operation(nonParallelGroup = "owner")
        public int pop() {
            return deques.pop(0);
        }

        @Operation
        public int steal() {
            return deques.steal(0);
        }
    }

    private static void check(Class<?> structure) {
        new ModelCheckingOptions().iterations(10).invocationsPerIteration(200).threads(3).actorsPerThread(3)
                .check(structure);
        new StressOptions().iterations(8).invocationsPerIteration(500).threads(3).actorsPerThread(4)
                .check(structure);
    }

    @Test
    void theLockedQueueIsLinearizable() {
        check(LockedQueue.class);
    }

    @Test
    void theMichaelScottQueueIsLinearizable() {
        check(LockFreeQueue.class);
    }

    @Test
    void theTicketRingIsLinearizable() {
        check(Ring.class);
    }

    @Test
    void aChaseLevDequeIsLinearizable() {
        check(ChaseLev.class);
    }
}
