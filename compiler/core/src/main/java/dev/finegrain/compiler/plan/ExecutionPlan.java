package dev.finegrain.compiler.plan;

import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.Schedule;

/**
 * A schedule lowered for one kernel: an ordering plus the sync points it relies on, still independent of the
 * size. Backends translate plans; the reference checker runs them in random legal interleavings. Plans are data,
 * so a test can build a deliberately broken one.
 */
public sealed interface ExecutionPlan permits WavefrontPlan, DataflowPlan, DataParallelPlan,
        DynamicDataflowPlan {

    KernelGraph graph();

    Schedule schedule();

    /**
     * The lock choices its variants run with. Only lock-dataflow lets a schedule choose them; every other plan runs
     * with the kernel's own (which name its variants, e.g. a CUDA variant's id).
     */
    default LockChoices lockChoices() {
        return LockChoices.of(graph().kernel());
    }

    /** Readable text: the ordering and each kind of sync point. */
    String describe();

    /** The concrete tasks, phases and waits for one size; may reject a size the plan cannot cover. */
    TaskGraph materialize(int[] sizes);
}
