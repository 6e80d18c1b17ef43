package dev.finegrain.compiler.compare;

import dev.finegrain.compiler.backend.BackendRun;
import dev.finegrain.compiler.ir.KernelExecutionException;
import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.compiler.backend.UnsupportedCombinationException;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.reference.SequentialOracle;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.KernelDefinitionException;
import dev.finegrain.runtime.jvm.StallException;

import java.io.PrintWriter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;

/**
 * Runs a comparison: every row of its {@link Sweep}, each verified against the sequential oracle on the same inputs.
 * A combination that cannot run is a skipped row and an error in one row is a failed row; the rest of the sweep
 * runs on. Inputs and the oracle are made once per size, and one size's data is dropped before the next is made.
 *
 * <p>With {@code jobs > 1}, rows whose metric is simulated or counted run on one pool of that many threads, across
 * sizes: while one size's rows run, the next size's inputs and oracle are made and its rows queued, with at most
 * {@code jobs + 1} sizes' data held at once. Rows timed on real hardware
 * ({@link dev.finegrain.compiler.backend.Backend#timesRealHardware()}) run one at a time with nothing beside them:
 * before a size with timed rows, every queued row finishes. A sweep with no timed rows starts with its largest size,
 * so that its longest rows do not run last, alone on one thread while the others idle. The rows come back in sweep
 * order either way.
 */
public final class ComparisonRunner {

    private ComparisonRunner() {}

    public static Comparison run(ComparisonRequest request) {
        return run(Sweep.of(request), List.of());
    }

    /**
     * Runs a sweep expanded beforehand (so that a mistake in the request is known before anything is written), keeping
     * the rows an earlier, interrupted run of the same sweep finished in their place: their combinations do not run
     * again, but failed ones do.
     */
    public static Comparison run(Sweep sweep, List<ResultRow> earlier) {
        ComparisonRequest request = sweep.request();
        PrintWriter progress = request.progress();
        if (progress != null) {
            sweep.notes().forEach(note -> progress.println("note: " + note));
            progress.flush();
        }
        Kernel kernel = request.kernel().kernel();
        KernelGraph graph = sweep.resolver().graph(kernel);
        RunSettings settings = new RunSettings(request.seed(), request.threads(), request.measure(),
                request.timedRuns(), RunSettings.DEFAULT_STALL_TIMEOUT_NANOS);
        List<Sweep.Planned> all = sweep.rows();
        Map<Sweep.Planned, Integer> positions = new IdentityHashMap<>();
        List<Sweep.Planned> mine = new ArrayList<>();
        for (int position = 0; position < all.size(); position++) {
            positions.put(all.get(position), position);
            if (request.shard().runs(position)) {
                mine.add(all.get(position));
            }
        }
        List<List<Sweep.Planned>> bySize = bySize(mine);
        String identity = request.shard().whole() ? "" : sweep.identity();
        ProgressBar bar = progress != null && request.progressColumns() > 0 && mine.size() > 1
                ? new ProgressBar(progress, mine.size(), request.progressColumns(), System::nanoTime) : null;
        Counter counter = new Counter(mine.size(), progress, bar, request.listener(), request.stopped(), positions::get,
                (planned, row) -> request.shard().tag(row, positions.get(planned), all.size(), identity));
        // failed rows run again: what failed them (memory, a stall) may be mended since
        Map<String, ResultRow> alreadyRun = new HashMap<>();
        earlier.stream().filter(row -> row.status() != RowStatus.FAILED)
                .forEach(row -> alreadyRun.put(row.combination(), row));
        List<List<ResultRow>> results = new ArrayList<>(Collections.nCopies(bySize.size(), List.of()));
        ExecutorService pool = request.jobs() > 1 ? Executors.newFixedThreadPool(request.jobs()) : null;
        try {
            Deque<PendingSize> inFlight = new ArrayDeque<>();
            for (int index : runOrder(bySize, request.jobs())) {
                List<Sweep.Planned> planned = bySize.get(index);
                boolean timed = planned.stream().anyMatch(row -> row.skipReason().isEmpty()
                        && (row.backend().timesRealHardware() || pool == null));
                if (timed) {
                    finishAll(inFlight, results, bySize, settings, counter);
                }
                PendingSize pending = startSize(index, request, graph, planned, settings, counter, pool, alreadyRun);
                if (timed) {
                    results.set(index, pending.finish(planned, settings, counter));
                    continue;
                }
                inFlight.addLast(pending);
                while (inFlight.size() > request.jobs()) {
                    PendingSize oldest = inFlight.removeFirst();
                    results.set(oldest.index(), oldest.finish(bySize.get(oldest.index()), settings, counter));
                }
            }
            finishAll(inFlight, results, bySize, settings, counter);
        } finally {
            if (pool != null) {
                pool.shutdownNow();
            }
            if (bar != null) {
                bar.close();
            }
        }
        return new Comparison(results.stream().flatMap(List::stream).toList(), sweep.notes());
    }

