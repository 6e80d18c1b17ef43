package dev.finegrain.dsl;

/**
 * How a producer hands its token to consumers (seed 001, §6). SHARED: one token per producer; a consumer takes
 * it, reads, and restores it, so consumers may false-wait for each other (Figure 8). PRIVATE: one token per
 * producer/consumer edge; no restoring, three times the lock resources for NW (Figure 9).
 */
public enum ChannelPolicy {
    SHARED("shared"),
    PRIVATE("private");

    private final String cliName;

    ChannelPolicy(String cliName) {
        this.cliName = cliName;
    }

    public String cliName() {
        return cliName;
    }

    @Override
    public String toString() {
        return cliName;
    }
}
