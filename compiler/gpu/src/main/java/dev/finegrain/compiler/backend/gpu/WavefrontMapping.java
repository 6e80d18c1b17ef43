package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.GridBarrier;
import dev.finegrain.dsl.internal.DependenceMath;

import java.util.List;

/**
 * Wavefront in one launch over global memory: {@code steps} hyperplane steps (planes of candidates in 3D,
 * {@link WavefrontPlanes}; in 2D anti-diagonals, or the diagonals of a steeper plane, {@link WavefrontDiagonals}; runs of {@code stride} points in 1D), the threads of the grid dealt
 * the points of a step in turn, a barrier between steps: the block barrier for one block, or one persistent block per
 * SM and an inter-block barrier of Stuart and Owens' ({@code barrier}: the two-stage atomic one unless the schedule
 * names another, or the target's default) when the widest step needs more threads than a block holds; or, for a
 * relaunch, a launch per step of as many blocks as that step's points need ({@code blocks} then the most of any
 * step), the kernel boundary being the barrier. {@code barrierChoice} says where the barrier came from; its waiters
 * pass the time as {@code waitPolicy} says ({@link GpuWaits}).
 */
public record WavefrontMapping(KernelGraph graph, GpuTarget target, int[] sizes, int steps, int widest, int stride,
                               int threadsPerBlock, int blocks, int[] hyperplane, GridBarrier barrier,
                               String barrierChoice, dev.finegrain.dsl.WaitPolicy waitPolicy)
        implements GpuMapping {

    /** Scratch words the barrier needs: word 0 the error word, word 1 the atomic counter, then XF's two flag arrays. */
    @Override
    public long scratchBytes() {
        return 8 + (barrier == GridBarrier.XF && interBlockBarrier() ? 8L * blocks : 0);
    }

    /** What the barrier between steps is, in words. */
    private String barrierWords() {
        return switch (barrier) {
            case ATOMIC -> "the atomic inter-block barrier of seed 000";
            case XF -> "Xiao and Feng's XF barrier (a flag per block, block 0 gathers and releases)";
            case COOPERATIVE -> "the cooperative launch's grid.sync()";
            case RELAUNCH -> "the end of the launch (a launch per step)";
            case DISSEMINATION -> throw new IllegalStateException("the dissemination barrier is the JVM's");
        };
    }

    /** Whether each step is a launch of its own, the kernel boundary being the barrier between steps. */
    public boolean relaunch() {
        return barrier == GridBarrier.RELAUNCH;
    }

    /** How many points (in 3D candidates) step {@code step} holds. */
    public int pointsAt(int step) {
        return switch (graph.rank()) {
            case 3 -> planes().candidatesAt(step);
            case 2 -> diagonals().pointsAt(step);
            default -> Math.min(sizes[0] - step * stride, stride);
        };
    }

    /** How a 3D step's points are dealt; only for 3D domains. */
    public WavefrontPlanes planes() {
        if (graph.rank() != 3) {
            throw new IllegalStateException(graph.name() + " is not 3D");
        }
        return new WavefrontPlanes(sizes, hyperplane);
    }

    /** How a 2D step's points are dealt; only for 2D domains. */
    public WavefrontDiagonals diagonals() {
        if (graph.rank() != 2) {
            throw new IllegalStateException(graph.name() + " is not 2D");
        }
        return new WavefrontDiagonals(sizes, hyperplane);
    }

    /** What a step is made of: points, or in 3D candidates (points of the step's box, some outside the domain). */
    private String unit() {
        return graph.rank() == 3 ? " candidates" : " points";
    }

    private String stepShape() {
        return switch (graph.rank()) {
            case 3 -> "planes " + DependenceMath.format(hyperplane) + ".p = s";
            case 2 -> diagonals().antiDiagonals() ? "anti-diagonals" : "diagonals " + DependenceMath.format(hyperplane) + ".p = s";
            default -> "runs of " + stride + " points";
        };
    }

    /** Whether the blocks of one launch meet between steps: persistent blocks, more than one. */
    public boolean interBlockBarrier() {
        return blocks > 1 && !relaunch();
    }

    @Override
    public List<Integer> blocksPerLaunch() {
        if (!relaunch()) {
            return List.of(blocks);
        }
        List<Integer> perStep = new java.util.ArrayList<>(steps);
        for (int step = 0; step < steps; step++) {
            // a steeper plane's step may hold no point (the derived dimension narrower than the slope): it still launches
            // one block, which computes nothing, so that launch k stays step k
            perStep.add(Math.max(1, Math.ceilDiv(pointsAt(step), threadsPerBlock)));
        }
        return perStep;
    }

    @Override
    public Resources resources() {
        return Resources.NONE;
    }

    @Override
    public String launchPlan() {
        if (relaunch()) {
            return "wavefront: " + steps + " steps of at most " + widest + unit() + " over global memory; a launch per"
                    + " step of up to " + Plural.of(blocks, "block") + " of " + threadsPerBlock + " threads; " + Plural.of(steps, "launch");
        }
        return "wavefront: " + steps + " steps of at most " + widest + unit() + " over global memory; "
                + (blocks == 1 ? "one block of " + threadsPerBlock + " threads, a block barrier per step"
                : blocks + " persistent blocks of " + threadsPerBlock + " threads, " + switch (barrier) {
                    case ATOMIC -> "an atomic inter-block barrier";
                    case XF -> "an XF inter-block barrier";
                    case COOPERATIVE -> "a cooperative grid.sync()";
                    case RELAUNCH, DISSEMINATION -> throw new IllegalStateException("no " + barrier + " barrier inside a"
                            + " GPU launch");
                } + " per step")
                + "; 1 launch";
    }

    @Override
    public String describe() {
        if (relaunch()) {
            return "schedule:   wavefront over " + stepShape() + "\n"
                    + "launches:   " + steps + ", one per step, of as many blocks of " + threadsPerBlock
                    + " threads as the step's" + unit() + " need (at most " + blocks + ")\n"
                    + "ownership:  thread k of a launch takes" + unit() + " k of its step\n"
                    + (graph.rank() == 3 ? "candidates: " + planes().describe() + "\n" : "")
                    + (graph.rank() == 2 && !diagonals().antiDiagonals() ? "points:     " + diagonals().describe() + "\n" : "")
                    + "steps:      " + steps + ", the widest " + widest + unit() + "\n"
                    + "barrier:    " + barrierWords() + " (" + barrierChoice + ")\n"
                    + "memory:     every field in global memory, no shared memory\n";
        }
        return "schedule:   wavefront over " + stepShape() + "\n"
                + "launches:   1, " + blocks + (blocks == 1 ? " block" : " persistent blocks (at most one per SM)") + " of "
                + threadsPerBlock + " threads\n"
                + "ownership:  thread k of the grid takes" + unit() + " k, k + "
                + (threadsPerBlock * blocks) + ", ... of each step\n"
                + (graph.rank() == 3 ? "candidates: " + planes().describe() + "\n" : "")
                + (graph.rank() == 2 && !diagonals().antiDiagonals() ? "points:     " + diagonals().describe() + "\n" : "")
                + "steps:      " + steps + ", the widest " + widest + unit() + (graph.rank() == 3 && stride > 1
                ? "; one plane a step, where the plan lets a step hold " + stride + " (a barrier more per plane, no"
                + " loop over planes inside a step)" : "") + "\n"
                + "barrier:    " + (interBlockBarrier() ? "the block barrier, then " + barrierWords()
                : "the block barrier") + " after each step" + (interBlockBarrier() ? " (" + barrierChoice + ")" : "") + "\n"
                + (interBlockBarrier() && GpuWaits.naps(waitPolicy) ? "waiting:    " + GpuWaits.describe(waitPolicy) + "\n" : "")
                + "memory:     every field in global memory, no shared memory\n";
    }
}
