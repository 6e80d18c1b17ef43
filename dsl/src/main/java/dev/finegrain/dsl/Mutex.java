package dev.finegrain.dsl;

/**
 * How a mechanism that holds a lock (atomic-spin-lock, shared-spin-lock) takes it (Stuart and Owens, "Efficient
 * synchronization primitives for GPUs"): TEST_AND_TEST_AND_SET, the default, reads the word until it looks free and
 * only then swaps; TEST_AND_SET swaps at every look; TICKET draws a ticket with one fetch-and-add and waits until it is
 * served, so waiters are served in order. Backoff between looks is the wait policy's ({@link WaitPolicy#BACKOFF}).
 */
public enum Mutex {
    TEST_AND_TEST_AND_SET("ttas"),
    TEST_AND_SET("tas"),
    TICKET("ticket");

    private final String cliName;

    Mutex(String cliName) {
        this.cliName = cliName;
    }

    public String cliName() {
        return cliName;
    }

    public static java.util.Optional<Mutex> fromCliName(String name) {
        return java.util.Arrays.stream(values()).filter(m -> m.cliName.equals(name)).findFirst();
    }

    @Override
    public String toString() {
        return cliName;
    }
}
