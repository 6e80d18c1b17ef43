package dev.finegrain.compiler.compare;

import dev.finegrain.compiler.backend.Backend;
import dev.finegrain.compiler.backend.BackendRun;
import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.reference.SequentialOracle;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.DataParallelPlan;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LibraryKernel;
import dev.finegrain.dsl.LockGranularity;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Runs every combination of size x schedule x backend x mechanism for one kernel and verifies each result
 * against the sequential oracle on the same inputs. Plans are lowered once per schedule, inputs and the oracle
 * once per size.
 */
public final class ComparisonRunner {

    /**
     * @param mechanisms requested lock mechanisms; empty means every mechanism each backend implements
     * @param threads    worker threads for backends that run on threads
     * @param measure    warm up and report the median of several timed runs, rather than run once
     * @param progress   where to report progress of long sweeps, or null
     */
    public record Request(LibraryKernel kernel, List<int[]> sizes, List<Schedule> schedules, List<Backend> backends,
                          List<LockMechanism> mechanisms, long seed, int threads, boolean measure, PrintWriter progress) {

        /** One run per combination on every available processor: what tests and quick checks want. */
        public static Request once(LibraryKernel kernel, List<int[]> sizes, List<Schedule> schedules, List<Backend> backends, long seed) {
            return new Request(kernel, sizes, schedules, backends, List.of(), seed, RunSettings.defaultThreads(), false, null);
        }
    }

    private ComparisonRunner() {}

    public static List<ResultRow> run(Request given) {
        Request request = withoutRepeats(given);
        Kernel kernel = request.kernel().kernel();
        KernelGraph graph = Pipeline.compile(kernel);
        // keyed by the schedule the plan settles on, so data-parallel:16 and data-parallel:16x16 (2-D) run once
        Map<Schedule, ExecutionPlan> plans = new LinkedHashMap<>();
        for (Schedule schedule : request.schedules()) {
            ExecutionPlan plan = SchedulePlanner.plan(graph, schedule);
            plans.putIfAbsent(plan.schedule(), plan);
        }
        if (!request.mechanisms().isEmpty() && request.backends().stream().allMatch(Backend::modelsSyncAbstractly)) {
            throw new UsageException("backend '" + request.backends().getFirst().name() + "' models sync points abstractly and "
                    + "takes no lock mechanism; drop the mechanism option or add a backend that implements "
                    + request.mechanisms().getFirst());
        }
        if (!request.mechanisms().isEmpty() && request.progress() != null) {
            request.backends().stream().filter(Backend::modelsSyncAbstractly).forEach(abstractBackend -> request.progress().println(
                    "note: backend '" + abstractBackend.name() + "' takes no lock mechanism, so a mechanism sweep leaves it out"));
        }
        Map<Schedule, Map<Backend, List<Optional<LockMechanism>>>> combinations = new LinkedHashMap<>();
        int total = 0;
        for (Schedule schedule : plans.keySet()) {
            Map<Backend, List<Optional<LockMechanism>>> byBackend = new LinkedHashMap<>();
            for (Backend backend : request.backends()) {
                Optional<String> cannot = backend.unsupportedKernel(graph, schedule);
                if (cannot.isPresent()) {
                    throw new UsageException("backend '" + backend.name() + "' cannot run " + schedule.cliName()
                            + " of kernel '" + graph.name() + "': " + cannot.get() + "; leave it out with --schedules"
                            + " or --backends");
                }
                List<Optional<LockMechanism>> mechanisms = mechanismsFor(backend, graph, schedule, request.mechanisms());
                byBackend.put(backend, mechanisms);
                total += mechanisms.size() * request.sizes().size();
            }
            combinations.put(schedule, byBackend);
        }
        boolean someRowTakesAMechanism = combinations.values().stream().flatMap(byBackend -> byBackend.values().stream())
                .flatMap(List::stream).anyMatch(Optional::isPresent);
        if (!request.mechanisms().isEmpty() && !someRowTakesAMechanism) {
            throw new UsageException(plans.keySet().stream().map(Schedule::cliName).collect(Collectors.joining(", "))
                    + (plans.size() == 1 ? " synchronises" : " synchronise") + " with barriers only and takes no lock mechanism; "
                    + "drop the mechanism option or add the lock-dataflow schedule");
        }
        for (int[] sizes : request.sizes()) {
            for (ExecutionPlan plan : plans.values()) {
                requireTilesDivide(plan, sizes);
            }
        }
        RunSettings settings = new RunSettings(request.seed(), request.threads(), request.measure(),
                RunSettings.DEFAULT_STALL_TIMEOUT_NANOS);
        List<ResultRow> rows = new ArrayList<>();
        for (int[] sizes : request.sizes()) {
            Invocation invocation = request.kernel().inputs().generate(kernel, sizes, request.seed());
            KernelOutputs oracle = SequentialOracle.run(graph, invocation);
            for (Map.Entry<Schedule, ExecutionPlan> plan : plans.entrySet()) {
                for (Map.Entry<Backend, List<Optional<LockMechanism>>> backend : combinations.get(plan.getKey()).entrySet()) {
                    for (Optional<LockMechanism> mechanism : backend.getValue()) {
                        if (request.progress() != null && total > 1) {
                            request.progress().printf("[%d/%d] %s %s %s %s %s%n", rows.size() + 1, total, kernel.name(),
                                    sizeText(sizes), plan.getValue().schedule().cliName(), backend.getKey().name(),
                                    mechanism.map(LockMechanism::cliName).orElse(""));
                            request.progress().flush();
                        }
                        Variant variant = new Variant(graph, plan.getValue(), mechanism);
                        BackendRun run = backend.getKey().run(variant, invocation, settings);
                        rows.add(row(variant, backend.getKey(), sizes, run, oracle, request.seed()));
                    }
                }
            }
        }
        return rows;
    }