    /**
     * The sweep's rows cut where their inputs change: the size, or a swept param's value (the sweep lists the rows of one
     * size and param point together), so that each group's inputs and oracle are made once.
     */
    private static List<List<Sweep.Planned>> bySize(List<Sweep.Planned> planned) {
        List<List<Sweep.Planned>> groups = new ArrayList<>();
        int from = 0;
        while (from < planned.size()) {
            Sweep.Planned first = planned.get(from);
            int to = from;
            while (to < planned.size() && Arrays.equals(planned.get(to).sizes(), first.sizes())
                    && planned.get(to).params().equals(first.params())) {
                to++;
            }
            groups.add(planned.subList(from, to));
            from = to;
        }
        return groups;
    }

    /** Sweep order; largest size first when every row may share the pool (no timing to keep alone). */
    private static List<Integer> runOrder(List<List<Sweep.Planned>> bySize, int jobs) {
        List<Integer> order = new ArrayList<>(IntStream.range(0, bySize.size()).boxed().toList());
        boolean allPooled = jobs > 1 && bySize.stream().flatMap(List::stream)
                .noneMatch(row -> row.skipReason().isEmpty() && row.backend().timesRealHardware());
        if (allPooled) {
            order.sort(Comparator.comparingLong(
                    (Integer index) -> cells(bySize.get(index).getFirst().sizes())).reversed());
        }
        return order;
    }

    private static long cells(int[] sizes) {
        long cells = 1;
        for (int extent : sizes) {
            cells *= extent;
        }
        return cells;
    }

    private static void finishAll(Deque<PendingSize> inFlight, List<List<ResultRow>> results,
                                  List<List<Sweep.Planned>> bySize, RunSettings settings, Counter counter) {
        while (!inFlight.isEmpty()) {
            PendingSize pending = inFlight.removeFirst();
            results.set(pending.index(), pending.finish(bySize.get(pending.index()), settings, counter));
        }
    }

    /**
     * Starts the rows of one size: inputs and oracle first (a failure there fails every row of the size), skipped
     * rows at once, simulated and counted rows onto the pool; timed rows wait for {@link PendingSize#finish}.
     */
    private static PendingSize startSize(int index, ComparisonRequest request, KernelGraph graph,
                                         List<Sweep.Planned> planned, RunSettings settings, Counter counter,
                                         ExecutorService pool, Map<String, ResultRow> alreadyRun) {
        int[] sizes = planned.getFirst().sizes();
        ResultRow[] rows = new ResultRow[planned.size()];
        boolean anyToRun = false;
        for (int r = 0; r < planned.size(); r++) {
            Sweep.Planned row = planned.get(r);
            ResultRow earlier = alreadyRun.get(row.combination(request.seed()));
            if (earlier != null) {
                rows[r] = counter.kept(row, earlier);   // an interrupted run of this sweep finished it; --resume keeps it
            } else if (row.skipReason().isPresent()) {
                counter.started(row);
                rows[r] = counter.done(row, skipped(row, request.seed(), row.skipReason().get()));
            } else {
                anyToRun = true;
            }
        }
        if (!anyToRun) {
            return new PendingSize(index, rows, Map.of(), null, null);
        }
        Invocation invocation;
        KernelOutputs oracle;
        try {
            Invocation generated = request.kernel().inputs().generate(graph.kernel(), sizes, request.seed());
            Map<String, Object> params = planned.getFirst().params();
            invocation = params.isEmpty() ? generated : generated.withParams(params);
        } catch (RuntimeException | OutOfMemoryError | StackOverflowError generatorFailure) {
            return failRest(index, rows, planned, request, "the kernel's input generator failed at size "
                    + Sweep.sizeText(sizes) + ": " + describe(generatorFailure)
                    + (generatorFailure instanceof RuntimeException ? "" : "; " + RESOURCE_ADVICE), counter);
        }
        longOracle(sizes).ifPresent(counter::note);
        try {
            oracle = SequentialOracle.run(graph, invocation);
        } catch (KernelExecutionException | KernelDefinitionException oracleFailure) {
            return failRest(index, rows, planned, request, "the sequential oracle failed, so no row can be checked: "
                    + oracleFailure.getMessage(), counter);
        } catch (OutOfMemoryError | StackOverflowError tooLarge) {
            return failRest(index, rows, planned, request, "the sequential oracle ran out of "
                    + (tooLarge instanceof OutOfMemoryError ? "memory" : "stack") + " at size " + Sweep.sizeText(sizes)
                    + ", so no row of it can be checked; " + RESOURCE_ADVICE, counter);
        }
        Expected expected = new Expected(oracle, oracle.digest(graph, sizes));
        Map<Integer, Future<ResultRow>> pooled = new LinkedHashMap<>();
        for (int r = 0; r < planned.size(); r++) {
            Sweep.Planned row = planned.get(r);
            if (rows[r] == null && pool != null && !row.backend().timesRealHardware()) {
                pooled.put(r, pool.submit(() -> counter.done(row, runOne(row, invocation, expected, settings, counter))));
            }
        }
        return new PendingSize(index, rows, pooled, invocation, expected);
    }

