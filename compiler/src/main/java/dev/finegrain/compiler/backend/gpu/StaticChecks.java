package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.gpu.runtime.SimtProfile;

/**
 * The checks a lowered variant must pass before it runs: threads per block, shared memory, lock bits (more
 * token words than lock bits means aliased bits, seed 001's alias deadlock) and the 16 named barriers of a block.
 * Each failure is one message naming the limit, the need and what to change.
 */
final class StaticChecks {

    static final int NAMED_BARRIERS = 16;

    private StaticChecks() {}

    static void check(KernelGraph graph, SimtProfile profile, int threadsPerBlock, int sharedBytes, int lockBits,
                      int namedBarriers, LockMechanism mechanism) {
        String variant = graph.name() + (mechanism != null ? " with " + mechanism : "");
        if (threadsPerBlock > profile.maxThreadsPerBlock()) {
            throw new GpuLoweringException(variant + " needs " + threadsPerBlock + " threads per block; "
                    + profile.name() + " allows " + profile.maxThreadsPerBlock() + "; use a smaller tile");
        }
        if (sharedBytes > profile.sharedBytesPerSm()) {
            throw new GpuLoweringException(variant + " needs " + sharedBytes + " bytes of shared memory per block; "
                    + profile.name() + " has " + profile.sharedBytesPerSm() + " per SM; use a smaller tile");
        }
        if (lockBits > profile.lockBits()) {
            throw new GpuLoweringException(variant + " needs " + lockBits + " lock bits per block; " + profile.name()
                    + " has " + profile.lockBits() + ", so token words would alias (seed 001 §4.4.2); use shared"
                    + " channels or a smaller tile");
        }
        if (namedBarriers > NAMED_BARRIERS) {
            throw new GpuLoweringException(variant + " needs " + namedBarriers + " named barriers per block; a block"
                    + " has " + NAMED_BARRIERS + " (seed 001 §2); use a smaller tile or another mechanism");
        }
    }
}
