package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.LockMechanism;

/**
 * The checks a mapped variant must pass before any emitter spells it: threads per block, shared memory, lock bits
 * (more token words than lock bits means aliased bits, seed 001's alias deadlock) and the 16 named barriers of a
 * block. Each failure is one message naming the limit, the need and what to change.
 */
final class StaticChecks {

    private StaticChecks() {}

    static void check(KernelGraph graph, GpuTarget target, int threadsPerBlock, GpuMapping.Resources resources,
                      LockMechanism mechanism) {
        String variant = graph.name() + (mechanism != null ? " with " + mechanism : "");
        if (threadsPerBlock > target.maxThreadsPerBlock()) {
            throw new GpuLoweringException(variant + " needs " + threadsPerBlock + " threads per block; "
                    + target.name() + " allows " + target.maxThreadsPerBlock() + "; use a smaller tile");
        }
        if (resources.sharedBytes() > target.sharedBytesPerBlock()) {
            throw new GpuLoweringException(variant + " needs " + resources.sharedBytes() + " bytes of shared memory per block; "
                    + target.name() + " has " + target.sharedBytesPerBlock() + " per SM; use a smaller tile");
        }
        if (resources.claimedLockBits() > target.lockBits()) {
            throw new GpuLoweringException(variant + " needs " + resources.claimedLockBits() + " lock bits per block; "
                    + target.name() + " has " + target.lockBits() + ", so token words would alias (seed 001 §4.4.2); use"
                    + " shared channels or a smaller tile");
        }
        if (resources.namedBarriers() > GpuTarget.NAMED_BARRIERS) {
            throw new GpuLoweringException(variant + " needs " + resources.namedBarriers() + " named barriers per block; a"
                    + " block has " + GpuTarget.NAMED_BARRIERS + " (seed 001 §2); use a smaller tile or another mechanism");
        }
    }
}
