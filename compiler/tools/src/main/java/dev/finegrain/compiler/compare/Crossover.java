package dev.finegrain.compiler.compare;

import dev.finegrain.compiler.backend.Backend;
import dev.finegrain.dsl.LibraryKernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Where one variant starts to beat another along an axis (the size, or a param of the kernel): both are measured at
 * the two ends of a range, and, where the winner differs, at the midpoint of the interval that still holds the change,
 * until the interval is one step wide. Each probe runs both variants through the sweep, so each is verified against the
 * oracle; a probe whose row is not verified ends the search with that row's problem. A variant's cost is its time (the
 * measured median, or the modelled time) or, for the reference, its critical path; its spread is half the range of the
 * repeated runs' costs (or of the timed runs' quartiles, where a backend gives them), so a difference within the two
 * spreads is called a tie rather than a win.
 */
public final class Crossover {

    /** A variant to compare: a schedule on a backend, with a mechanism and a thread count where they apply. */
    public record Variant(Schedule schedule, Backend backend, Optional<LockMechanism> mechanism, Optional<Integer> threads) {

        public Variant {
            Objects.requireNonNull(schedule, "schedule");
            Objects.requireNonNull(backend, "backend");
            Objects.requireNonNull(mechanism, "mechanism");
            Objects.requireNonNull(threads, "threads");
        }

        /** The variant as the command line spells it: {@code lock-dataflow/jvm/lock-box/threads=2}. */
        public String text() {
            return schedule.cliName() + "/" + backend.name() + mechanism.map(m -> "/" + m.cliName()).orElse("")
                    + threads.map(t -> "/threads=" + t).orElse("");
        }
    }

    /** What a variant cost at one point: the cost (lower is better), its spread, and the row it came from. */
    public record Measured(double cost, double spread, String unit, ResultRow row) {

        /** The cost as the commands print it: four significant digits, the spread where there is one, the unit. */
        public String text() {
            String plusMinus = spread > 0 ? String.format(java.util.Locale.ROOT, " ±%.3g", spread) : "";
            return String.format(java.util.Locale.ROOT, "%.4g%s %s", cost, plusMinus, unit);
        }
    }

    /** Both variants at one value of the axis. */
    public record Probe(long value, Measured a, Measured b) {

        /** Whether A costs less than B. */
        public boolean aWins() {
            return a.cost() < b.cost();
        }

        /** Whether the difference exceeds the two runs' spreads together. */
        public boolean beyondSpread() {
            return Math.abs(a.cost() - b.cost()) > a.spread() + b.spread();
        }
    }

    /**
     * The search's answer: the probes in the order run, and, where the winner changes within the range, the two
     * neighbouring values the change lies between ({@code below} won by the variant that loses at {@code above}).
     */
    public record Result(List<Probe> probes, Optional<Probe> below, Optional<Probe> above) {

        /**
         * The answer from probes measured elsewhere on a grid of values (rows imported from a GPU run): the least
         * value at which A beats B, and the grid value before it.
         */
        public static Result ofGrid(List<Probe> probes) {
            List<Probe> sorted = probes.stream().sorted(java.util.Comparator.comparingLong(Probe::value)).toList();
            for (int p = 0; p < sorted.size(); p++) {
                if (sorted.get(p).aWins()) {
                    return p == 0 ? new Result(sorted, Optional.empty(), Optional.empty())
                            : new Result(sorted, Optional.of(sorted.get(p - 1)), Optional.of(sorted.get(p)));
                }
            }
            return new Result(sorted, Optional.empty(), Optional.empty());
        }
    }

    private final LibraryKernel kernel;
    private final String axis;
    private final int[] fixedSizes;
    private final int repeats;
    private final long seed;
    private final Consumer<String> progress;
    /** Each variant's cost at each value, measured once per search object: a baseline shared by several searches runs once. */
    private final Map<String, Measured> measured = new java.util.HashMap<>();

    /**
     * @param axis       {@code size} (every extent the value), or a param of the kernel
     * @param fixedSizes the sizes when the axis is a param
     * @param repeats    runs of each variant at each point, for the spread of timed backends
     */
    public Crossover(LibraryKernel kernel, String axis, int[] fixedSizes, int repeats, long seed, Consumer<String> progress) {
        this.kernel = Objects.requireNonNull(kernel, "kernel");
        this.axis = Objects.requireNonNull(axis, "axis");
        this.fixedSizes = fixedSizes == null ? null : fixedSizes.clone();
        this.repeats = repeats;
        this.seed = seed;
        this.progress = progress;
        if (repeats < 1) {
            throw new IllegalArgumentException("repeats must be positive: " + repeats);
        }
    }

