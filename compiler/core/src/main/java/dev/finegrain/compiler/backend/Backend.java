package dev.finegrain.compiler.backend;

import dev.finegrain.compiler.plan.DataflowPlan;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;

import java.util.List;
import java.util.Optional;

/**
 * Runs a compiled variant on some machine, real or modelled, and reports one metric. Backends translate the plan;
 * they hold no optimisation logic. Whoever calls a backend verifies its outputs against the oracle. Its capability
 * questions take the plan made once for a kernel and schedule (with its lock choices), so none plans again;
 * {@code dev.finegrain.compiler.resolve.VariantResolver} is the one caller that turns their answers into a variant or a
 * reasoned skip.
 */
public interface Backend {

    /** The name used on the command line, e.g. {@code reference}. */
    String name();

    /** True when it models sync points abstractly and so takes no lock mechanism at all. */
    boolean modelsSyncAbstractly();

    /** Every lock mechanism it implements for some kernel, in sweep order; empty for a backend that takes none. */
    List<LockMechanism> sweep();

    /**
     * Whether it runs the tiled schedules (data-parallel, dynamic dataflow) at sizes their tile does not divide, the
     * tiles at the high edges cut short; the others skip such sizes with the reason.
     */
    default boolean takesRaggedTiles() {
        return false;
    }

    /**
     * Whether a run of this variant at {@code sizes} holds no field over the domain (it folds every state field and reads
     * sequences), so that it may go beyond the points an array holds ({@link DomainLimits}); others skip such sizes.
     */
    default boolean foldsEveryField(Variant variant, int[] sizes) {
        return false;
    }

    /** Whether it runs on worker threads, so that {@code --threads} means something to it. */
    default boolean usesThreads() {
        return false;
    }

    /**
     * Whether its metric is a time measured on real hardware, so that nothing else may run beside one of its rows; a
     * simulated or counted metric does not care what runs beside it.
     */
    default boolean timesRealHardware() {
        return false;
    }

    /**
     * The lock mechanisms it can implement this plan's channels with, in sweep order; empty when the plan
     * synchronises with barriers only (or the backend models sync abstractly).
     */
    default List<LockMechanism> mechanisms(ExecutionPlan plan) {
        if (!(plan instanceof DataflowPlan) || modelsSyncAbstractly()) {
            return List.of();
        }
        return sweep().stream().filter(m -> unsupported(plan, m).isEmpty()).toList();
    }

    /** The mechanism a single run uses when nothing else names one and the kernel allows it; empty for none. */
    default Optional<LockMechanism> preferredMechanism() {
        return Optional.empty();
    }

    /**
     * The one mechanism a single run uses when none is asked for: the {@link #preferredMechanism} where this kernel
     * and schedule allow it, else the first of {@link #mechanisms}; empty when the schedule takes none.
     */
    default Optional<LockMechanism> defaultMechanism(ExecutionPlan plan) {
        List<LockMechanism> available = mechanisms(plan);
        return preferredMechanism().filter(available::contains).or(() -> available.stream().findFirst());
    }

    /**
     * Why it never runs this schedule, whatever the kernel: its machine cannot express it. The resolver refuses such a
     * request, and a sweep leaves the pair out with a note.
     */
    default Optional<String> neverRuns(Schedule schedule) {
        return Optional.empty();
    }

    /**
     * Why its rows of this schedule would only repeat its rows of another, if they would (the JVM's lock-dataflow is
     * persistent already): a sweep leaves the pair out with a note, while a single request runs it.
     */
    default Optional<String> repeatsAnotherRow(Schedule schedule) {
        return Optional.empty();
    }

    /** Why it cannot run this plan at all, when it cannot (for lock-dataflow, whatever the mechanism). */
    default Optional<String> unsupportedKernel(ExecutionPlan plan) {
        return Optional.empty();
    }

    /** Why it cannot use {@code mechanism} for this plan, when it cannot. */
    Optional<String> unsupported(ExecutionPlan plan, LockMechanism mechanism);

    BackendRun run(Variant variant, Invocation invocation, RunSettings settings);
}
