package dev.finegrain.compiler.compare;

import dev.finegrain.compiler.backend.BackendRun;
import dev.finegrain.compiler.backend.KernelExecutionException;
import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.compiler.backend.UnsupportedCombinationException;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.reference.SequentialOracle;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.KernelDefinitionException;
import dev.finegrain.runtime.jvm.StallException;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a comparison: every row of its {@link Sweep}, each verified against the sequential oracle on the same inputs.
 * A combination that cannot run is a skipped row and an error in one row is a failed row; the rest of the sweep
 * runs on. Inputs and the oracle are made once per size, and one size's data is dropped before the next is made.
 *
 * <p>With {@code jobs > 1}, the rows of one size whose metric is simulated or counted run on a pool of that many
 * threads; rows timed on real hardware ({@link dev.finegrain.compiler.backend.Backend#timesRealHardware()}) run
 * afterwards, one at a time, with nothing beside them. The rows come back in sweep order either way.
 */
public final class ComparisonRunner {

    private ComparisonRunner() {}

    public static Comparison run(ComparisonRequest request) {
        Sweep sweep = Sweep.of(request);
        PrintWriter progress = request.progress();
        if (progress != null) {
            sweep.notes().forEach(note -> progress.println("note: " + note));
            progress.flush();
        }
        Kernel kernel = request.kernel().kernel();
        KernelGraph graph = Pipeline.compile(kernel);
        RunSettings settings = new RunSettings(request.seed(), request.threads(), request.measure(),
                RunSettings.DEFAULT_STALL_TIMEOUT_NANOS);
        List<Sweep.Planned> planned = sweep.rows();
        Counter counter = new Counter(planned.size(), progress);
        List<ResultRow> rows = new ArrayList<>();
        int from = 0;
        while (from < planned.size()) {
            int[] sizes = planned.get(from).sizes();
            int to = from;
            while (to < planned.size() && java.util.Arrays.equals(planned.get(to).sizes(), sizes)) {
                to++;
            }
            rows.addAll(runSize(request, graph, planned.subList(from, to), settings, counter));
            from = to;
        }
        return new Comparison(rows, sweep.notes());
    }

    /** The rows of one size: inputs and oracle first; a failure there fails every row of the size. */
    private static List<ResultRow> runSize(ComparisonRequest request, KernelGraph graph, List<Sweep.Planned> planned,
                                           RunSettings settings, Counter counter) {
        int[] sizes = planned.getFirst().sizes();
        Invocation invocation;
        KernelOutputs oracle;
        try {
            invocation = request.kernel().inputs().generate(graph.kernel(), sizes, request.seed());
        } catch (RuntimeException generatorFailure) {
            return failAll(planned, request, "the kernel's input generator failed at size " + Sweep.sizeText(sizes) + ": "
                    + describe(generatorFailure), counter);
        }
        try {
            oracle = SequentialOracle.run(graph, invocation);
        } catch (KernelExecutionException | KernelDefinitionException oracleFailure) {
            return failAll(planned, request, "the sequential oracle failed, so no row can be checked: "
                    + oracleFailure.getMessage(), counter);
        }
        ResultRow[] rows = new ResultRow[planned.size()];
        List<Integer> timedAlone = new ArrayList<>();
        List<Integer> pooled = new ArrayList<>();
        for (int r = 0; r < planned.size(); r++) {
            Sweep.Planned row = planned.get(r);
            if (row.skipReason().isPresent()) {
                counter.started(row);
                rows[r] = skipped(row, request.seed(), row.skipReason().get());
            } else if (row.backend().timesRealHardware() || request.jobs() == 1) {
                timedAlone.add(r);
            } else {
                pooled.add(r);
            }
        }
        if (!pooled.isEmpty()) {
            try (ExecutorService pool = Executors.newFixedThreadPool(Math.min(request.jobs(), pooled.size()))) {
                List<Future<ResultRow>> futures = new ArrayList<>();
                for (int r : pooled) {
                    Sweep.Planned row = planned.get(r);
                    futures.add(pool.submit(() -> runOne(row, invocation, oracle, settings, counter)));
                }
                for (int p = 0; p < pooled.size(); p++) {
                    rows[pooled.get(p)] = await(futures.get(p));
                }
            }
        }
        for (int r : timedAlone) {
            rows[r] = runOne(planned.get(r), invocation, oracle, settings, counter);
        }
        return List.of(rows);
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

    /** Runs one variant and verifies it; any error becomes the row's status instead of ending the sweep. */
    private static ResultRow runOne(Sweep.Planned row, Invocation invocation, KernelOutputs oracle, RunSettings settings,
                                    Counter counter) {
        counter.started(row);
        Variant variant = row.variant().orElseThrow();
        BackendRun run;
        try {
            run = row.backend().run(variant, invocation, settings);
        } catch (UnsupportedCombinationException cannot) {
            return skipped(row, settings.seed(), cannot.getMessage());
        } catch (KernelExecutionException | KernelDefinitionException | StallException runFailure) {
            return failed(row, settings.seed(), runFailure.getMessage());
        } catch (OutOfMemoryError tooLarge) {
            return failed(row, settings.seed(), "out of memory: this row's fields (or the simulated GPU's memory) do not"
                    + " fit; use smaller sizes, or give the JVM more with FINEGRAIN_JAVA_OPTS=-Xmx<size>");
        } catch (RuntimeException | Error bug) {
            counter.internalError(row, bug);
            return failed(row, settings.seed(), "internal error, please report it: " + describe(bug));
        }
        Optional<String> problem = run.failure().or(() -> oracle.firstDifference(variant.graph(), row.sizes(), run.outputs()));
        return new ResultRow(row.kernel().name(), Sweep.sizeText(row.sizes()), row.schedule().cliName(),
                row.backend().name(), row.mechanismText(), row.granularityText(), row.kernel().channelPolicy().cliName(),
                problem.isEmpty() ? RowStatus.VERIFIED : RowStatus.NOT_VERIFIED, run.metric(), run.value(), run.unit(),
                settings.seed(), problem.orElse(""), run.details());
    }

    private static List<ResultRow> failAll(List<Sweep.Planned> planned, ComparisonRequest request, String why, Counter counter) {
        List<ResultRow> rows = new ArrayList<>();
        for (Sweep.Planned row : planned) {
            counter.started(row);
            rows.add(row.skipReason().isPresent() ? skipped(row, request.seed(), row.skipReason().get())
                    : failed(row, request.seed(), why));
        }
        return rows;
    }

    private static ResultRow skipped(Sweep.Planned row, long seed, String why) {
        return withoutResult(row, seed, RowStatus.SKIPPED, why);
    }

    private static ResultRow failed(Sweep.Planned row, long seed, String why) {
        return withoutResult(row, seed, RowStatus.FAILED, why);
    }

    private static ResultRow withoutResult(Sweep.Planned row, long seed, RowStatus status, String why) {
        return new ResultRow(row.kernel().name(), Sweep.sizeText(row.sizes()), row.schedule().cliName(), row.backend().name(),
                row.mechanismText(), row.granularityText(), row.kernel().channelPolicy().cliName(), status, "-", Double.NaN,
                "-", seed, oneLine(why), Map.of());
    }

    private static String describe(Throwable failure) {
        return failure.getMessage() == null ? failure.getClass().getSimpleName()
                : failure.getClass().getSimpleName() + ": " + failure.getMessage();
    }

    private static String oneLine(String text) {
        return text == null ? "" : text.replaceAll("\\s*\\R\\s*", "; ");
    }

    /** Numbers the rows as they start, for the progress lines of a long sweep. */
    private static final class Counter {
        private final int total;
        private final PrintWriter progress;
        private final AtomicInteger next = new AtomicInteger();

        Counter(int total, PrintWriter progress) {
            this.total = total;
            this.progress = progress;
        }

        void started(Sweep.Planned row) {
            int number = next.incrementAndGet();
            if (progress != null && total > 1) {
                synchronized (progress) {
                    progress.printf("[%d/%d] %s %s %s %s %s%n", number, total, row.kernel().name(), Sweep.sizeText(row.sizes()),
                            row.schedule().cliName(), row.backend().name(), row.mechanism().map(Object::toString).orElse(""));
                    progress.flush();
                }
            }
        }

        void internalError(Sweep.Planned row, Throwable bug) {
            if (progress != null) {
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

    /** Why a plan's tiles cannot cover a size, in the command line's words, if they cannot. */
    public static Optional<String> tileMisfit(ExecutionPlan plan, int[] sizes) {
        return Sweep.tileMisfitMessage(plan, sizes);
    }
}