    /** Points from which the oracle's one-thread run is said before it starts: 2^28, tens of seconds or more. */
    private static final long LONG_ORACLE_POINTS = 1L << 28;

    /** What to say before the oracle computes a size that long (a run's or a sweep's progress note), or empty. */
    public static Optional<String> longOracle(int[] sizes) {
        long points = dev.finegrain.compiler.plan.Domain.pointCount(sizes);
        return points < LONG_ORACLE_POINTS ? Optional.empty() : Optional.of("the sequential oracle computes " + Sweep.sizeText(sizes)
                + " first, on one thread (" + points + " points), before any row runs: tens of seconds or more at this size");
    }

    private static final String RESOURCE_ADVICE = "use smaller sizes, or give the JVM more with FINEGRAIN_JAVA_OPTS"
            + " (-Xmx<size> for memory, -Xss<size> for stack)";

    /** Fails every row of a size that has no result yet: its inputs or its oracle could not be made. */
    private static PendingSize failRest(int index, ResultRow[] rows, List<Sweep.Planned> planned, ComparisonRequest request,
                                        String why, Counter counter) {
        for (int r = 0; r < planned.size(); r++) {
            if (rows[r] == null) {
                counter.started(planned.get(r));
                rows[r] = counter.done(planned.get(r), failed(planned.get(r), request.seed(), why));
            }
        }
        return new PendingSize(index, rows, Map.of(), null, null);
    }

    /** One size's rows while they run: those already known, and the futures of its pooled rows. */
    private record PendingSize(int index, ResultRow[] rows, Map<Integer, Future<ResultRow>> pooled,
                               Invocation invocation, Expected expected) {

        /** Waits for the pooled rows, then runs the rest one at a time with nothing beside them. */
        List<ResultRow> finish(List<Sweep.Planned> planned, RunSettings settings, Counter counter) {
            pooled.forEach((r, future) -> rows[r] = await(future));
            for (int r = 0; r < rows.length; r++) {
                if (rows[r] == null) {
                    rows[r] = counter.done(planned.get(r), runOne(planned.get(r), invocation, expected, settings, counter));
                }
            }
            return List.of(rows);
        }
    }

    private static ResultRow await(Future<ResultRow> future) {
        try {
            return future.get();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a comparison row", interrupted);
        } catch (ExecutionException failure) {
            // runOne turns every failure into a row, so this is a bug in the runner itself
            throw new IllegalStateException("a comparison row failed outside its run", failure.getCause());
        }
    }

    /**
     * What a size's rows are checked against: the oracle's outputs, and their digest, which every row run against them
     * carries ({@code outputs_digest}), so that a merge can recompute it and refuse a row checked against something else.
     */
    private record Expected(KernelOutputs outputs, String digest) {}

