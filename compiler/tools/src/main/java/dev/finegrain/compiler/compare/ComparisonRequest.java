package dev.finegrain.compiler.compare;

import dev.finegrain.compiler.backend.Backend;
import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.dsl.LibraryKernel;
import dev.finegrain.dsl.Schedule;

import java.io.PrintWriter;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * What to compare: one kernel at each size, under each schedule, on each backend, with the chosen lock mechanisms.
 *
 * @param threads          worker threads for backends that run on threads
 * @param threadsRequested whether the user asked for a thread count (a note says so when no backend uses threads)
 * @param measure          warm up and report the median of several timed runs, rather than run once
 * @param timedRuns        how many runs a measured row times (their minimum and maximum are the row's spread)
 * @param jobs             how many rows may run at once; rows timed on real hardware always run alone
 * @param progress         where progress and notes go, or null
 * @param progressColumns  the width of the terminal {@code progress} goes to, which gets a {@link ProgressBar} instead of
 *                         a line per row; 0 when it is not a terminal
 * @param listener         told each row as soon as it is settled (a journal), from whichever thread settled it
 * @param stopped          whether to start no further row (an interrupted run): rows not started are left out
 * @param shard            the slice of the sweep to run here ({@link Shard#WHOLE} for all of it)
 * @param axes             the params, thread counts, granularities and channel policies the sweep varies
 */
public record ComparisonRequest(LibraryKernel kernel, List<int[]> sizes, List<Schedule> schedules, List<Backend> backends,
                                MechanismChoice mechanisms, long seed, int threads, boolean threadsRequested,
                                boolean measure, int timedRuns, int jobs, PrintWriter progress, int progressColumns, RowListener listener,
                                Shard shard, BooleanSupplier stopped, SweepAxes axes) {

    public ComparisonRequest {
        Objects.requireNonNull(kernel, "kernel");
        sizes = sizes.stream().map(int[]::clone).toList();
        schedules = List.copyOf(schedules);
        backends = List.copyOf(backends);
        Objects.requireNonNull(mechanisms, "mechanisms");
        Objects.requireNonNull(listener, "listener");
        Objects.requireNonNull(stopped, "stopped");
        Objects.requireNonNull(shard, "shard");
        Objects.requireNonNull(axes, "axes");
        if (threads < 1 || jobs < 1 || timedRuns < 1) {
            throw new IllegalArgumentException("threads, jobs and timed runs must be positive: " + threads + ", " + jobs + ", "
                    + timedRuns);
        }
    }

    public static Builder builder(LibraryKernel kernel) {
        return new Builder(kernel);
    }

    /** Defaults: the kernel's sizes, no schedules or backends yet, its own mechanism or all, seed 42, run once. */
    public static final class Builder {
        private final LibraryKernel kernel;
        private List<int[]> sizes;
        private List<Schedule> schedules = List.of();
        private List<Backend> backends = List.of();
        private MechanismChoice mechanisms = MechanismChoice.ownOrAll();
        private long seed = 42;
        private int threads = RunSettings.defaultThreads();
        private boolean threadsRequested;
        private boolean measure;
        private int timedRuns = RunSettings.DEFAULT_TIMED_RUNS;
        private int jobs = 1;
        private PrintWriter progress;
        private int progressColumns;
        private RowListener listener = RowListener.NONE;
        private BooleanSupplier stopped = () -> false;
        private Shard shard = Shard.WHOLE;
        private SweepAxes axes = SweepAxes.NONE;

        private Builder(LibraryKernel kernel) {
            this.kernel = Objects.requireNonNull(kernel, "kernel");
            this.sizes = kernel.defaultSizes();
        }

        public Builder sizes(List<int[]> given) {
            sizes = given;
            return this;
        }

        public Builder schedules(List<Schedule> given) {
            schedules = given;
            return this;
        }

        public Builder backends(List<Backend> given) {
            backends = given;
            return this;
        }

        public Builder mechanisms(MechanismChoice given) {
            mechanisms = given;
            return this;
        }

        public Builder seed(long given) {
            seed = given;
            return this;
        }

        /** Worker threads, as the user asked for them. */
        public Builder threads(int given) {
            threads = given;
            threadsRequested = true;
            return this;
        }

        public Builder measure(boolean given) {
            measure = given;
            return this;
        }

        /** Timed runs of each measured row. */
        public Builder timedRuns(int given) {
            timedRuns = given;
            return this;
        }

        public Builder jobs(int given) {
            jobs = given;
            return this;
        }

        public Builder progress(PrintWriter given) {
            progress = given;
            return this;
        }

        /** Progress on a terminal of this many columns: a bar redrawn in place rather than a line per row. */
        public Builder progressBar(int columns) {
            progressColumns = columns;
            return this;
        }

        public Builder listener(RowListener given) {
            listener = Objects.requireNonNull(given, "listener");
            return this;
        }

        public Builder stopped(BooleanSupplier given) {
            stopped = Objects.requireNonNull(given, "stopped");
            return this;
        }

        public Builder shard(Shard given) {
            shard = Objects.requireNonNull(given, "shard");
            return this;
        }

        public Builder axes(SweepAxes given) {
            axes = Objects.requireNonNull(given, "axes");
            return this;
        }

        public ComparisonRequest build() {
            return new ComparisonRequest(kernel, sizes, schedules, backends, mechanisms, seed, threads, threadsRequested,
                    measure, timedRuns, jobs, progress, progressColumns, listener, shard, stopped, axes);
        }
    }
}
