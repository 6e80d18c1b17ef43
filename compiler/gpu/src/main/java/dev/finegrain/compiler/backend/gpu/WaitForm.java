package dev.finegrain.compiler.backend.gpu;

/** How a lock-dataflow thread waits for the tokens of its channels. */
public enum WaitForm {
    /**
     * Each lane waits for its tokens one after another (seed 001 Listings 4, 11, 13): safe when every channel links
     * different warps, and a lane cannot hold one shared token while it waits for another.
     */
    IN_TURN("each lane waits for its tokens in turn"),
    /**
     * One loop tries every token not yet held, and a lane fires inside the loop as soon as it holds them all (seed
     * 001 Listings 8, 14, 15), restoring shared tokens at once: no SIMD deadlock when a channel links two lanes of
     * one warp, and no hold-and-wait between two shared channels.
     */
    CRITICAL_SECTION("critical-section loop: a lane fires inside the loop once it holds every token"),
    /** One token per warp: the warp waits for its producer warps, its representative publishes once it reconverged. */
    WARP("one token per warp, published by the warp's representative after the lanes reconverge");

    private final String description;

    WaitForm(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
