package dev.finegrain.compiler.backend.jvm.layout;

import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.compiler.plan.WavefrontPlan;
import dev.finegrain.dsl.GridBarrier;
import dev.finegrain.runtime.jvm.CountingBarrier;
import dev.finegrain.runtime.jvm.SenseBarrier;
import dev.finegrain.runtime.jvm.StepBarrier;
import dev.finegrain.runtime.jvm.XfBarrier;

/**
 * Which barrier a barrier schedule's workers meet at between steps on the JVM: the one its wavefront names (the
 * counting barrier for {@code atomic}, Xiao and Feng's flags for {@code xf}), else the sense-reversing barrier that
 * spins, then parks. The generated code calls {@link StepBarrier#await} whichever it is.
 */
public final class StepBarriers {

    private StepBarriers() {}

    public static StepBarrier create(ExecutionPlan plan, int workers) {
        GridBarrier named = plan instanceof WavefrontPlan wavefront ? wavefront.barrier().orElse(null) : null;
        if (named == null) {
            return new SenseBarrier(workers);
        }
        return switch (named) {
            case ATOMIC -> new CountingBarrier(workers);
            case XF -> new XfBarrier(workers);
            case COOPERATIVE, RELAUNCH -> throw new IllegalArgumentException("the " + named
                    + " barrier is a GPU launch's; the JVM backend refuses it before it compiles");
        };
    }
}
