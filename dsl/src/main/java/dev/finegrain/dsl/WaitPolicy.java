package dev.finegrain.dsl;

/**
 * How a waiter passes the time between two looks at a token that is not there yet (Stuart and Owens, "Efficient
 * synchronization primitives for GPUs": the best way to wait differs by machine and load, so it is a choice).
 * ADAPTIVE, the default, spins briefly, then yields, then sleeps with a doubling timeout; SPIN only spins; BACKOFF
 * spins with exponential backoff between looks; SLEEP sleeps from the first miss. On the JVM it applies to the token
 * waits of acquire-release, tiny-lock and the spin-locks (blocking and lock-box park by their own protocol).
 */
public enum WaitPolicy {
    ADAPTIVE("adaptive"),
    SPIN("spin"),
    BACKOFF("backoff"),
    SLEEP("sleep");

    private final String cliName;

    WaitPolicy(String cliName) {
        this.cliName = cliName;
    }

    public String cliName() {
        return cliName;
    }

    public static java.util.Optional<WaitPolicy> fromCliName(String name) {
        return java.util.Arrays.stream(values()).filter(p -> p.cliName.equals(name)).findFirst();
    }

    @Override
    public String toString() {
        return cliName;
    }
}
