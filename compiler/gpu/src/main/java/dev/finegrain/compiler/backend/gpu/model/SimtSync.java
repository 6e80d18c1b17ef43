package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.IrActor;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;

import java.util.Optional;

/**
 * A lock mechanism's protocol in the model ISA, one class per mechanism: what {@link SimtLockDataflow} emits at each
 * point of its program. Per-thread mechanisms spell the first group, warp mechanisms the second; a method a mechanism
 * has no use for is never called for it (the mapping's wait form decides which are).
 */
public interface SimtSync {

    /** Why this protocol cannot synchronise {@code channels} channels per point on the machine, if it cannot. */
    default Optional<String> unsupportedChannels(KernelGraph graph, GpuTarget target, int channels) {
        return Optional.empty();
    }

    /** Prologue: every token in its first state: producers' taken (or unset), halo words' free (or set). */
    void initTokens(SimtSyncContext cx);

    // ---- per-thread tokens

    /**
     * Critical-section form: one attempt at channel {@code c}'s token, for lanes that do not hold it yet; predicate
     * {@code have} says who holds it afterwards. A shared token is given back within the attempt.
     */
    default void tryTake(SimtSyncContext cx, int c, String have) {
        throw new IllegalStateException(getClass().getSimpleName() + " keeps no per-thread token");
    }

    /** In-turn form: the code at label {@code wait} that spins until channel {@code c}'s token is held (P1 scratch). */
    default void waitInTurn(SimtSyncContext cx, int c, String wait) {
        throw new IllegalStateException(getClass().getSimpleName() + " keeps no per-thread token");
    }

    /** Stores what {@code actor} produced at this thread's point and publishes its token. */
    void publish(SimtSyncContext cx, IrActor actor, String value);

    /** In-turn form, shared channels: gives channel {@code c}'s token back after firing. */
    default void restore(SimtSyncContext cx, int c) {
    }

    /** Private channels: frees channel {@code c}'s token for good once the consumer has fired. */
    default void finalizePrivate(SimtSyncContext cx, int c) {
    }

    // ---- one token per warp

    /** Waits until the warp {@code warpDistance} before this one has published channel {@code c}. */
    default void waitForWarp(SimtSyncContext cx, int c, int warpDistance) {
        throw new IllegalStateException(getClass().getSimpleName() + " keeps per-thread tokens");
    }

    /** Publishes the warp's token once its lanes have reconverged after firing. */
    default void publishWarp(SimtSyncContext cx) {
        throw new IllegalStateException(getClass().getSimpleName() + " keeps per-thread tokens");
    }

    // ---- band edges of lock-dataflow:persistent ({@link SimtBands}), between warps of any blocks, in global memory

    /**
     * Token words: waits until the band to the left has published its edge up to row {@code last} (a register), each
     * lane taking every 32nd pending token ({@link SimtBandContext#waitPendingTokens}); the warp meets afterwards.
     */
    default void bandWait(SimtBandContext cx, String last) {
        throw new IllegalStateException(getClass().getSimpleName() + " keeps no global-memory band tokens");
    }

    /**
     * Loads the left band's edge value of {@code field} at {@code row} (a register), edge slot {@code slot}, into
     * {@code target}: with token words, a plain load from the field, which the token wait has ordered already.
     */
    default void bandLoadEdge(SimtBandContext cx, IrField field, String row, int slot, String target) {
        cx.loadEdgeAfterToken(field, row, slot, target);
    }

    /**
     * Ready words: a lane of the edge columns publishes its {@code value} of {@code field} at row {@code row} (registers).
     * It runs inside a band's steady step, which keeps its lane tests in P1 to P4 for the whole loop: like
     * {@link #bandPublishToken}, it may write P0 and P5 only, and no label (a steady step may guard it whole).
     */
    default void bandPublishValue(SimtBandContext cx, IrField field, String row, String value) {
    }

    /** Token words: lane 31, after the warp met, publishes token {@code token} (a register) of its band. */
    default void bandPublishToken(SimtBandContext cx, String token) {
    }
}