    /** Bisects [from, to] in steps of {@code step} for where A's lead over B changes sign. */
    public Result search(Variant a, Variant b, long from, long to, long step) {
        if (from >= to || step < 1 || (to - from) % step != 0) {
            throw new UsageException("the range " + from + " to " + to + " in steps of " + step + " is empty or uneven;"
                    + " give --from below --to, their difference a multiple of --step");
        }
        List<Probe> probes = new ArrayList<>();
        Probe low = probe(a, b, from, probes);
        Probe high = probe(a, b, to, probes);
        if (low.aWins() == high.aWins()) {
            return new Result(probes, Optional.empty(), Optional.empty());
        }
        while (high.value() - low.value() > step) {
            long middle = low.value() + (high.value() - low.value()) / step / 2 * step;
            Probe mid = probe(a, b, middle, probes);
            if (mid.aWins() == low.aWins()) {
                low = mid;
            } else {
                high = mid;
            }
        }
        return new Result(probes, Optional.of(low), Optional.of(high));
    }

    private Probe probe(Variant a, Variant b, long value, List<Probe> probes) {
        Probe probe = new Probe(value, measure(a, value), measure(b, value));
        probes.add(probe);
        if (progress != null) {
            progress.accept(axis + " " + value + ": " + probe.a().text() + " against " + probe.b().text() + " -> "
                    + (probe.aWins() ? "A" : "B") + (probe.beyondSpread() ? "" : " (within the spread)"));
        }
        return probe;
    }

    private Measured measure(Variant variant, long value) {
        String key = variant.text() + "@" + value;
        Measured known = measured.get(key);
        if (known == null) {
            known = measureAgain(variant, value);
            measured.put(key, known);
        }
        return known;
    }

    private Measured measureAgain(Variant variant, long value) {
        List<Measured> runs = new ArrayList<>();
        int times = variant.backend().timesRealHardware() ? repeats : 1;
        for (int r = 0; r < times; r++) {
            runs.add(once(variant, value));
        }
        double[] costs = runs.stream().mapToDouble(Measured::cost).sorted().toArray();
        Measured first = runs.getFirst();
        if (costs.length == 1) {
            return first;
        }
        double spread = Math.max((costs[costs.length - 1] - costs[0]) / 2, runs.stream().mapToDouble(Measured::spread).max().orElse(0));
        return new Measured(costs[costs.length / 2], spread, first.unit(), first.row());
    }

    private Measured once(Variant variant, long value) {
        int[] sizes = axis.equals(ReportCharts.SIZE) ? sizesOf(value) : fixedSizes;
        ComparisonRequest.Builder request = ComparisonRequest.builder(kernel).sizes(List.of(sizes))
                .schedules(List.of(variant.schedule())).backends(List.of(variant.backend())).seed(seed).measure(true)
                .mechanisms(variant.mechanism().map(m -> MechanismChoice.listed(List.of(m))).orElse(MechanismChoice.ownOrAll()));
        variant.threads().ifPresent(request::threads);
        if (!axis.equals(ReportCharts.SIZE)) {
            dev.finegrain.dsl.ParamSpec param = kernel.kernel().params().stream().filter(p -> p.name().equals(axis)).findFirst()
                    .orElseThrow(() -> new UsageException("kernel '" + kernel.name() + "' has no param '" + axis + "'"));
            Object typed;
            try {
                typed = SweepAxes.paramValue(param, Long.toString(value));
            } catch (NumberFormatException notOfType) {
                throw new UsageException("param '" + axis + "' is a " + param.type() + " and cannot take " + value
                        + "; a crossover needs a numeric axis");
            }
            request.axes(new SweepAxes(Map.of(axis, List.of(typed)), List.of(), List.of(), List.of()));
        }
        List<ResultRow> rows = ComparisonRunner.run(request.build()).rows();
        if (rows.size() != 1) {
            throw new UsageException(variant.text() + " at " + axis + " " + value + " is " + rows.size() + " rows, not one;"
                    + " name its mechanism");
        }
        ResultRow row = rows.getFirst();
        if (!row.verified()) {
            throw new UsageException(variant.text() + " at " + axis + " " + value + " is " + row.status().label() + ": "
                    + row.problem());
        }
        return cost(row);
    }

    /** Every extent the value: a square domain of a 2D kernel. */
    private int[] sizesOf(long value) {
        int[] sizes = new int[kernel.kernel().rank()];
        Arrays.fill(sizes, Math.toIntExact(value));
        return sizes;
    }

    /**
     * A row's cost, lower being better ({@link RowCost}: the median timed run or the modelled time in ms, else the
     * reference's count), with half the range of its middle timed runs (q1 to q3) as the spread, a search's measure
     * of noise, less wary than the report's whole range.
     */
    public static Measured cost(ResultRow row) {
        RowCost cost = RowCost.of(row).orElseThrow(() -> new IllegalArgumentException("not a data point: " + row));
        double spread = row.details().get("q1_ms") instanceof Number q1 && row.details().get("q3_ms") instanceof Number q3
                ? (q3.doubleValue() - q1.doubleValue()) / 2 : 0;
        return new Measured(cost.value(), spread, cost.unit(), row);
    }
}
