package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.backend.Backend;
import dev.finegrain.compiler.compare.AtomicFiles;
import dev.finegrain.compiler.compare.BreakevenGrid;
import dev.finegrain.compiler.compare.Crossover;
import dev.finegrain.compiler.compare.UsageException;
import dev.finegrain.dsl.LibraryKernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.ParamSpec;
import dev.finegrain.dsl.Schedule;
import dev.finegrain.dsl.Type;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code finegrain breakeven}: seed 003's efficiency metric, the least independent work per synchronisation (a param of
 * the kernel) at which the threaded variant beats the single-thread one, per lock mechanism, found by {@link Crossover}
 * between {@code lock-dataflow:interleaved} on the threads asked for (a chain's links dealt to the workers in turn, each
 * worker's independent work beside the others') and {@code lock-dataflow} on one thread (the serial loop: one worker
 * awaits no token). With {@code --doc FILE} it writes the points beside the seed's as a Markdown page.
 */
@Command(name = "breakeven", description = "Tullsen et al.'s break-even metric: the least work per synchronisation (a param) at which the"
        + " threaded variant beats the single-thread one, per mechanism, every probe verified.")
final class BreakevenCommand extends CatalogCommand implements Callable<Integer> {

    /** Tullsen et al., Figure 2 and 3: where the threaded loop overtakes the serial one, in rounds of independent work. */
    static final String SEED_POINTS = """
            | synchronisation (Tullsen et al., SMT processor simulation) | break-even, rounds of independent work |
            | --- | ---: |
            | SMT, blocking lock-box, speculative restart (Figure 3) | about 3 |
            | SMT, blocking lock-box (Figure 2, SMT-block) | about 5 |
            | through memory, as on a shared-memory multiprocessor (Figure 2, SMP-Mem) | over 80 |
            """;

    @Parameters(index = "0", paramLabel = "KERNEL", description = "a kernel from 'finegrain list' with a chain and a work param")
    String kernelName;

    @Option(names = "--param", required = true, paramLabel = "NAME", description = "the param that sets the independent work per link")
    String param;

    @Option(names = "--from", defaultValue = "1", paramLabel = "X", description = "least work tried (default: ${DEFAULT-VALUE})")
    long from;

    @Option(names = "--to", defaultValue = "128", paramLabel = "Y", description = "most work tried (default: ${DEFAULT-VALUE}, the seed's range)")
    long to;

    @Option(names = "--backends", defaultValue = "jvm", paramLabel = "B,...", description = "where to measure, each on its own"
            + " (default: ${DEFAULT-VALUE}); the single-thread loop is data-parallel with one tile, the whole chain, which one"
            + " thread runs in order; the threaded one is lock-dataflow:interleaved on the jvm, lock-dataflow on a GPU")
    String backends;

    @Option(names = "--mechanisms", paramLabel = "M,...", description = "default: on the jvm acquire-release,"
            + " atomic-spin-lock, blocking, lock-box; on a GPU backend every per-thread mechanism it sweeps")
    String mechanisms;

    @Option(names = "--threads", defaultValue = "2", paramLabel = "N", description = "threads of the threaded variant (default: ${DEFAULT-VALUE})")
    int threads;

    @Option(names = "--size", paramLabel = "N", description = "the chain's length (default: the kernel's first size)")
    String size;

    @Option(names = "--repeats", defaultValue = "3", paramLabel = "R", description = "runs of each variant at each point (default: ${DEFAULT-VALUE})")
    int repeats;

    @Option(names = "--seed", defaultValue = "42", paramLabel = "X", description = "input seed (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--doc", paramLabel = "FILE", description = "also write the points beside the seed's as Markdown")
    Path doc;

    @Option(names = "--results", paramLabel = "FILE", split = ",", description = "instead of measuring here, read the rows of"
            + " an exported bundle's run (export --params NAME=V,... with lock-dataflow and data-parallel:N, one tile): the"
            + " break-even on that grid of values, each row checked against the oracle here")
    List<Path> results = new ArrayList<>();

    /** The mechanisms a chain runs with element by element on the JVM: one token per link, per thread. */
    static final List<LockMechanism> DEFAULT_MECHANISMS = List.of(LockMechanism.ACQUIRE_RELEASE_FLAG,
            LockMechanism.ATOMIC_SPIN_LOCK, LockMechanism.BLOCKING, LockMechanism.LOCK_BOX);