    /** Runs one variant and verifies it; any error becomes the row's status instead of ending the sweep. */
    private static ResultRow runOne(Sweep.Planned row, Invocation invocation, Expected expected, RunSettings settings,
                                    Counter counter) {
        if (counter.stopped()) {
            return failed(row, settings.seed(), "not run: the sweep was interrupted");   // dropped by Counter.done
        }
        counter.started(row);
        Variant variant = row.variant().orElseThrow();
        BackendRun run;
        try {
            run = row.backend().run(variant, invocation, settings.withThreads(row.threads()));
        } catch (UnsupportedCombinationException cannot) {
            return skipped(row, settings.seed(), cannot.getMessage());
        } catch (KernelExecutionException | KernelDefinitionException | StallException runFailure) {
            return failed(row, settings.seed(), runFailure.getMessage());
        } catch (OutOfMemoryError tooLarge) {
            return failed(row, settings.seed(), "out of memory: this row's fields (or the simulated GPU's memory) do not"
                    + " fit; " + RESOURCE_ADVICE);
        } catch (StackOverflowError tooDeep) {
            return failed(row, settings.seed(), "stack overflow while running this row; " + RESOURCE_ADVICE);
        } catch (RuntimeException | Error bug) {
            counter.internalError(row, bug);
            return failed(row, settings.seed(), "internal error, please report it: " + describe(bug));
        }
        Optional<String> problem = run.failure()
                .or(() -> expected.outputs().firstDifference(variant.graph(), row.sizes(), run.outputs()));
        Map<String, Object> details = new LinkedHashMap<>(run.details());
        details.put(ImportCheck.DIGEST, expected.digest());
        details.putAll(keptValues(variant.graph(), run.outputs()));
        details.putAll(row.axes());
        return new ResultRow(row.kernel().name(), Sweep.sizeText(row.sizes()), row.schedule().cliName(),
                row.backend().name(), row.mechanismText(), row.granularityText(), row.lockChoices().channelPolicy().cliName(),
                problem.isEmpty() ? RowStatus.VERIFIED : RowStatus.NOT_VERIFIED, run.metric(), run.value(), run.unit(),
                settings.seed(), problem.orElse(""), details);
    }

    /**
     * What a user keeps small enough to show in a row: each reduction ({@code "max(h)": "12 at [2, 0]"}) and each field
     * kept as its final value alone ({@code "final(score)": -120}).
     */
    private static Map<String, Object> keptValues(dev.finegrain.compiler.ir.KernelGraph graph, dev.finegrain.compiler.backend.KernelOutputs outputs) {
        Map<String, Object> kept = new LinkedHashMap<>();
        for (dev.finegrain.dsl.KeepSpec keep : graph.kernel().keeps()) {
            Object values = outputs.field(keep.field());
            if (keep.keep() == dev.finegrain.dsl.Keep.FINAL && values != null && java.lang.reflect.Array.getLength(values) == 1) {
                kept.put("final(" + keep.field() + ")", java.lang.reflect.Array.get(values, 0));
            }
        }
        outputs.reductions().forEach((name, reduced) -> kept.put(name, reduced.toString()));
        return kept;
    }

    private static ResultRow skipped(Sweep.Planned row, long seed, String why) {
        return withoutResult(row, seed, RowStatus.SKIPPED, why);
    }

    private static ResultRow failed(Sweep.Planned row, long seed, String why) {
        return withoutResult(row, seed, RowStatus.FAILED, why);
    }

    private static ResultRow withoutResult(Sweep.Planned row, long seed, RowStatus status, String why) {
        return new ResultRow(row.kernel().name(), Sweep.sizeText(row.sizes()), row.schedule().cliName(), row.backend().name(),
                row.mechanismText(), row.granularityText(), row.lockChoices().channelPolicy().cliName(), status, "-", Double.NaN,
                "-", seed, oneLine(why), row.axes());
    }

    private static String describe(Throwable failure) {
        return failure.getMessage() == null ? failure.getClass().getSimpleName()
                : failure.getClass().getSimpleName() + ": " + failure.getMessage();
    }

    private static String oneLine(String text) {
        return text == null ? "" : text.replaceAll("\\s*\\R\\s*", "; ");
    }

    /**
     * Numbers the rows as they start and says each as it finishes, for the progress lines of a long sweep, and hands
     * each finished row to the request's journal at once.
     */
    private static final class Counter {
        private final int total;
        private final PrintWriter progress;
        /** On a terminal: the bar, which replaces the line per row. */
        private final ProgressBar bar;
        private final RowListener listener;
        private final java.util.function.BooleanSupplier stopped;
        private final java.util.function.ToIntFunction<Sweep.Planned> position;
        private final java.util.function.BiFunction<Sweep.Planned, ResultRow, ResultRow> tag;
        private int startedCount;   // both counted under this object's lock, where their lines are said
        private int doneCount;
        /** Each row's number, the order it started in: its started and done lines carry the same. */
        private final Map<Sweep.Planned, Integer> numbers = new IdentityHashMap<>();
        private final java.util.concurrent.atomic.AtomicBoolean journalFailed = new java.util.concurrent.atomic.AtomicBoolean();

