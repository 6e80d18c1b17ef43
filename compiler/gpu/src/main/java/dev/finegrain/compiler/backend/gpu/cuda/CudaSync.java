package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.ir.IrActor;
import dev.finegrain.compiler.ir.IrField;

/**
 * A lock mechanism's protocol in CUDA C++, one class per mechanism: what {@link CudaLockDataflow} writes at each
 * sync point. Per-thread mechanisms spell the first group, warp mechanisms the second; which are called is the
 * mapping's wait form.
 */
public interface CudaSync {

    /** Whether state words carry a ready bit beside their 32-bit value (tiny-lock's shared channels). */
    default boolean packsStateWords(CudaSyncContext cx) {
        return false;
    }

    /** The type of one token word. */
    default String tokenType() {
        return "int";
    }

    /** After the copy-in: every token in its first state, producers' not ready, halo words' ready. */
    void initTokens(CudaSyncContext cx);

    // ---- per-thread tokens

    /** Critical-section form: one attempt at channel {@code c}'s token, setting bool {@code have} when it is held. */
    default void tryTake(CudaSyncContext cx, int c, String have) {
        throw new IllegalStateException(getClass().getSimpleName() + " keeps no per-thread token");
    }

    /** In-turn form: spins until channel {@code c}'s token is held. */
    default void waitInTurn(CudaSyncContext cx, int c) {
        throw new IllegalStateException(getClass().getSimpleName() + " keeps no per-thread token");
    }

    /** Stores what {@code actor} produced at this thread's point into the tile and publishes its token. */
    void publish(CudaSyncContext cx, IrActor actor, String value);

    /** In-turn form, shared channels: gives channel {@code c}'s token back after firing. */
    default void restore(CudaSyncContext cx, int c) {
    }

    /** Private channels: frees channel {@code c}'s token for good once the consumer has fired. */
    default void finalizePrivate(CudaSyncContext cx, int c) {
    }

    // ---- one token per warp

    /** Waits until the warp {@code warpDistance} before this one has published channel {@code c}. */
    default void waitForWarp(CudaSyncContext cx, int c, int warpDistance) {
        throw new IllegalStateException(getClass().getSimpleName() + " keeps per-thread tokens");
    }

    /** Publishes the warp's token once its lanes have met at {@code __syncwarp}. */
    default void publishWarp(CudaSyncContext cx) {
        throw new IllegalStateException(getClass().getSimpleName() + " keeps per-thread tokens");
    }

    // ---- band edges of lock-dataflow:persistent, between warps of any blocks, in device memory

    /** The type of one edge token in device memory. */
    default String bandTokenType(CudaBandContext cx) {
        throw new IllegalStateException(getClass().getSimpleName() + " keeps no device-memory tokens");
    }

    /**
     * Waits until the band to the left ({@code band - 1}) has published its edge up to row {@code last}; {@code seen}
     * (an int variable) counts the tokens already waited for, and the protocol advances it.
     */
    default void bandWait(CudaBandContext cx, String last, String seen) {
    }

    /** Copies the left band's edge value of {@code field} at {@code row}, edge slot {@code slot}, into {@code target}. */
    default void bandLoadEdge(CudaBandContext cx, IrField field, String row, String slot, String target) {
        throw new IllegalStateException(getClass().getSimpleName() + " keeps no device-memory tokens");
    }

    /**
     * The lanes where {@code when} holds (those of the edge columns) publish their {@code value} of {@code field} at
     * their row (ready words), every lane executing the same code: a store, not a branch, in the step.
     */
    default void bandPublishValue(CudaBandContext cx, IrField field, String when, String slot, String value) {
    }

    /** Lane 31, after the warp met at {@code __syncwarp}, publishes token {@code token} of its band (token words). */
    default void bandPublishToken(CudaBandContext cx, String token) {
    }
}
