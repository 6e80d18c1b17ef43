package dev.finegrain.dsl;

/**
 * Who owns a sync word (seed 001, §4.5). PER_THREAD: one per actor instance. WARP_SHARED: one per group of
 * consecutive actor instances (a warp of 32 by default), published once per group, which cuts lock resources
 * by the group size at the price of coarser waiting.
 */
public enum LockGranularity {
    PER_THREAD("per-thread"),
    WARP_SHARED("warp-shared");

    private final String cliName;

    LockGranularity(String cliName) {
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
