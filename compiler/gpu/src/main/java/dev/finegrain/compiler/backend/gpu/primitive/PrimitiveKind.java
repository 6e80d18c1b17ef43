package dev.finegrain.compiler.backend.gpu.primitive;

/** What a primitive guarantees, and so what one operation of the paper's benchmark is. */
public enum PrimitiveKind {
    /** Every block waits for every other: one operation is one barrier that all blocks pass. */
    BARRIER("barrier"),
    /** One block at a time: one operation is one block's lock and unlock (the critical section is empty). */
    MUTEX("mutex"),
    /** At most the initial value of blocks at a time: one operation is one block's wait and post. */
    SEMAPHORE("semaphore");

    private final String id;

    PrimitiveKind(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    /** Whether every block must be resident at once (a barrier's blocks wait for each other). */
    public boolean needsCoResidentBlocks() {
        return this == BARRIER;
    }

    /** Operations a run of {@code blocks} blocks, each doing {@code opsPerBlock}, completes. */
    public long operations(int blocks, int opsPerBlock) {
        return this == BARRIER ? opsPerBlock : (long) blocks * opsPerBlock;
    }
}
