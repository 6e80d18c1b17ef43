package dev.finegrain.compiler.backend.jvm.layout;

import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.compiler.plan.WavefrontPlan;
import dev.finegrain.dsl.GridBarrier;
import dev.finegrain.runtime.jvm.CountingBarrier;
import dev.finegrain.runtime.jvm.DisseminationBarrier;
import dev.finegrain.runtime.jvm.SenseBarrier;
import dev.finegrain.runtime.jvm.StepBarrier;
import dev.finegrain.runtime.jvm.XfBarrier;

/**
 * Which barrier a barrier schedule's workers meet at between steps on the JVM: the one its wavefront names (the
 * counting barrier for {@code atomic}, Xiao and Feng's flags for {@code xf}, Hensgen, Finkel and Manber's rounds for
 * {@code dissemination}), else the sense-reversing barrier that
 * spins, then parks. The generated code calls {@link StepBarrier#await} whichever it is.
 */
public final class StepBarriers {

    private StepBarriers() {}

    public static StepBarrier create(ExecutionPlan plan, int workers) {
        GridBarrier named = plan instanceof WavefrontPlan wavefront ? wavefront.barrier().orElse(null) : null;
        if (named == null) {
            // the sense barrier's own spin then park is its backoff; spin never parks, sleep parks at once
            return switch (plan.lockChoices().waitPolicy()) {
                case SPIN -> new SenseBarrier(workers, Long.MAX_VALUE);
                case SLEEP -> new SenseBarrier(workers, 0L);
                case ADAPTIVE, BACKOFF -> new SenseBarrier(workers);
            };
        }
        return switch (named) {
            case ATOMIC -> new CountingBarrier(workers);
            case XF -> new XfBarrier(workers);
            case DISSEMINATION -> new DisseminationBarrier(workers);
            case COOPERATIVE, RELAUNCH -> throw new IllegalArgumentException("the " + named
                    + " barrier is a GPU launch's; the JVM backend refuses it before it compiles");
        };
    }

    /** Which barrier the workers of {@code plan} meet at between {@code steps}, and why, for the class's javadoc. */
    public static String describe(ExecutionPlan plan, String steps) {
        GridBarrier named = plan instanceof WavefrontPlan wavefront ? wavefront.barrier().orElse(null) : null;
        if (named == null) {
            return "Sync: between " + steps + ", a sense-reversing barrier whose waiters spin for "
                    + SenseBarrier.SPIN_NANOS / 1000 + " us, then park, and whose last arrival unparks them (the JVM's"
                    + " default).";
        }
        return "Sync: between " + steps + ", " + switch (named) {
            case ATOMIC -> "the counting barrier: one atomic add per worker and step, then a poll";
            case XF -> "Xiao and Feng's XF barrier: a flag per worker, which worker 0 gathers and releases";
            case DISSEMINATION -> "the dissemination barrier: log2 P rounds, each worker signalling one and waiting for one";
            case COOPERATIVE, RELAUNCH -> throw new IllegalArgumentException("the " + named + " barrier is a GPU launch's");
        }
                + ", its waiters pausing as the wait policy has it (named by the schedule).";
    }
}