    /** One variant's answer (a mechanism, with its granularity and channels where not the defaults), or why it could not be had. */
    private record Point(String mechanism, Crossover.Result result, String notRun) {}

    /** One backend's answers, and the two variants they compare. */
    private record BackendPoints(Backend backend, String threaded, String single, List<Point> points) {}

    @Override
    public Integer call() {
        LibraryKernel kernel = CliValues.kernel(catalog(), kernelName);
        ParamSpec work = kernel.kernel().params().stream().filter(p -> p.name().equals(param)).findFirst()
                .orElseThrow(() -> new UsageException("--param " + param + ": kernel '" + kernelName + "' has no such param; its"
                        + " params: " + String.join(", ", kernel.kernel().params().stream().map(ParamSpec::name).toList())));
        if (work.type() == Type.BOOL || work.type() == Type.DOUBLE) {
            throw new UsageException("--param " + param + " is a " + work.type() + "; the work per link is counted in whole rounds");
        }
        if (from < 0 || from >= to) {
            throw new UsageException("--from " + from + " --to " + to + ": give 0 <= --from < --to");
        }
        if (!results.isEmpty()) {
            return fromResults(kernel);
        }
        List<Backend> on = CliValues.backends(backends);
        on.stream().filter(Backend::modelsSyncAbstractly).findFirst().ifPresent(abstractOne -> {
            throw new UsageException("backend '" + abstractOne.name() + "' counts firings, with no cost for a synchronisation;"
                    + " breakeven needs a timed or modelled backend (jvm, gpu-model:PROFILE, cuda)");
        });
        int team = CliValues.threads(threads);
        if (team < 2 && on.stream().anyMatch(Backend::usesThreads)) {
            throw new UsageException("--threads " + team + ": the threaded variant needs 2 or more threads");
        }
        if (repeats < 1 || repeats > 100) {
            throw new UsageException("--repeats " + repeats + " is out of range; use 1 to 100");
        }
        if (kernel.kernel().rank() != 1) {
            throw new UsageException("kernel '" + kernelName + "' has " + kernel.kernel().rank() + " dimensions; Tullsen et al.'s"
                    + " efficiency loop is a chain of one dimension (an interleaved lock-dataflow changes where a chain runs)");
        }
        int[] sizes = size == null ? kernel.defaultSizes().getFirst() : CliValues.size(size, kernel.kernel());
        Crossover search = new Crossover(kernel, param, sizes, repeats, seed, line -> {
            err().println(line);
            err().flush();
        });
        List<BackendPoints> all = new ArrayList<>();
        for (Backend backend : on) {
            all.add(measure(search, backend, team, sizes));
        }
        StringBuilder tables = new StringBuilder();
        for (BackendPoints measured : all) {
            tables.append(on.size() > 1 || !measured.backend().usesThreads() ? "\n### " + measured.backend().name() + "\n\n"
                    + "Threaded: `" + measured.threaded() + "`; single-thread: `" + measured.single() + "`.\n\n" : "")
                    .append(table(measured.points()));
        }
        String table = tables.toString();
        out().print(table);
        if (doc != null) {
            String page = page(table, sizes[0], team, CliValues.commandLine(spec));
            // the rows a real GPU ran stay on the page until a --results run replaces them
            String earlier = java.nio.file.Files.exists(doc) ? readPage() : "";
            int at = earlier.indexOf("\n## Measured on a real GPU");
            if (at >= 0) {
                int end = earlier.indexOf("\n## The seed's points", at);
                page = page.replace("\n## The seed's points", earlier.substring(at, end < 0 ? earlier.length() : end)
                        + "\n## The seed's points");
            }
            AtomicFiles.replace(doc, page);
            err().println("written: " + doc);
        }
        boolean listed = mechanisms != null;
        return listed && all.stream().flatMap(m -> m.points().stream()).anyMatch(point -> point.notRun() != null) ? 1 : 0;
    }

