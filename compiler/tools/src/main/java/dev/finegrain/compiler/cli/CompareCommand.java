package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.compare.Backends;
import dev.finegrain.compiler.compare.Comparison;
import dev.finegrain.compiler.compare.ComparisonRequest;
import dev.finegrain.compiler.compare.ComparisonRunner;
import dev.finegrain.compiler.compare.ImportCheck;
import dev.finegrain.compiler.compare.ImportedRows;
import dev.finegrain.compiler.compare.MechanismChoice;
import dev.finegrain.compiler.compare.OutputFolder;
import dev.finegrain.compiler.compare.ReportCharts;
import dev.finegrain.compiler.compare.ReportWriter;
import dev.finegrain.compiler.compare.ReportVerdicts;
import dev.finegrain.compiler.compare.ResultFormat;
import dev.finegrain.compiler.compare.ResultRow;
import dev.finegrain.compiler.compare.Shard;
import dev.finegrain.compiler.compare.ShortRuns;
import dev.finegrain.compiler.compare.Sweep;
import dev.finegrain.compiler.compare.SweepAxes;
import dev.finegrain.compiler.compare.UsageException;
import dev.finegrain.dsl.LibraryKernel;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

@Command(name = "compare", description = "Run every combination, verify each against the oracle, print one row per combination.")
final class CompareCommand extends CatalogCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "KERNEL", description = "a kernel from 'finegrain list'")
    String kernelName;

    @Option(names = "--sizes", paramLabel = "N,...", description = "sizes, each N or NxM, separated by commas (default: the kernel's)")
    String sizes;

    @Option(names = "--schedules", paramLabel = "S,...", description = "default: " + CliValues.DEFAULT_SCHEDULES)
    String schedules;

    @Option(names = "--backends", paramLabel = "B,...", description = "default: " + CliValues.DEFAULT_BACKENDS + " (the GPU model and CUDA are asked for by name)")
    String backends;

    @Option(names = "--mechanisms", paramLabel = "M,...|all",
            description = "lock mechanisms for lock-dataflow (default: the kernel's own if it names one, else all)")
    String mechanisms;

    @Option(names = "--out", paramLabel = "DIR", description = "also write DIR/results.json, DIR/results.csv and DIR/report.html;"
            + " each row is journaled in DIR/rows.jsonl as it finishes, and an interrupted run (Ctrl-C, kill) writes the rows"
            + " it finished, marked incomplete")
    Path outDir;

    @Option(names = "--resume", description = "with --out DIR: keep the rows DIR/rows.jsonl holds from an interrupted run of"
            + " the same command and run only the others")
    boolean resume;

    @Option(names = "--shard", paramLabel = "I/N", description = "run only shard I of N of the sweep (0 <= I < N): the rows"
            + " whose position in the sweep's order is I modulo N; 'finegrain merge' puts the shards' --out folders together")
    String shard;

    @Option(names = "--results", paramLabel = "FILE", split = ",",
            description = "rows to merge, from results.json files (an exported CUDA bundle's, or an earlier --out's): the rows of"
                    + " this kernel, of every size unless --sizes names some; with --results and no --backends nothing runs here")
    List<Path> results = new ArrayList<>();

    @Option(names = "--x", paramLabel = "AXIS", description = "with --out: chart against this axis instead of the size: a"
            + " swept param (--params), threads (several --threads) or a profile key (--profile-set)")
    String xAxis;

    @Mixin
    RunOptions options = new RunOptions();

    @Mixin
    AxisOptions axes = new AxisOptions();


    @Override
    public Integer call() {
        LibraryKernel kernel = CliValues.kernel(catalog(), kernelName);
        if (resume && outDir == null) {
            throw new UsageException("--resume continues the sweep journaled in an --out folder; give --out DIR");
        }
        if (shard != null && !results.isEmpty()) {
            throw new UsageException("--shard runs a slice of a sweep, and rows from --results belong to no slice; merge the"
                    + " shards with finegrain merge, then add --results to a compare of the merged rows");
        }
        ResultFormat resultFormat = options.resultFormat();
        ComparisonRequest.Builder request = ComparisonRequest.builder(kernel)
                .sizes(sizes == null ? kernel.defaultSizes() : CliValues.sizes(sizes, kernel.kernel()))
                .schedules(schedules == null ? CliValues.allSchedules() : CliValues.schedules(schedules))
                .backends(axes.withProfileSettings(backends == null ? Backends.available() : CliValues.backends(backends)))
                .mechanisms(mechanisms == null ? MechanismChoice.ownOrAll() : CliValues.mechanismChoice(mechanisms))
                .shard(shard == null ? Shard.WHOLE : shard(shard))
                .progress(err())
                // set by the launcher when standard error is a terminal: its width
                .progressBar(Integer.getInteger("finegrain.progress.columns", 0));
        List<String> askedSizes = sizes == null ? List.of()
                : CliValues.sizes(sizes, kernel.kernel()).stream().map(ComparisonRunner::sizeText).toList();
        List<ResultRow> read = new ArrayList<>();
        results.forEach(file -> read.addAll(ImportedRows.read(file)));
        // a row read from a file is a claim; the oracle recomputed here decides whether it was checked against this kernel
        List<ResultRow> imported = ImportCheck.check(read, kernel, askedSizes, err());
        if (backends == null && !imported.isEmpty()) {
            request.backends(List.of());
        }
        String commandLine = CliValues.commandLine(spec);
        String from = String.join(", ", results.stream().map(Path::toString).toList());
        InterruptibleSweep run = new InterruptibleSweep();
        options.applyTo(request).listener(run).stopped(run.stopped())
                .axes(axes.axes(kernel.kernel(), options.threadCounts()));
        // expanded before any file is touched: a mistake in the request leaves an earlier run's folder as it was
        Sweep sweep = Sweep.of(request.build());
        try (OutputFolder folder = outDir == null ? null : OutputFolder.take(outDir, commandLine)) {
            ReportWriter report = folder == null ? null : ReportWriter.into(outDir).chartingAgainst(chartAxis(sweep));
            List<ResultRow> earlier = resume ? journaledRows(folder, sweep.identity()) : List.of();
            if (folder != null) {
                folder.startJournal(resume, sweep.identity());
                run.journalInto(folder);
            }
            Comparison local = run.run(sweep, earlier, settled -> writeInterrupted(settled, imported, askedSizes, from, resultFormat,
                    report, commandLine));
            try {
                Comparison comparison = local.withImported(imported, kernelName, askedSizes, from);
                // the runner printed its own notes as it went; what the merge adds is said here
                comparison.notes().stream().skip(local.notes().size()).forEach(note -> err().println("note: " + note));
                out().print(resultFormat.render(comparison.rows()));
                if (resultFormat == ResultFormat.TABLE) {
                    printFastest(comparison.rows());
                }
                ShortRuns.warning(comparison.rows()).ifPresent(warning -> err().println("warning: " + warning));
                if (report != null) {
                    Path page = report.write(comparison, commandLine, ZonedDateTime.now());
                    folder.markComplete(sweep.identity());
                    err().println("report: " + page);
                }
                return CliValues.exitStatus(comparison, err());
            } finally {
                run.written();
            }
        }
    }

    /**
     * Under the table, the report's first answer in text: per backend and point where two or more variants verified,
     * the fastest, its speed-up over the baseline and the variants tied with it (their runs overlap its runs).
     */
    private void printFastest(List<ResultRow> rows) {
        List<ReportVerdicts.Verdict> verdicts = ReportVerdicts.verdicts(rows).stream().filter(verdict -> verdict.variants() > 1).toList();
        if (verdicts.isEmpty()) {
            return;
        }
        out().println("fastest of the verified rows (tied: their runs overlap the fastest's):");
        for (ReportVerdicts.Verdict verdict : verdicts) {
            String speedup = verdict.winnerIsBaseline() ? "" : String.format(java.util.Locale.ROOT, ", %.2f x faster than %s", verdict.speedup(),
                    verdict.baseline());
            boolean noise = ShortRuns.tooShort(verdict.backend(), verdict.cost());
            out().println("  " + verdict.kernel() + " " + verdict.point() + " " + verdict.backend() + ": " + verdict.winner() + ", "
                    + verdict.cost().text() + speedup + (verdict.ties().isEmpty() ? "" : "; tied: " + String.join(", ", verdict.ties()))
                    + (noise ? " (" + ShortRuns.tooShortNote() + ")" : ""));
        }
    }

    /** The rows the folder's journal keeps for a resumed run of the same sweep; another sweep's journal is refused. */
    private List<ResultRow> journaledRows(OutputFolder folder, String sweep) {
        Optional<String> journaled = folder.journaledSweep();
        if (journaled.isPresent() && !journaled.get().equals(sweep)) {
            throw new UsageException("the journal in " + outDir + " is of another sweep (other sizes, schedules, backends,"
                    + " mechanisms, seed, threads or kernel definition); resume with the command that wrote it, or drop"
                    + " --resume to start afresh");
        }
        List<ResultRow> earlier = folder.journaledRows();
        err().println("note: resuming: the " + earlier.size() + " rows in " + outDir.resolve(OutputFolder.JOURNAL_FILE)
                + " are kept (failed ones run again), the others run"
                + (folder.skippedJournalLines() == 0 ? "" : "; " + folder.skippedJournalLines()
                        + " torn line(s) left out, their rows run again"));
        return earlier;
    }

    /** The axis the report charts against: the size, or an axis the sweep names in its rows. */
    private String chartAxis(Sweep sweep) {
        if (xAxis == null || xAxis.equals(ReportCharts.SIZE)) {
            return ReportCharts.SIZE;
        }
        if (outDir == null) {
            throw new UsageException("--x sets the report's charts, which --out DIR writes; give --out DIR");
        }
        java.util.Set<String> named = new java.util.TreeSet<>();
        sweep.rows().forEach(row -> row.axes().keySet().forEach(key -> named.add(key.substring(SweepAxes.PREFIX.length()))));
        if (!named.contains(xAxis)) {
            throw new UsageException("--x " + xAxis + " is not an axis of this sweep; "
                    + (named.isEmpty() ? "it varies none beyond the size (use --params, several --threads or --profile-set)"
                    : "its axes: size, " + String.join(", ", named)));
        }
        return xAxis;
    }

    /** The shard given as I/N. */
    private Shard shard(String text) {
        java.util.regex.Matcher given = java.util.regex.Pattern.compile("([0-9]{1,6})/([0-9]{1,6})").matcher(text.strip());
        int index = given.matches() ? Integer.parseInt(given.group(1)) : -1;
        int count = given.matches() ? Integer.parseInt(given.group(2)) : 0;
        if (index < 0 || count < 1 || index >= count) {
            throw new UsageException("--shard takes I/N with 0 <= I < N, e.g. --shard 0/4 for the first of four, not '" + text + "'");
        }
        return new Shard(index, count);
    }


    /**
     * On Ctrl-C or a kill that lets the JVM shut down: the rows settled so far, in the sweep's order, as a complete run
     * would give them (the table, and with --out the JSON, CSV and report), marked incomplete.
     */
    private void writeInterrupted(List<ResultRow> rows, List<ResultRow> imported, List<String> askedSizes, String from,
                                  ResultFormat resultFormat, ReportWriter report, String commandLine) {
        String incomplete = "incomplete: interrupted after " + rows.size() + " rows"
                + (outDir == null ? "; give --out DIR to keep finished rows and --resume to finish a sweep"
                        : "; run the same command with --resume to run the rest");
        Comparison partial = new Comparison(rows, List.of(incomplete)).withImported(imported, kernelName, askedSizes, from);
        out().print(resultFormat.render(partial.rows()));
        out().flush();
        err().println("finegrain: " + incomplete);
        if (report != null) {
            err().println("report: " + report.write(partial, commandLine, ZonedDateTime.now()));
        }
        err().flush();
    }
}
