package dev.finegrain.compiler.compare;

import dev.finegrain.compiler.backend.Backend;
import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.compiler.plan.LockChoices;
import dev.finegrain.compiler.resolve.Resolution;
import dev.finegrain.compiler.resolve.Skip;
import dev.finegrain.compiler.resolve.VariantRequest;
import dev.finegrain.compiler.resolve.VariantResolver;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LockGranularity;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;

import java.util.ArrayList;
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
     * @param kernel      the kernel as declared
     * @param lockChoices the lock choices the schedule runs it with
     * @param params      the params this row sets over the input generator's (a swept param's value)
     * @param threads     the worker threads of this row, where its backend runs on threads
     * @param axes        the axis values the row names ({@link SweepAxes#PREFIX} keys), carried in its details
     */
    public record Planned(int[] sizes, Schedule schedule, Kernel kernel, LockChoices lockChoices, Backend backend,
                          Optional<LockMechanism> mechanism, Optional<Variant> variant, Optional<String> skipReason,
                          Map<String, Object> params, int threads, Map<String, Object> axes) {

        public String mechanismText() {
            return mechanism.map(LockMechanism::cliName).orElse("-");
        }

        /**
         * Warp mechanisms keep one token per warp whatever the kernel asks for, and the row says so; a warp-shared
         * group other than a warp of 32 is named with its size ({@code warp-shared:8}).
         */
        public String granularityText() {
            LockGranularity granularity = mechanism.map(lockChoices::granularityWith).orElse(lockChoices.granularity());
            return granularity == LockGranularity.WARP_SHARED && lockChoices.groupSize() != WARP
                    ? granularity.cliName() + ":" + lockChoices.groupSize() : granularity.cliName();
        }

        /** The combination the row will be, as {@link ResultRow#combination} names it. */
        public String combination(long seed) {
            return ResultRow.combination(kernel.name(), sizeText(sizes), schedule.cliName(), backend.name(), mechanismText(),
                    granularityText(), lockChoices.channelPolicy().cliName(), seed, SweepAxes.axesText(axes));
        }
    }

    /** The group a warp-shared granularity names without its size: a GPU warp. */
    private static final int WARP = 32;

    private final ComparisonRequest request;
    private final Kernel kernel;
    private final VariantResolver resolver = new VariantResolver();
    private final List<Planned> rows = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    /** Per backend, schedule and reason, the mechanisms the sweep left out for it, in the order met. */
    private final Map<LeftOut, Map<String, String>> leftOut = new java.util.LinkedHashMap<>();

    /**
     * Why a backend cannot use some mechanisms under a schedule, without the mechanism's own name at the reason's head
     * ({@link #shared}): one entry of the sweep's left-out note.
     */
    private record LeftOut(String backend, String schedule, String reason) {}

    private final List<String> leftOutSchedules = new ArrayList<>();

    /**
     * A reason as several mechanisms can share it: "mbarrier keeps its tokens ..." and "named-barrier keeps its tokens
     * ..." are one reason, "keeps its tokens ...", said once for both.
     */
    private static String shared(String mechanism, String reason) {
        return reason.startsWith(mechanism + " ") ? reason.substring(mechanism.length() + 1) : reason;
    }

    /** One entry of the note: the mechanisms, and the reason as the one gives it or, shared by several, said of each. */
    private static String entry(LeftOut key, Map<String, String> reasons) {
        String first = reasons.keySet().iterator().next();
        String reason = reasons.size() == 1 || reasons.get(first).equals(key.reason()) ? reasons.get(first) : "each " + key.reason();
        return key.backend() + " " + key.schedule() + " " + String.join(", ", reasons.keySet()) + " (" + reason + ")";
    }

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

    public ComparisonRequest request() {
        return request;
    }

    /**
     * What every run of this sweep has alike, on whatever machine and shard it runs: the kernel's definition, every
     * row's combination, and what changes its measurements (the threads, where a backend runs on threads; timed or
     * run once). A journal and a shard's rows carry it, so that a resume or a merge refuses another sweep's rows.
     */
    public String identity() {
        StringBuilder text = new StringBuilder(kernel.toString());
        rows.forEach(row -> text.append('\n').append(row.combination(request.seed())));
        if (rows.stream().anyMatch(row -> row.backend().usesThreads())) {
            text.append("\nthreads ").append(request.axes().threadsVary() ? request.axes().threads() : threadsOf(request.axes()));
        }
        text.append("\nmeasure ").append(request.measure());
        if (request.timedRuns() != RunSettings.DEFAULT_TIMED_RUNS) {
            // only when asked: a journal of a sweep with the default runs stays the same sweep
            text.append(" runs ").append(request.timedRuns());
        }
        try {
            byte[] digest = java.security.MessageDigest.getInstance("SHA-256")
                    .digest(text.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(digest, 0, 8);
        } catch (java.security.NoSuchAlgorithmException impossible) {
            throw new IllegalStateException("every JDK has SHA-256", impossible);
        }
    }

    /** The resolver every row was resolved by: the kernel's graph, compiled once, is the oracle's too. */
    public VariantResolver resolver() {
        return resolver;
    }

    private void expand() {
        List<int[]> sizes = distinctSizes();
        SweepAxes axes = request.axes();
        List<Schedule> schedules = axes.schedules(request.schedules()).stream().map(s -> s.normalized(kernel.rank()))
                .distinct().toList();
        List<Backend> backends = distinctBackends();
        refuseMeaninglessRequests(schedules, backends);
        List<Resolved> resolved = new ArrayList<>();
        for (Schedule schedule : schedules) {
            for (Backend backend : backends) {
                resolved.addAll(resolve(schedule, backend));
            }
        }
        java.util.Set<String> combinations = new java.util.HashSet<>();
        int repeats = 0;
        for (int[] size : sizes) {
            for (Map<String, Object> point : axes.paramPoints()) {
                for (Resolved row : resolved) {
                    Optional<String> skip = row.resolution.skip()
                            .or(() -> row.resolution.variant().flatMap(v -> VariantResolver.sizeMisfit(v, row.backend, size)))
                            .map(Skip::message);
                    Optional<Variant> variant = skip.isPresent() ? Optional.empty() : row.resolution.variant();
                    // a backend that runs on no threads gives one row, whatever thread counts the sweep names
                    boolean threaded = row.backend.usesThreads() && axes.threadsVary();
                    for (int threads : threaded ? axes.threads() : List.of(threadsOf(axes))) {
                        Planned planned = new Planned(size, row.schedule, kernel, lockChoices(row.schedule), row.backend,
                                row.mechanism, variant, skip, point, threads, axes.named(point, threads, threaded,
                                        Backends.profileSettings(row.backend.name()), row.schedule instanceof Schedule.LockDataflow
                                                || row.schedule instanceof Schedule.Wavefront
                                                ? Optional.of(lockChoices(row.schedule)) : Optional.empty(),
                                        row.schedule instanceof Schedule.LockDataflow));
                        // a mechanism that fixes a choice the axes vary (a warp mechanism's granularity) makes one row of two
                        if (combinations.add(planned.combination(request.seed()))) {
                            rows.add(planned);
                        } else {
                            repeats++;
                        }
                    }
                }
            }
        }
        if (repeats > 0) {
            notes.add(repeats + " combination(s) left out as repeats of another row (a mechanism that fixes what an axis"
                    + " varies, such as a warp mechanism's granularity)");
        }
        if (!leftOutSchedules.isEmpty()) {
            // a schedule repeated along an axis (a wait policy, a granularity) is left out once
            notes.add("left out (backends that never run these schedules): " + String.join("; ",
                    new java.util.LinkedHashSet<>(leftOutSchedules)));
        }
        if (!leftOut.isEmpty()) {
            // one entry per reason, naming every mechanism it leaves out, so a reason shared by many is read once
            notes.add("left out of the mechanism sweep (the backend cannot use them for kernel '" + kernel.name() + "'): "
                    + leftOut.entrySet().stream().map(e -> entry(e.getKey(), e.getValue())).collect(Collectors.joining("; ")));
        }
        if (request.threadsRequested() && backends.stream().noneMatch(Backend::usesThreads)) {
            notes.add("--threads applies to backends that run on threads (jvm); "
                    + backends.stream().map(Backend::name).collect(Collectors.joining(", ")) + " ignore it");
        }
    }

    /** The thread count of a sweep that does not vary it: the one given as an axis, else the request's. */
    private int threadsOf(SweepAxes axes) {
        return axes.threads().isEmpty() ? request.threads() : axes.threads().getFirst();
    }

    /** The lock choices of a schedule's rows: its plan's, or, for a schedule that cannot order the kernel, as it asks. */
    private LockChoices lockChoices(Schedule schedule) {
        return resolver.plan(kernel, schedule).plan().map(ExecutionPlan::lockChoices)
                .orElseGet(() -> LockChoices.of(kernel, schedule));
    }

    /** One row before sizes multiply it: the mechanism it was asked with (empty: none) and what the resolver answered. */
    private record Resolved(Schedule schedule, Backend backend, Optional<LockMechanism> mechanism, Resolution resolution) {}

    /**
     * The rows of one schedule on one backend: one row where the schedule or backend takes no mechanism or refuses
     * the kernel outright, else one per mechanism the request asks for (every one the backend can use, when it asks for
     * all; the others are left out with a note).
     */
    private List<Resolved> resolve(Schedule schedule, Backend backend) {
        VariantRequest asked = VariantRequest.of(kernel, schedule, backend);
        Optional<String> repeats = backend.repeatsAnotherRow(schedule);
        if (repeats.isPresent()) {
            leftOutSchedules.add(backend.name() + " " + schedule.cliName() + " (" + repeats.get() + ")");
            return List.of();
        }
        Optional<Skip> refused = resolver.refusal(kernel, schedule, backend);
        if (refused.isPresent() && refused.get().reason() == Skip.Reason.TARGET_NEVER_RUNS_SCHEDULE) {
            leftOutSchedules.add(backend.name() + " " + schedule.cliName() + " (" + refused.get().detail() + ")");
            return List.of();
        }
        if (refused.isPresent() || !(schedule instanceof Schedule.LockDataflow dataflow) || backend.modelsSyncAbstractly()) {
            // one row for any mechanisms: an abstract backend's critical path is the baseline the mechanisms' rows are read against
            return List.of(new Resolved(schedule, backend, Optional.empty(), resolver.resolve(asked)));
        }
        List<LockMechanism> wanted = switch (request.mechanisms().kind()) {
            case LISTED -> request.mechanisms().listed();
            case OWN_OR_ALL -> dataflow.mechanismFor(kernel).map(List::of).orElse(null);
            case ALL -> null;
        };
        if (wanted == null) {
            ExecutionPlan plan = resolver.plan(kernel, schedule).plan().orElseThrow();
            wanted = new ArrayList<>();
            for (var fit : resolver.mechanismFits(backend, plan).entrySet()) {
                if (fit.getValue().isEmpty()) {
                    wanted.add(fit.getKey());
                } else {
                    String mechanism = fit.getKey().toString();
                    leftOut.computeIfAbsent(new LeftOut(backend.name(), schedule.cliName(), shared(mechanism, fit.getValue().get())),
                            unused -> new java.util.LinkedHashMap<>()).put(mechanism, fit.getValue().get());
                }
            }
            if (wanted.isEmpty()) {
                // the resolver says why no mechanism fits, each reason once
                return List.of(new Resolved(schedule, backend, Optional.empty(), resolver.resolve(asked)));
            }
        }
        return wanted.stream().map(mechanism -> new Resolved(schedule, backend, Optional.of(mechanism),
                resolver.resolve(asked.withMechanism(mechanism)))).toList();
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

    public static String sizeText(int[] sizes) {
        return VariantResolver.sizeText(sizes);
    }
}
