package dev.finegrain.compiler.compare;

import dev.finegrain.compiler.backend.Backend;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.DataParallelPlan;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.KernelDefinitionException;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Expands a {@link ComparisonRequest} into the rows it will produce, in order (size, schedule, backend, mechanism),
 * before anything runs: each row is a variant to run, or a combination already known to be skipped, with the reason
 * in the command line's words. What a request asks for that cannot make sense at all (a mechanism sweep with only
 * backends that take none) is a {@link UsageException}; what one combination cannot do is a skipped row; what a
 * sweep over every mechanism leaves out is a note.
 */
public final class Sweep {

    /**
     * A row to come. Exactly one of {@code variant} and {@code skipReason} is present.
     *
     * @param kernel the kernel as the schedule runs it (its lock choices applied)
     */
    public record Planned(int[] sizes, Schedule schedule, Kernel kernel, Backend backend, Optional<LockMechanism> mechanism,
                          Optional<Variant> variant, Optional<String> skipReason) {

        public String mechanismText() {
            return mechanism.map(LockMechanism::cliName).orElse("-");
        }

        /** Warp mechanisms keep one token per warp whatever the kernel asks for, and the row says so. */
        public String granularityText() {
            return mechanism.map(m -> m.granularityFor(kernel.granularity())).orElse(kernel.granularity()).cliName();
        }
    }

    private final ComparisonRequest request;
    private final Kernel kernel;
    private final List<Planned> rows = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final List<String> leftOut = new ArrayList<>();
    private final List<String> leftOutSchedules = new ArrayList<>();
    private final Map<Kernel, KernelGraph> graphs = new IdentityHashMap<>();

    private Sweep(ComparisonRequest request) {
        this.request = request;
        this.kernel = request.kernel().kernel();
    }

    public static Sweep of(ComparisonRequest request) {
        Sweep sweep = new Sweep(request);
        sweep.expand();
        return sweep;
    }

    public List<Planned> rows() {
        return rows;
    }

    public List<String> notes() {
        return notes;
    }

    private void expand() {
        List<int[]> sizes = distinctSizes();
        List<Schedule> schedules = request.schedules().stream().map(s -> s.normalized(kernel.rank())).distinct().toList();
        List<Backend> backends = distinctBackends();
        refuseMeaninglessRequests(schedules, backends);
        List<ScheduleRows> perSchedule = schedules.stream().map(schedule -> scheduleRows(schedule, backends)).toList();
        for (int[] size : sizes) {
            for (ScheduleRows schedule : perSchedule) {
                Optional<String> misfit = schedule.plan.flatMap(plan -> tileMisfitMessage(plan, size));
                for (BackendRows backend : schedule.backends) {
                    for (Optional<LockMechanism> mechanism : backend.mechanisms) {
                        Optional<String> skip = backend.skipReasons.getOrDefault(mechanism, schedule.skipReason)
                                .or(() -> misfit);
                        Optional<Variant> variant = skip.isPresent() ? Optional.empty()
                                : Optional.of(new Variant(schedule.graph.orElseThrow(), schedule.plan.orElseThrow(), mechanism));
                        rows.add(new Planned(size, schedule.schedule, schedule.kernel, backend.backend, mechanism, variant, skip));
                    }
                }
            }
        }
        if (!leftOutSchedules.isEmpty()) {
            notes.add("left out (backends that never run these schedules): " + String.join("; ", leftOutSchedules));
        }
        if (!leftOut.isEmpty()) {
            notes.add("left out of the mechanism sweep (the backend cannot use them for kernel '" + kernel.name() + "'): "
                    + String.join("; ", leftOut));
        }
        if (request.threadsRequested() && backends.stream().noneMatch(Backend::usesThreads)) {
            notes.add("--threads applies to backends that run on threads (jvm); "
                    + backends.stream().map(Backend::name).collect(Collectors.joining(", ")) + " ignore it");
        }
    }