    /**
     * The break-even from rows run elsewhere: per backend, the data-parallel rows with one tile (the single-thread
     * loop) against the lock-dataflow rows of each mechanism, at each value of the param both have.
     */
    private int fromResults(LibraryKernel kernel) {
        List<dev.finegrain.compiler.compare.ResultRow> read = new ArrayList<>();
        results.forEach(file -> read.addAll(dev.finegrain.compiler.compare.ImportedRows.read(file)));
        List<dev.finegrain.compiler.compare.ResultRow> rows = dev.finegrain.compiler.compare.ImportCheck.check(read, kernel, List.of())
                .stream().filter(row -> row.kernel().equals(kernelName)).toList();
        List<BreakevenGrid.Group> groups = BreakevenGrid.of(rows, param);
        if (groups.isEmpty()) {
            throw new UsageException("the results hold no rows of kernel '" + kernelName + "' with a swept " + param
                    + "; export with --params " + param + "=V,... and the schedules lock-dataflow and data-parallel:N");
        }
        StringBuilder tables = new StringBuilder();
        for (BreakevenGrid.Group group : groups) {
            List<Point> points = group.answers().stream()
                    .map(answer -> new Point(answer.variant(), answer.result().orElse(null), answer.notRun())).toList();
            tables.append("\n### ").append(group.backend()).append(", ").append(group.context())
                    .append("\n\nThreaded: `lock-dataflow/").append(group.backend()).append("/MECHANISM`; single-thread: `")
                    .append(group.single()).append('/').append(group.backend()).append("`; from ")
                    .append(String.join(", ", results.stream().map(Path::toString).toList())).append(".\n\n")
                    .append(table(points));
        }
        out().print(tables);
        if (doc != null) {
            String page = java.nio.file.Files.exists(doc) ? readPage()
                    : "# Break-even: how much independent work a synchronisation needs\n\nGenerated by `finegrain breakeven`"
                            + " (do not edit).\n\n## The seed's points\n\n" + SEED_POINTS;
            String seedPoints = "\n## The seed's points";
            if (!page.contains(seedPoints)) {
                throw new UsageException(doc + " is not a page breakeven wrote (it has no \"## The seed's points\" section);"
                        + " give a new file or one written by breakeven --doc");
            }
            String section = "\n## Measured on a real GPU\n\n```\n" + CliValues.commandLine(spec) + "\n```\n" + tables;
            int at = page.indexOf("\n## Measured on a real GPU");
            page = at < 0 ? page.replace(seedPoints, section + seedPoints)
                    : page.substring(0, at) + section + page.substring(page.indexOf(seedPoints, at));
            AtomicFiles.replace(doc, page);
            err().println("written: " + doc);
        }
        return 0;
    }

    private String readPage() {
        try {
            return java.nio.file.Files.readString(doc);
        } catch (java.io.IOException unreadable) {
            throw new UsageException("cannot read " + doc + ": " + unreadable.getMessage());
        }
    }

    /** Every mechanism's break-even on one backend. */
    private BackendPoints measure(Crossover search, Backend backend, int team, int[] sizes) {
        List<LockMechanism> asked = mechanisms != null ? CliValues.mechanisms(mechanisms)
                : backend.usesThreads() ? DEFAULT_MECHANISMS
                // a chain's links are one thread apart: the warp mechanisms cannot carry it, so they are not asked
                : backend.sweep().stream().filter(m -> !m.oneTokenPerWarp()).toList();
        // one tile, the whole chain: one thread runs the links in order, with no token at all
        Crossover.Variant single = new Crossover.Variant(new Schedule.DataParallel(List.of(sizes[0])), backend, Optional.empty(),
                backend.usesThreads() ? Optional.of(1) : Optional.empty());
        List<Point> points = new ArrayList<>();
        String threadedText = (backend.usesThreads() ? "lock-dataflow:interleaved" : "lock-dataflow") + "/" + backend.name()
                + "/MECHANISM" + (backend.usesThreads() ? "/threads=" + team : "");
        for (LockMechanism mechanism : asked) {
            Crossover.Variant threaded = backend.usesThreads()
                    ? new Crossover.Variant(new Schedule.LockDataflow().interleaved(), backend, Optional.of(mechanism), Optional.of(team))
                    : new Crossover.Variant(new Schedule.LockDataflow(), backend, Optional.of(mechanism), Optional.empty());
            err().println("breakeven " + mechanism + ": " + threaded.text() + " against " + single.text());
            try {
                points.add(new Point(mechanism.cliName(), search.search(threaded, single, from, to, 1), null));
            } catch (UsageException notRun) {
                // one mechanism that cannot run (or fails) is a row saying why; the others still run
                points.add(new Point(mechanism.cliName(), null, notRun.getMessage()));
            }
        }
        return new BackendPoints(backend, threadedText, single.text(), points);
    }

