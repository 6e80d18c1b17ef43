package dev.finegrain.compiler.resolve;

import dev.finegrain.compiler.backend.Backend;
import dev.finegrain.compiler.backend.DomainLimits;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.DataParallelPlan;
import dev.finegrain.compiler.plan.DynamicDataflowPlan;
import dev.finegrain.compiler.plan.DataflowPlan;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.KernelDefinitionException;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one road from a request to a runnable variant: every command, the Maven plugin, the Java API and the benchmarks
 * ask here, and nothing else compiles a kernel, plans a schedule or picks a mechanism on its own. It compiles each
 * kernel once, plans each schedule once (with its lock choices), asks the target its capability questions of that
 * plan, and answers with the {@link Variant} or a {@link Skip} that says what stood in the way, in the order:
 * the schedule, the target, the mechanism, the size.
 *
 * <p>One resolver may serve many requests (a sweep's); it is safe to share between threads.
 */
public final class VariantResolver {

    private final Map<Kernel, KernelGraph> graphs = new IdentityHashMap<>();
    private final Map<Kernel, Map<Schedule, PlanOutcome>> plans = new IdentityHashMap<>();

    /** A schedule planned for a kernel: the plan, or why the schedule cannot order the kernel. */
    public record PlanOutcome(Optional<ExecutionPlan> plan, Optional<Skip> skip) {}

    /** The kernel's IR after the standard passes, compiled once per kernel. */
    public synchronized KernelGraph graph(Kernel kernel) {
        return graphs.computeIfAbsent(kernel, Pipeline::compile);
    }

    /** The schedule (spelled in full for the kernel's rank) planned for the kernel, once; or why it cannot be. */
    public synchronized PlanOutcome plan(Kernel kernel, Schedule schedule) {
        Schedule normalized = schedule.normalized(kernel.rank());
        return plans.computeIfAbsent(kernel, k -> new HashMap<>()).computeIfAbsent(normalized, s -> planNow(kernel, s));
    }

    private PlanOutcome planNow(Kernel kernel, Schedule schedule) {
        KernelGraph graph = graph(kernel);
        try {
            return new PlanOutcome(Optional.of(SchedulePlanner.plan(graph, schedule)), Optional.empty());
        } catch (KernelDefinitionException cannotPlan) {
            String detail = withoutKernelName(withoutCallSite(cannotPlan.getMessage()), kernel.name());
            return new PlanOutcome(Optional.empty(), Optional.of(new Skip(Skip.Reason.SCHEDULE_DOES_NOT_FIT_KERNEL, detail,
                    schedule.cliName() + " cannot run kernel '" + kernel.name() + "': " + detail)));
        }
    }

    /**
     * Why the target runs no variant of the kernel under the schedule, whatever the mechanism, if it runs none: the
     * schedule cannot order the kernel, the target never runs the schedule, or it cannot run this kernel under it.
     */
    public Optional<Skip> refusal(Kernel kernel, Schedule schedule, Backend target) {
        PlanOutcome planned = plan(kernel, schedule);
        if (planned.skip().isPresent()) {
            return planned.skip();
        }
        ExecutionPlan plan = planned.plan().orElseThrow();
        String scheduleName = plan.schedule().cliName();
        Optional<String> never = target.neverRuns(schedule);
        if (never.isPresent()) {
            return Optional.of(new Skip(Skip.Reason.TARGET_NEVER_RUNS_SCHEDULE, never.get(),
                    "backend '" + target.name() + "' never runs " + scheduleName + ": " + never.get()));
        }
        return target.unsupportedKernel(plan).map(cannot -> new Skip(Skip.Reason.TARGET_CANNOT_RUN_KERNEL, cannot,
                "backend '" + target.name() + "' cannot run " + scheduleName + " of kernel '" + kernel.name() + "': " + cannot));
    }

    /** The variant a request names, for any size its plan covers, or why there is none. */
    public Resolution resolve(VariantRequest request) {
        Backend target = request.target();
        Optional<Skip> refused = refusal(request.kernel(), request.schedule(), target);
        if (refused.isPresent()) {
            return new Resolution.Skipped(refused.get());
        }
        ExecutionPlan plan = plan(request.kernel(), request.schedule()).plan().orElseThrow();
        String schedule = plan.schedule().cliName();
        String kernel = request.kernel().name();
        if (!(plan instanceof DataflowPlan dataflow)) {
            if (request.mechanism().isPresent() && !target.modelsSyncAbstractly()) {
                String detail = schedule + " synchronises with barriers only";
                return skipped(Skip.Reason.SCHEDULE_TAKES_NO_MECHANISM, detail, detail + "; drop the mechanism");
            }
            return new Resolution.Resolved(new Variant(plan.graph(), plan, Optional.empty()));
        }
        if (target.modelsSyncAbstractly()) {
            return new Resolution.Resolved(new Variant(plan.graph(), plan, Optional.empty()));
        }
        Optional<LockMechanism> mechanism = request.mechanism().or(() -> dataflow.lockChoices().mechanism())
                .or(() -> target.defaultMechanism(plan));
        if (mechanism.isEmpty()) {
            String why = whyNoMechanism(target, plan);
            return skipped(Skip.Reason.NO_MECHANISM_FITS, why, "backend '" + target.name() + "' has no lock mechanism for "
                    + schedule + " of kernel '" + kernel + "': " + why);
        }
        Optional<String> unfit = target.unsupported(plan, mechanism.get());
        if (unfit.isPresent()) {
            return new Resolution.Skipped(new Skip(Skip.Reason.MECHANISM_DOES_NOT_FIT, unfit.get(), "backend '" + target.name()
                    + "' cannot use mechanism '" + mechanism.get() + "' for kernel '" + kernel + "': " + unfit.get(), mechanism));
        }
        return new Resolution.Resolved(new Variant(plan.graph(), plan, mechanism));
    }

    /**
     * The variant a request names at one size, or why there is none (the above, tiles that do not divide it, or more
     * points than an array holds on a target that would hold a field over the domain).
     */
    public Resolution resolve(VariantRequest request, int[] sizes) {
        Resolution resolution = resolve(request);
        Optional<Skip> misfit = resolution.variant().flatMap(variant -> sizeMisfit(variant, request.target(), sizes));
        return misfit.<Resolution>map(Resolution.Skipped::new).orElse(resolution);
    }

    /**
     * Why a resolved variant cannot run at one size on a backend: tiles that do not divide it ({@link #tileMisfit}), or
     * more points than an array holds where the backend would hold a field over the domain.
     */
    public static Optional<Skip> sizeMisfit(Variant variant, Backend target, int[] sizes) {
        return tileMisfit(variant.plan(), target, sizes).or(() -> beyondArrays(variant, target, sizes));
    }

    private static Optional<Skip> beyondArrays(Variant variant, Backend target, int[] sizes) {
        if (!DomainLimits.beyondArrays(sizes) || target.foldsEveryField(variant, sizes)) {
            return Optional.empty();
        }
        String why = DomainLimits.beyondArraysOn(target.name(), sizes);
        return Optional.of(new Skip(Skip.Reason.SIZE_BEYOND_ARRAYS, why, why));
    }

    /**
     * Every mechanism the target implements for this plan, in its sweep order, with why it cannot use each of the
     * others: what a sweep over every mechanism runs and what it leaves out.
     */
    public Map<LockMechanism, Optional<String>> mechanismFits(Backend target, ExecutionPlan plan) {
        Map<LockMechanism, Optional<String>> fits = new LinkedHashMap<>();
        for (LockMechanism mechanism : target.sweep()) {
            fits.put(mechanism, target.unsupported(plan, mechanism));
        }
        return fits;
    }

    /** Why no mechanism fits: one reason shared by every mechanism (a schedule the kernel's shape does not fit) said once. */
    private String whyNoMechanism(Backend target, ExecutionPlan plan) {
        Map<String, List<String>> mechanismsByReason = new LinkedHashMap<>();
        mechanismFits(target, plan).forEach((mechanism, reason) -> reason.ifPresent(why ->
                mechanismsByReason.computeIfAbsent(why, r -> new ArrayList<>()).add(mechanism.toString())));
        if (mechanismsByReason.isEmpty()) {
            return "it implements none";
        }
        return mechanismsByReason.size() == 1 ? mechanismsByReason.keySet().iterator().next()
                : String.join("; ", mechanismsByReason.entrySet().stream()
                        .map(e -> String.join(", ", e.getValue()) + ": " + e.getKey()).toList());
    }

    /**
     * Why a tiled plan's tiles (data-parallel's, dynamic dataflow's) cannot cover a size on a backend, in the command
     * line's words: a backend that does not take ragged tiles ({@link Backend#takesRaggedTiles}) needs tiles that
     * divide the sizes, as Rodinia's do.
     */
    public static Optional<Skip> tileMisfit(ExecutionPlan plan, Backend backend, int[] sizes) {
        DataParallelPlan tiles = DataParallelPlan.tilesOf(plan).orElse(null);
        if (tiles == null || backend.takesRaggedTiles()) {
            return Optional.empty();
        }
        String spelling = plan instanceof DynamicDataflowPlan ? "dynamic-dataflow" : "data-parallel";
        return tiles.tileMisfit(sizes).map(misfit -> new Skip(Skip.Reason.TILES_DO_NOT_DIVIDE_SIZE, misfit,
                plan.schedule().cliName() + " tiles do not divide size " + sizeText(sizes) + " of kernel '"
                        + plan.graph().name() + "' (" + misfit + ") on " + backend.name() + "; choose sizes that are"
                        + " multiples of the tile, or a tile that divides them (" + spelling + ":B or " + spelling + ":BxC);"
                        + " the built-in backends run smaller tiles at the edges"));
    }

    public static String sizeText(int[] sizes) {
        return dev.finegrain.compiler.plan.Domain.sizeText(sizes);
    }

    private static Resolution skipped(Skip.Reason reason, String detail, String message) {
        return new Resolution.Skipped(new Skip(reason, detail, message));
    }

    /** A DSL message starts with the kernel's name, which the skip's message has named already. */
    private static String withoutKernelName(String message, String kernelName) {
        String prefix = "kernel '" + kernelName + "': ";
        return message.startsWith(prefix) ? message.substring(prefix.length()) : message;
    }

    /** A DSL message ends with the kernel's call site, which says nothing about a command-line combination. */
    private static String withoutCallSite(String message) {
        return message.replaceFirst(" \\(at [^()]*:\\d+\\)$", "");
    }
}
