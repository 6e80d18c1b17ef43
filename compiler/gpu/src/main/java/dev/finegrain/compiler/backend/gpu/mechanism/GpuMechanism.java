package dev.finegrain.compiler.backend.gpu.mechanism;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.dsl.ChannelPolicy;
import dev.finegrain.dsl.LockMechanism;

import java.util.Optional;

/**
 * A lock mechanism as every GPU target implements it: what it needs of the machine and of the kernel's channels,
 * where its tokens live and what resources they claim. A GPU mapping reads these facts; each target spells the
 * protocol (initialise tokens, try to take, wait, publish, restore a shared token, finalize a private one) in a class
 * of its own, which that target's registry names ({@code SimtSyncs}, {@code CudaSyncs}): the facts know no emitter.
 * {@link GpuMechanisms} is the only place that turns a {@link LockMechanism} into one of these.
 */
public interface GpuMechanism {

    LockMechanism id();

    /** Why the machine cannot run it at all (a feature it lacks), in a user's words, if it cannot. */
    Optional<String> unsupportedOn(GpuTarget target);

    /** Keeps one token per warp, published by a representative lane, rather than one per thread. */
    default boolean oneTokenPerWarp() {
        return id().oneTokenPerWarp();
    }

    /**
     * What warp-shared granularity turns it into: itself when it keeps one token per warp already, its warp form
     * (tiny-lock becomes the warp vote over one lock bit), or empty when it has none.
     */
    Optional<LockMechanism> warpSharedForm();

    /**
     * Whether a waiter is suspended by the machine until its token is granted (a lock-box), rather than looking again:
     * such a wait cannot be tried, so lanes wait for their tokens in turn, and the machine parks a suspended lane
     * while the others of its warp go on.
     */
    default boolean suspendsWaiters() {
        return false;
    }

    /** Where its tokens live for channels of this policy on this machine. */
    TokenStorage storage(ChannelPolicy policy, GpuTarget target);

    /** Bytes one token word takes in shared memory on this machine. */
    default int tokenWordBytes(GpuTarget target) {
        return 4;
    }

    /** Whether a token word is a mutex that atomics change (on Fermi each such word claims a lock bit too). */
    default boolean tokenIsMutex() {
        return false;
    }

    /** Whether each token word claims a lock bit of the SM on this machine, explicitly or behind an atomic. */
    default boolean claimsLockBit(GpuTarget target) {
        return false;
    }

    /**
     * The most threads a block may have with this mechanism, beyond the machine's own limit; {@code warpsBack} is
     * how many warps back the nearest channel's producer lies (1 in 2D).
     */
    default int maxThreadsPerBlock(GpuTarget target, int tokenArrays, int warpsBack) {
        return target.maxThreadsPerBlock();
    }

    /** Named barriers a block of {@code warps} warps needs when its nearest producer warp lies {@code distance} back. */
    default int namedBarriers(int warps, int distance) {
        return 0;
    }

    /** What it requires of a kernel's channels beyond reaching whole warps (the named barrier: exactly one), if unmet. */
    default Optional<String> unsupportedChannels(String kernel, int channels) {
        return Optional.empty();
    }

    /**
     * How a token handed between warps of different blocks lies in device memory (the band edges): a token word beside
     * the values, unless the mechanism keeps it with each value.
     */
    default TokenStorage deviceStorage(GpuTarget target) {
        return TokenStorage.TOKEN_WORD;
    }

    /**
     * Why its tokens cannot be handed between warps of different blocks through device memory on this machine, as
     * the band edges of lock-dataflow:persistent need, if they cannot (a token that lives in one block's shared
     * memory or barrier hardware).
     */
    default Optional<String> noDeviceTokens(GpuTarget target) {
        return Optional.of(id() + " keeps its tokens in one block's shared memory, and the bands of lock-dataflow:persistent"
                + " hand tokens between warps of different blocks; use acquire-release, atomic-spin-lock or tiny-lock");
    }
}