        /** @param tag what the row carries of its place in the sweep (a shard's row its position), before anyone sees it */
        Counter(int total, PrintWriter progress, ProgressBar bar, RowListener listener, java.util.function.BooleanSupplier stopped,
                java.util.function.ToIntFunction<Sweep.Planned> position,
                java.util.function.BiFunction<Sweep.Planned, ResultRow, ResultRow> tag) {
            this.total = total;
            this.progress = progress;
            this.bar = bar;
            this.listener = listener;
            this.stopped = stopped;
            this.position = position;
            this.tag = tag;
        }

        boolean stopped() {
            return stopped.getAsBoolean();
        }

        /** A row an earlier run of the sweep finished, kept in its place. */
        ResultRow kept(Sweep.Planned planned, ResultRow row) {
            listener.kept(position.applyAsInt(planned), row);
            return row;
        }

        /** A finished row: said on the progress stream, and journaled (a journal that fails is said once, not fatal). */
        ResultRow done(Sweep.Planned planned, ResultRow result) {
            ResultRow row = tag.apply(planned, result);
            if (stopped()) {
                return row;   // the run is being interrupted: what settles now is neither journaled nor written
            }
            try {
                listener.finished(position.applyAsInt(planned), row);
            } catch (RuntimeException cannotJournal) {
                if (journalFailed.compareAndSet(false, true) && progress != null) {
                    say("warning: " + cannotJournal.getMessage() + " (" + describe(cannotJournal.getCause() == null
                            ? cannotJournal : cannotJournal.getCause()) + "); the sweep goes on, but an interruption"
                            + " would lose rows");
                }
            }
            synchronized (this) {   // counted and said together, so that the finished counts come out in order
                int finished = ++doneCount;
                Integer started = numbers.remove(planned);
                int number = started != null ? started : ++startedCount;   // a row settled without starting takes the next number
                if (progress == null || total <= 1) {
                    return row;
                }
                String axes = SweepAxes.axesText(row.details());
                String line = String.format("[%d/%d done] %s %s %s %s%s%s: %s%s (%d of %d finished)", number, total, row.kernel(),
                        row.size(), row.schedule(), row.backend(), row.mechanism().equals("-") ? "" : " " + row.mechanism(),
                        axes.isEmpty() ? "" : " " + axes, row.status().label(),
                        row.verified() ? " " + ResultFormat.number(row.value()) + " " + row.unit() : "", finished, total);
                if (bar != null) {
                    bar.finished(label(planned), row.status().isProblem() ? line + ": " + row.problem() : null);
                } else {
                    say(line);
                }
            }
            return row;
        }

        synchronized void started(Sweep.Planned row) {   // counted and said together, as done's lines
            int number = ++startedCount;
            numbers.put(row, number);
            if (bar != null) {
                bar.started(label(row));
            } else if (progress != null && total > 1) {
                say(String.format("[%d/%d started] %s", number, total, label(row)));   // the n-th to start; its done line says n too
            }
        }

        /** A planned row as the progress names it. */
        private static String label(Sweep.Planned row) {
            String axes = SweepAxes.axesText(row.axes());
            return String.join(" ", row.kernel().name(), Sweep.sizeText(row.sizes()), row.schedule().cliName(),
                    row.backend().name(), row.mechanism().map(Object::toString).orElse("")).strip() + (axes.isEmpty() ? "" : " " + axes);
        }

        /** A note on the progress stream, where there is one: something long is about to happen. */
        void note(String line) {
            if (progress != null) {
                say("note: " + line);
            }
        }

        /** A line on the progress stream, above the bar where there is one. */
        private void say(String line) {
            if (bar != null) {
                bar.above(line);
                return;
            }
            synchronized (progress) {
                progress.println(line);
                progress.flush();
            }
        }

        void internalError(Sweep.Planned row, Throwable bug) {
            if (progress != null) {
                if (bar != null) {
                    bar.close();
                }
                synchronized (progress) {
                    progress.println("finegrain: internal error in " + row.kernel().name() + " " + Sweep.sizeText(row.sizes())
                            + " " + row.schedule().cliName() + " " + row.backend().name() + ", please report it with this trace:");
                    bug.printStackTrace(progress);
                    progress.flush();
                }
            }
        }
    }

    /** The size as the command line and reports write it, e.g. {@code 64x32}. */
    public static String sizeText(int[] sizes) {
        return Sweep.sizeText(sizes);
    }
}