    /**
     * A data-parallel plan's tiles must divide the sizes (Rodinia's structure); the usage error says so in the
     * command line's words.
     */
    public static void requireTilesDivide(ExecutionPlan plan, int[] sizes) {
        if (plan instanceof DataParallelPlan dataParallel) {
            dataParallel.tileMisfit(sizes).ifPresent(misfit -> {
                throw new UsageException(plan.schedule().cliName() + " tiles do not divide size " + sizeText(sizes) + " of kernel '"
                        + plan.graph().name() + "' (" + misfit + "); choose sizes that are multiples of the tile, or a tile "
                        + "that divides them (data-parallel:B or data-parallel:BxC)");
            });
        }
    }

    /**
     * The request with each size, backend (by name) and mechanism once, in the order first given: a repeat would only
     * run the same verified row again. Schedules are merged where they are planned.
     */
    private static Request withoutRepeats(Request request) {
        Map<String, int[]> sizes = new LinkedHashMap<>();
        request.sizes().forEach(size -> sizes.putIfAbsent(sizeText(size), size));
        Map<String, Backend> backends = new LinkedHashMap<>();
        request.backends().forEach(backend -> backends.putIfAbsent(backend.name(), backend));
        return new Request(request.kernel(), List.copyOf(sizes.values()), request.schedules(), List.copyOf(backends.values()),
                request.mechanisms().stream().distinct().toList(), request.seed(), request.threads(), request.measure(),
                request.progress());
    }

    /**
     * The mechanisms to run a backend with under a schedule: the requested ones (each must be supported), or all
     * it supports; a single empty entry for schedules that use barriers only and for abstract backends, and none for
     * an abstract backend in a mechanism sweep.
     */
    private static List<Optional<LockMechanism>> mechanismsFor(Backend backend, KernelGraph graph, Schedule schedule,
                                                               List<LockMechanism> requested) {
        if (backend.modelsSyncAbstractly() && !requested.isEmpty()) {
            return List.of();
        }
        List<LockMechanism> available = backend.mechanisms(graph, schedule);
        if (available.isEmpty()) {
            return List.of(Optional.empty());
        }
        if (requested.isEmpty()) {
            return available.stream().map(Optional::of).toList();
        }
        for (LockMechanism mechanism : requested) {
            Optional<String> reason = backend.unsupported(graph, schedule, mechanism);
            if (reason.isPresent()) {
                throw new UsageException("backend '" + backend.name() + "' cannot run " + schedule.cliName() + " of kernel '"
                        + graph.name() + "' with mechanism '" + mechanism + "': " + reason.get() + "; it can use "
                        + available.stream().map(LockMechanism::cliName).collect(Collectors.joining(", ")));
            }
        }
        return requested.stream().map(Optional::of).toList();
    }

    private static ResultRow row(Variant variant, Backend backend, int[] sizes, BackendRun run, KernelOutputs oracle, long seed) {
        Kernel kernel = variant.graph().kernel();
        Optional<String> problem = run.failure().or(() -> oracle.firstDifference(variant.graph(), sizes, run.outputs()));
        return new ResultRow(kernel.name(), sizeText(sizes), variant.plan().schedule().cliName(), backend.name(),
                variant.mechanism().map(LockMechanism::cliName).orElse("-"),
                variant.mechanism().map(LockMechanism::oneTokenPerWarp).orElse(false)
                        ? LockGranularity.WARP_SHARED.cliName() : kernel.granularity().cliName(),
                kernel.channelPolicy().cliName(), problem.isEmpty(), run.metric(), run.value(), run.unit(), seed,
                problem.orElse(""), run.details());
    }

    public static String sizeText(int[] sizes) {
        return Arrays.stream(sizes).mapToObj(String::valueOf).collect(Collectors.joining("x"));
    }
}