    /** The rows of one schedule, by backend, before sizes multiply them. */
    private record ScheduleRows(Schedule schedule, Kernel kernel, Optional<KernelGraph> graph, Optional<ExecutionPlan> plan,
                                Optional<String> skipReason, List<BackendRows> backends) {}

    /**
     * @param mechanisms  one entry per row (empty: the row takes no mechanism)
     * @param skipReasons why a row is skipped, by its mechanism, when the backend already knows it cannot run it
     */
    private record BackendRows(Backend backend, List<Optional<LockMechanism>> mechanisms,
                               Map<Optional<LockMechanism>, Optional<String>> skipReasons) {}

    private ScheduleRows scheduleRows(Schedule schedule, List<Backend> backends) {
        Kernel applied;
        KernelGraph graph;
        ExecutionPlan plan;
        try {
            applied = schedule.appliedTo(kernel);
            graph = graphs.computeIfAbsent(applied, Pipeline::compile);
            plan = SchedulePlanner.plan(graph, schedule);
        } catch (KernelDefinitionException cannotPlan) {
            String reason = schedule.cliName() + " cannot run kernel '" + kernel.name() + "': "
                    + withoutKernelName(withoutCallSite(cannotPlan.getMessage()), kernel.name());
            List<BackendRows> skipped = backends.stream().map(backend -> new BackendRows(backend, List.of(Optional.<LockMechanism>empty()),
                    Map.of())).toList();
            return new ScheduleRows(schedule, kernel, Optional.empty(), Optional.empty(), Optional.of(reason), skipped);
        }
        List<BackendRows> rowsByBackend = new ArrayList<>();
        for (Backend backend : backends) {
            BackendRows rows = backendRows(backend, graph, schedule);
            if (!rows.mechanisms.isEmpty()) {
                rowsByBackend.add(rows);
            }
        }
        return new ScheduleRows(schedule, applied, Optional.of(graph), Optional.of(plan), Optional.empty(), rowsByBackend);
    }

    private BackendRows backendRows(Backend backend, KernelGraph graph, Schedule schedule) {
        Map<Optional<LockMechanism>, Optional<String>> skips = new LinkedHashMap<>();
        Optional<String> never = backend.neverRuns(schedule);
        if (never.isPresent()) {
            leftOutSchedules.add(backend.name() + " " + schedule.cliName() + " (" + never.get() + ")");
            return new BackendRows(backend, List.of(), skips);
        }
        Optional<String> cannot = backend.unsupportedKernel(graph, schedule);
        if (cannot.isPresent()) {
            skips.put(Optional.empty(), Optional.of("backend '" + backend.name() + "' cannot run " + schedule.cliName()
                    + " of kernel '" + graph.name() + "': " + cannot.get()));
            return new BackendRows(backend, List.of(Optional.empty()), skips);
        }
        if (!(schedule instanceof Schedule.LockDataflow dataflow)) {
            return new BackendRows(backend, List.of(Optional.empty()), skips);
        }
        if (backend.modelsSyncAbstractly()) {
            // one row for any mechanisms: its critical path is the baseline the mechanisms' rows are read against
            return new BackendRows(backend, List.of(Optional.empty()), skips);
        }
        List<LockMechanism> wanted = switch (request.mechanisms().kind()) {
            case LISTED -> request.mechanisms().listed();
            case OWN_OR_ALL -> dataflow.mechanismFor(kernel).map(List::of).orElse(null);
            case ALL -> null;
        };
        List<Optional<LockMechanism>> mechanisms = new ArrayList<>();
        if (wanted == null) {
            Map<String, List<String>> mechanismsByReason = new LinkedHashMap<>();
            for (LockMechanism mechanism : backend.sweep()) {
                Optional<String> reason = backend.unsupported(graph, schedule, mechanism);
                if (reason.isEmpty()) {
                    mechanisms.add(Optional.of(mechanism));
                } else {
                    leftOut.add(backend.name() + " " + mechanism + " (" + reason.get() + ")");
                    mechanismsByReason.computeIfAbsent(reason.get(), r -> new ArrayList<>()).add(mechanism.toString());
                }
            }
            if (mechanisms.isEmpty()) {
                // one reason shared by every mechanism (a schedule the kernel's shape does not fit) is said once
                String why = mechanismsByReason.size() == 1 ? mechanismsByReason.keySet().iterator().next()
                        : String.join("; ", mechanismsByReason.entrySet().stream()
                                .map(e -> String.join(", ", e.getValue()) + ": " + e.getKey()).toList());
                skips.put(Optional.empty(), Optional.of("backend '" + backend.name() + "' has no lock mechanism for "
                        + schedule.cliName() + " of kernel '" + graph.name() + "': " + why));
                return new BackendRows(backend, List.of(Optional.empty()), skips);
            }
            return new BackendRows(backend, mechanisms, skips);
        }
        for (LockMechanism mechanism : wanted) {
            Optional<LockMechanism> row = Optional.of(mechanism);
            mechanisms.add(row);
            backend.unsupported(graph, schedule, mechanism).ifPresent(reason -> skips.put(row, Optional.of("backend '"
                    + backend.name() + "' cannot use mechanism '" + mechanism + "' for kernel '" + graph.name() + "': " + reason)));
        }
        return new BackendRows(backend, mechanisms, skips);
    }

