package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.compare.Backends;
import dev.finegrain.compiler.compare.ComparisonRunner;
import dev.finegrain.compiler.compare.KernelCatalog;
import dev.finegrain.compiler.compare.ReportWriter;
import dev.finegrain.compiler.compare.ResultFormat;
import dev.finegrain.compiler.compare.ResultRow;
import dev.finegrain.dsl.LibraryKernel;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "compare", description = "Run every combination, verify each against the oracle, print one row per combination.")
final class CompareCommand extends CatalogCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "KERNEL", description = "a kernel from 'finegrain list'")
    String kernelName;

    @Option(names = "--sizes", paramLabel = "N,...", description = "sizes, each N or NxM (default: the kernel's)")
    String sizes;

    @Option(names = "--schedules", paramLabel = "S,...", description = "default: wavefront,lock-dataflow,data-parallel")
    String schedules;

    @Option(names = "--backends", paramLabel = "B,...", description = "default: every available backend")
    String backends;

    @Option(names = "--mechanisms", paramLabel = "M,...", description = "default: every mechanism each backend implements")
    String mechanisms;

    @Option(names = "--out", paramLabel = "DIR", description = "also write DIR/results.json, DIR/results.csv and DIR/report.html")
    Path outDir;

    @Mixin
    RunOptions options = new RunOptions();

    CompareCommand(KernelCatalog catalog) {
        super(catalog);
    }

    @Override
    public Integer call() {
        LibraryKernel kernel = CliValues.kernel(catalog, kernelName);
        ResultFormat resultFormat = options.resultFormat();
        int rank = kernel.kernel().rank();
        ComparisonRunner.Request request = new ComparisonRunner.Request(kernel,
                sizes == null ? kernel.defaultSizes() : CliValues.sizes(sizes, rank, kernelName),
                schedules == null ? CliValues.allSchedules() : CliValues.schedules(schedules),
                backends == null ? Backends.available() : CliValues.backends(backends),
                mechanisms == null ? List.of() : CliValues.mechanisms(mechanisms),
                options.seed, options.threadCount(), options.measure(), err());
        ReportWriter report = outDir == null ? null : ReportWriter.into(outDir);
        List<ResultRow> rows = ComparisonRunner.run(request);
        out().print(resultFormat.render(rows));
        if (report != null) {
            Path page = report.write(rows, commandLine(), ZonedDateTime.now());
            err().println("report: " + page);
        }
        return rows.stream().allMatch(ResultRow::verified) ? 0 : FinegrainCli.EXIT_NOT_VERIFIED;
    }

    /** The command as typed, quoting arguments a shell would split, for the report to say how it was made. */
    private String commandLine() {
        StringBuilder line = new StringBuilder(spec.root().name());
        for (String argument : spec.root().commandLine().getParseResult().originalArgs()) {
            boolean plain = !argument.isEmpty() && argument.chars().allMatch(c -> Character.isLetterOrDigit(c) || "-_.,:/=+@%".indexOf(c) >= 0);
            line.append(' ').append(plain ? argument : "'" + argument.replace("'", "'\\''") + "'");
        }
        return line.toString();
    }
}
