package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.plan.WavefrontPlan;
import dev.finegrain.dsl.GridBarrier;
import dev.finegrain.dsl.internal.DependenceMath;

import java.util.Optional;

/**
 * Maps a wavefront plan onto a GPU in one launch: the steps along a hyperplane that orders the kernel's dependences
 * ({@link #steppedHyperplane}; in 2D a diagonal a step, {@link WavefrontDiagonals}; in 3D a plane of candidates a
 * step, {@link WavefrontPlanes}), as many threads as the widest step needs (whole warps, at most a block), and one
 * persistent block per SM with an inter-block barrier when one block cannot hold a step (or a launch per step when
 * the barrier is a relaunch); throws
 * {@link GpuLoweringException} for a hyperplane the GPU steps cannot follow.
 */
final class MapWavefront {

    private MapWavefront() {}

    /** Why the GPU steps cannot follow the plan's hyperplane, if they cannot (whatever the sizes). */
    static Optional<String> unsupported(KernelGraph graph, WavefrontPlan plan) {
        int[] h = plan.hyperplane();
        if (graph.rank() == 1 && h[0] != 1) {
            return Optional.of("the GPU model lowers 1D wavefronts with hyperplane (1); " + graph.name() + " needs "
                    + DependenceMath.format(h));
        }
        return Optional.empty();
    }

    /**
     * The hyperplane the GPU's steps follow: in 2D the anti-diagonals (1,1) one at a time where they order the
     * kernel's dependences, else the gentlest plane with a component 1 that does ({@link WavefrontDiagonals}); in 3D
     * the plan's own where its components are 0s and 1s (a recurrence along i alone steps by (1,0,0)), else (1,1,1).
     * Every 3D kernel a GPU maps has dependences with no component negative and not all zero, which every hyperplane
     * of ones orders (h.d >= 1), whatever hyperplane the plan chose for the JVM (for a kernel that reads only west,
     * (0,1), which has fewer steps).
     */
    static int[] steppedHyperplane(KernelGraph graph, WavefrontPlan plan) {
        if (graph.rank() == 2) {
            return WavefrontDiagonals.stepping(graph).orElseThrow(() -> new GpuLoweringException(
                    GpuMapper.unmappableKernel(graph).orElse("no 2D step orders " + graph.name() + "'s dependences")));
        }
        int[] ones = new int[graph.rank()];
        java.util.Arrays.fill(ones, 1);
        return graph.rank() == 3 && WavefrontPlanes.steps(plan.hyperplane()) || graph.rank() == 1 ? plan.hyperplane().clone()
                : ones;
    }

    /**
     * Why the target cannot meet its blocks at the barrier the schedule names, or wait there as it says, if it cannot:
     * a napping wait needs nanosleep and a barrier whose waiting is Finegrain's own (the atomic or XF barrier, not
     * grid.sync() or a relaunch's kernel boundary).
     */
    static Optional<String> unsupportedBarrier(WavefrontPlan plan, GpuTarget target) {
        GridBarrier barrier = plan.barrier().orElse(target.defaultGridBarrier());
        dev.finegrain.dsl.WaitPolicy policy = plan.lockChoices().waitPolicy();
        return plan.barrier().filter(b -> !b.onGpu())
                .map(b -> "the " + b + " barrier is the JVM's, for many threads; a GPU's blocks meet at atomic, xf,"
                        + " cooperative (CUDA) or relaunch")
                .or(() -> plan.barrier().filter(b -> b == GridBarrier.COOPERATIVE && !target.cooperativeLaunch())
                .map(b -> target.called() + " has no cooperative launch (grid.sync() is the CUDA target's)"))
                .or(() -> GpuWaits.naps(policy) && (barrier == GridBarrier.COOPERATIVE || barrier == GridBarrier.RELAUNCH)
                        ? Optional.of("wait policy " + policy + " naps in Finegrain's own barriers (atomic, xf); the "
                        + barrier + " barrier waits as the driver does") : Optional.empty())
                .or(() -> GpuWaits.unsupported(policy, target));
    }

    static WavefrontMapping map(KernelGraph graph, WavefrontPlan plan, GpuTarget target, int[] sizes) {
        unsupported(graph, plan).or(() -> unsupportedBarrier(plan, target)).ifPresent(reason -> {
            throw new GpuLoweringException(reason);
        });
        int stride = plan.stride();
        int steps;
        int widest;
        if (graph.rank() == 3) {
            WavefrontPlanes planes = new WavefrontPlanes(sizes, steppedHyperplane(graph, plan));
            steps = planes.steps();
            widest = planes.widest();
        } else if (graph.rank() == 2) {
            WavefrontDiagonals diagonals = new WavefrontDiagonals(sizes, steppedHyperplane(graph, plan));
            steps = diagonals.steps();
            widest = diagonals.widest();
        } else {
            steps = Math.ceilDiv(sizes[0], stride);
            widest = Math.min(stride, sizes[0]);
        }
        int threads = Math.min(target.maxThreadsPerBlock(), Math.ceilDiv(widest, GpuTarget.WARP) * GpuTarget.WARP);
        GridBarrier barrier = plan.barrier().orElse(target.defaultGridBarrier());
        // persistent blocks, at most one per SM, meet between steps; a relaunch's steps launch as many as they need
        int blocks = barrier == GridBarrier.RELAUNCH ? Math.ceilDiv(widest, threads)
                : Math.min(target.smCount(), Math.ceilDiv(widest, threads));
        StaticChecks.check(graph, target, threads, GpuMapping.Resources.NONE, null);
        if (blocks == 1 && barrier != GridBarrier.RELAUNCH && GpuWaits.naps(plan.lockChoices().waitPolicy())) {
            throw new GpuLoweringException("at this size one block holds every step and meets at the block barrier,"
                    + " which does not nap: wait policy " + plan.lockChoices().waitPolicy() + " does not apply (choose"
                    + " sizes whose widest step needs more than " + threads + " threads)");
        }
        return new WavefrontMapping(graph, target, sizes.clone(), steps, widest, stride, threads, blocks,
                steppedHyperplane(graph, plan), barrier,
                plan.barrier().isPresent() ? "named by the schedule" : "the target's default: " + target.defaultGridBarrierSource(),
                plan.lockChoices().waitPolicy());
    }
}