    /** Mistakes of the whole request, not of one combination: a usage error before anything runs. */
    private void refuseMeaninglessRequests(List<Schedule> schedules, List<Backend> backends) {
        if (!request.mechanisms().isListed()) {
            return;
        }
        if (backends.stream().allMatch(Backend::modelsSyncAbstractly)) {
            throw new UsageException("backend '" + backends.getFirst().name() + "' models sync points abstractly and "
                    + "takes no lock mechanism; drop the mechanism option or add a backend that implements "
                    + request.mechanisms().listed().getFirst());
        }
        if (schedules.stream().noneMatch(Schedule.LockDataflow.class::isInstance)) {
            throw new UsageException(schedules.stream().map(Schedule::cliName).collect(Collectors.joining(", "))
                    + (schedules.size() == 1 ? " synchronises" : " synchronise") + " with barriers only and takes no lock "
                    + "mechanism; drop the mechanism option or add the lock-dataflow schedule");
        }
    }

    /** Each size once (by its text), in the order first given: a repeat would only run the same rows again. */
    private List<int[]> distinctSizes() {
        Map<String, int[]> sizes = new LinkedHashMap<>();
        request.sizes().forEach(size -> sizes.putIfAbsent(sizeText(size), size));
        return List.copyOf(sizes.values());
    }

    private List<Backend> distinctBackends() {
        Map<String, Backend> backends = new LinkedHashMap<>();
        request.backends().forEach(backend -> backends.putIfAbsent(backend.name(), backend));
        return List.copyOf(backends.values());
    }

    /** Why a data-parallel plan's tiles cannot cover a size, in the command line's words (Rodinia's tiles divide the sizes). */
    static Optional<String> tileMisfitMessage(ExecutionPlan plan, int[] sizes) {
        if (!(plan instanceof DataParallelPlan dataParallel)) {
            return Optional.empty();
        }
        return dataParallel.tileMisfit(sizes).map(misfit -> plan.schedule().cliName() + " tiles do not divide size "
                + sizeText(sizes) + " of kernel '" + plan.graph().name() + "' (" + misfit + "); choose sizes that are "
                + "multiples of the tile, or a tile that divides them (data-parallel:B or data-parallel:BxC)");
    }

    public static String sizeText(int[] sizes) {
        return Arrays.stream(sizes).mapToObj(String::valueOf).collect(Collectors.joining("x"));
    }

    /** A DSL message starts with the kernel's name, which the row's reason has named already. */
    private static String withoutKernelName(String message, String kernelName) {
        String prefix = "kernel '" + kernelName + "': ";
        return message.startsWith(prefix) ? message.substring(prefix.length()) : message;
    }

    /** A DSL message ends with the kernel's call site, which says nothing about a command-line combination. */
    private static String withoutCallSite(String message) {
        return message.replaceFirst(" \\(at [^()]*:\\d+\\)$", "");
    }
}
