package dev.finegrain.dsl;

/**
 * Where dynamic dataflow keeps the tiles that became ready until a worker takes one (the fine-grained and lock-free
 * lecture's question, answered by measurement): LOCKED, one FIFO queue under one lock; MICHAEL_SCOTT, Michael and
 * Scott's lock-free queue (every worker on one head and one tail); WORK_STEALING, the JVM's default, a Chase-Lev
 * deque per worker (a worker fires what its own tiles made ready, and an idle one steals); RING, the GPU targets'
 * default, a ring of slots with a head and a tail counter (a producer draws a slot with fetch-and-add and fills it; a
 * consumer claims the next slot and waits for it to be filled), as GPU task queues are built, on every target.
 */
public enum ReadyQueue {
    WORK_STEALING("work-stealing"),
    LOCKED("locked-queue"),
    MICHAEL_SCOTT("ms-queue"),
    RING("ring");

    private final String cliName;

    ReadyQueue(String cliName) {
        this.cliName = cliName;
    }

    public String cliName() {
        return cliName;
    }

    public static java.util.Optional<ReadyQueue> fromCliName(String name) {
        return java.util.Arrays.stream(values()).filter(q -> q.cliName.equals(name)).findFirst();
    }

    @Override
    public String toString() {
        return cliName;
    }
}
