package dev.finegrain.compiler.compare;

import dev.finegrain.compiler.plan.LockChoices;
import dev.finegrain.dsl.ChannelPolicy;
import dev.finegrain.dsl.LockGranularity;
import dev.finegrain.dsl.Mutex;
import dev.finegrain.dsl.Schedule;
import dev.finegrain.dsl.WaitPolicy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The axes a sweep varies beyond sizes, schedules, backends and mechanisms: a kernel's params (seed 003's work per
 * link), the worker threads, and for lock-dataflow the granularity and the channel policy. An axis left empty is
 * not varied: the kernel's input generator gives the params, the request's thread count applies, the schedule's (or
 * kernel's) lock choices (granularity, channel policy, wait policy) stand. Model profile keys are varied through the backends' names
 * ({@code gpu-model:PROFILE@KEY=V}), and rows name them as axes too. Each row names the values of the axes that were given ({@link #PREFIX} details), so
 * rows of different points never merge or resume as one another.
 *
 * @param params        for each param swept, its values in the order given (a sweep takes their product)
 * @param threads       worker-thread counts for backends that run on threads; empty: the request's
 * @param granularities lock granularities for the lock-dataflow schedules; empty: the schedule's or kernel's
 * @param channels      channel policies for the lock-dataflow schedules; empty: the schedule's or kernel's
 * @param waitPolicies  wait policies for the lock-dataflow schedules' token waits and the wavefront's barrier waits;
 *                      empty: the schedule's (adaptive by default)
 * @param mutexes       mutexes for the lock-dataflow schedules' spin-locks; empty: the schedule's (else each target's
 *                      default: ttas on the JVM, the profile's default.mutex on a GPU)
 */
public record SweepAxes(Map<String, List<Object>> params, List<Integer> threads, List<Granularity> granularities,
                        List<ChannelPolicy> channels, List<WaitPolicy> waitPolicies, List<Mutex> mutexes) {

    /** The detail-key prefix of a row's axis values: {@code axis_work}, {@code axis_threads}. */
    public static final String PREFIX = "axis_";

    /** No axis varied. */
    public static final SweepAxes NONE = new SweepAxes(Map.of(), List.of(), List.of(), List.of(), List.of(), List.of());

    /** The axes without wait policies (most sweeps vary none). */
    public SweepAxes(Map<String, List<Object>> params, List<Integer> threads, List<Granularity> granularities,
                     List<ChannelPolicy> channels) {
        this(params, threads, granularities, channels, List.of(), List.of());
    }

    public SweepAxes {
        Map<String, List<Object>> copy = new LinkedHashMap<>();
        params.forEach((name, values) -> {
            if (values.isEmpty()) {
                throw new IllegalArgumentException("param '" + name + "' is swept over no values");
            }
            copy.put(name, List.copyOf(values));
        });
        params = java.util.Collections.unmodifiableMap(copy);
        threads = List.copyOf(threads);
        granularities = List.copyOf(granularities);
        channels = List.copyOf(channels);
        waitPolicies = List.copyOf(waitPolicies);
        mutexes = List.copyOf(mutexes);
        if (threads.stream().anyMatch(t -> t < 1)) {
            throw new IllegalArgumentException("thread counts must be positive: " + threads);
        }
    }

    /** A lock granularity as a sweep gives it: per thread, or warp-shared with its group size. */
    public record Granularity(LockGranularity granularity, int group) {

        public Granularity {
            Objects.requireNonNull(granularity, "granularity");
            if (granularity == LockGranularity.WARP_SHARED ? group < 1 : group != 1) {
                throw new IllegalArgumentException("a warp-shared group has at least one instance, a per-thread one exactly one: " + group);
            }
        }

        /** The schedule with this granularity. */
        Schedule.LockDataflow appliedTo(Schedule.LockDataflow schedule) {
            return granularity == LockGranularity.WARP_SHARED ? schedule.warpShared(group) : schedule.perThread();
        }
    }

    /** Each point of the params' product, in order (the first param varies slowest); one empty point when none is swept. */
    public List<Map<String, Object>> paramPoints() {
        List<Map<String, Object>> points = new ArrayList<>();
        points.add(Map.of());
        for (Map.Entry<String, List<Object>> param : params.entrySet()) {
            List<Map<String, Object>> next = new ArrayList<>();
            for (Map<String, Object> point : points) {
                for (Object value : param.getValue()) {
                    Map<String, Object> extended = new LinkedHashMap<>(point);
                    extended.put(param.getKey(), value);
                    next.add(java.util.Collections.unmodifiableMap(extended));
                }
            }
            points = next;
        }
        return points;
    }

    /**
     * Each schedule once per granularity and channel policy asked for, where it takes lock choices (lock-dataflow);
     * other schedules once, as given.
     */
    public List<Schedule> schedules(List<Schedule> given) {
        List<Schedule> out = new ArrayList<>();
        for (Schedule schedule : given) {
            if (schedule instanceof Schedule.Wavefront wavefront && !waitPolicies.isEmpty()) {
                waitPolicies.forEach(policy -> out.add(wavefront.waitPolicy(policy)));
                continue;
            }
            if (!(schedule instanceof Schedule.LockDataflow dataflow)) {
                out.add(schedule);
                continue;
            }
            List<Schedule.LockDataflow> variants = List.of(dataflow);
            for (List<UnaryOperator<Schedule.LockDataflow>> axis : lockChoiceAxes()) {
                if (!axis.isEmpty()) {
                    List<Schedule.LockDataflow> before = variants;
                    variants = before.stream().flatMap(one -> axis.stream().map(choice -> choice.apply(one))).toList();
                }
            }
            out.addAll(variants);
        }
        return out;
    }

    /** The lock-choice axes, each as the changes it makes to a lock-dataflow schedule (none when not varied). */
    private List<List<UnaryOperator<Schedule.LockDataflow>>> lockChoiceAxes() {
        return List.of(
                granularities.stream().map(g -> (UnaryOperator<Schedule.LockDataflow>) g::appliedTo).toList(),
                channels.stream().map(p -> (UnaryOperator<Schedule.LockDataflow>) one -> one.channels(p)).toList(),
                waitPolicies.stream().map(w -> (UnaryOperator<Schedule.LockDataflow>) one -> one.waitPolicy(w)).toList(),
                mutexes.stream().map(m -> (UnaryOperator<Schedule.LockDataflow>) one -> one.mutex(m)).toList());
    }

    /**
     * A param's value from its text, typed as the param is declared: what {@code --params} gives, what a row names
     * ({@code axis_work}) and what a search along a param tries.
     *
     * @throws NumberFormatException when the text is not a value of the param's type
     */
    public static Object paramValue(dev.finegrain.dsl.ParamSpec param, String text) {
        return switch (param.type()) {
            case INT -> Integer.parseInt(text);
            case LONG -> Long.parseLong(text);
            case DOUBLE -> Double.parseDouble(text);
            case BOOL -> switch (text) {
                case "true" -> true;
                case "false" -> false;
                default -> throw new NumberFormatException("not true or false: " + text);
            };
        };
    }

    /** Whether the thread count is an axis: more than one given. */
    public boolean threadsVary() {
        return threads.size() > 1;
    }

    /**
     * The axis values a row names, as its details carry them: its param point, its thread count where the threads
     * vary and its backend runs on threads, the profile keys its backend sets, and the wait policy of a lock-dataflow or
     * wavefront row ({@code choices}) and the mutex of a lock-dataflow row ({@code takesAMutex}) where the sweep varies
     * them. Granularity and channels have columns of their own.
     */
    Map<String, Object> named(Map<String, Object> paramPoint, int threads, boolean threadsNamed,
                              Map<String, String> profileSettings, Optional<LockChoices> choices, boolean takesAMutex) {
        Map<String, Object> named = new LinkedHashMap<>();
        choices.filter(c -> !waitPolicies.isEmpty()).ifPresent(c -> named.put(PREFIX + "wait", c.waitPolicy().cliName()));
        choices.filter(c -> !mutexes.isEmpty() && takesAMutex).ifPresent(c -> named.put(PREFIX + "mutex",
                c.mutex().map(dev.finegrain.dsl.Mutex::cliName).orElse("default")));
        profileSettings.forEach((key, value) -> named.put(PREFIX + key, value));
        paramPoint.forEach((name, value) -> named.put(PREFIX + name, value.toString()));
        if (threadsNamed) {
            named.put(PREFIX + "threads", Integer.toString(threads));
        }
        return named;
    }

    /** The axis values among a row's details, by key, sorted: part of what makes the row one combination. */
    static String axesText(Map<String, Object> details) {
        StringBuilder text = new StringBuilder();
        new java.util.TreeMap<>(details).forEach((key, value) -> {
            if (key.startsWith(PREFIX)) {
                text.append(text.isEmpty() ? "" : ",").append(key.substring(PREFIX.length())).append('=').append(value);
            }
        });
        return text.toString();
    }
}