    private String table(List<Point> points) {
        StringBuilder text = new StringBuilder("| mechanism | break-even (" + param + ") | below: threaded / single | at it: threaded"
                + " / single | beyond the runs' spread |\n| --- | ---: | --- | --- | --- |\n");
        for (Point point : points) {
            if (point.notRun() != null) {
                text.append("| ").append(point.mechanism()).append(" | not run: ").append(point.notRun().replace("|", "\\|"))
                        .append(" | - | - | - |\n");
                continue;
            }
            Crossover.Result result = point.result();
            Crossover.Probe first = result.probes().stream().min(java.util.Comparator.comparingLong(Crossover.Probe::value))
                    .orElseThrow();
            Crossover.Probe last = result.probes().stream().max(java.util.Comparator.comparingLong(Crossover.Probe::value))
                    .orElseThrow();
            if (result.above().isEmpty()) {
                // no change of winner: the threaded loop wins from the first value on, or never
                Crossover.Probe end = first.aWins() ? first : last;
                text.append(String.format(Locale.ROOT, "| %s | %s %d | - | %d: %s / %s | - |%n", point.mechanism(),
                        first.aWins() ? "at most" : "over", end.value(), end.value(), end.a().text(), end.b().text()));
                continue;
            }
            Crossover.Probe below = result.below().get();
            Crossover.Probe above = result.above().get();
            if (!above.aWins()) {
                text.append(String.format(Locale.ROOT, "| %s | none: the threaded loop wins at %d and loses from %d on | - | - | - |%n",
                        point.mechanism(), below.value(), above.value()));
                continue;
            }
            text.append(String.format(Locale.ROOT, "| %s | %d | %d: %s / %s | %d: %s / %s | %s |%n", point.mechanism(),
                    above.value(), below.value(), below.a().text(), below.b().text(), above.value(), above.a().text(),
                    above.b().text(), spreadVerdict(above)));
        }
        return text.toString();
    }

    /** Whether the difference at the break-even exceeds the runs' spread; a timed row that recorded none cannot say. */
    private static String spreadVerdict(Crossover.Probe probe) {
        boolean timed = probe.a().unit().equals("ms") || probe.b().unit().equals("ms");
        if (timed && probe.a().spread() == 0 && probe.b().spread() == 0) {
            return "not recorded (one median per row)";
        }
        return probe.beyondSpread() ? "yes" : "no (a tie within the spread)";
    }

    private String page(String table, int length, int team, String commandLine) {
        return "# Break-even: how much independent work a synchronisation needs\n\n"
                + "Generated by `finegrain breakeven` (do not edit). Seed 003's efficiency metric (Tullsen et al., \"Supporting"
                + " fine-grained synchronization on a simultaneous multithreading processor\"): a loop whose links are a"
                + " serial add plus `" + param + "` rounds of independent work; the break-even is the least work at which the"
                + " threaded loop beats the single-thread one. On the JVM the threaded loop is `lock-dataflow:interleaved` on "
                + team + " threads (the links dealt to the workers in turn, each worker's independent rounds computed before it"
                + " awaits its predecessor's token); on a GPU backend it is `lock-dataflow` (a thread per link). The"
                + " single-thread loop is `data-parallel` with one tile, the whole chain, which one thread runs in order with"
                + " no token at all (on the JVM on one thread). Every probe is"
                + " verified against the oracle; a timed cost is the median of " + repeats + " runs, ± half their range (or"
                + " the timed runs' quartiles, where larger); a modelled one is exact.\n\n"
                + "## Measured\n\n"
                + "Kernel `" + kernelName + "`, " + length + " links, backends `" + backends + "`, " + CliValues.machine() + ", "
                + LocalDate.now() + ".\n\n```\n" + commandLine + "\n```\n\n" + table
                + "\n## The seed's points\n\n" + SEED_POINTS
                + "\nThe JVM's workers synchronise through the memory system (a token's cache line moves from core to core),"
                + " so its points belong beside the seed's memory-based ones, not its lock-box: the JVM's `lock-box`"
                + " suspends a waiter through the operating system (a park and an unpark), where the seed's unit does it in"
                + " hardware in 15 cycles. On the GPU model the single-thread loop is no SMT thread at full speed: one thread"
                + " pays every link's global-memory latency in turn, which the threaded loop overlaps, so the per-thread"
                + " mechanisms beat it with little or no independent work (a few rounds at most) and the seed's"
                + " order-of-magnitude gap between"
                + " synchronising near the core and through memory shows instead in the threaded loop's cost per link"
                + " (the time at work 0 divided by the links; the table's `at it` column).\n";
    }
}
