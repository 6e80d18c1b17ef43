package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.compare.Backends;
import dev.finegrain.compiler.compare.Comparison;
import dev.finegrain.compiler.compare.ComparisonRequest;
import dev.finegrain.compiler.compare.ComparisonRunner;
import dev.finegrain.compiler.compare.ImportedRows;
import dev.finegrain.compiler.compare.MechanismChoice;
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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "compare", description = "Run every combination, verify each against the oracle, print one row per combination.")
final class CompareCommand extends CatalogCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "KERNEL", description = "a kernel from 'finegrain list'")
    String kernelName;

    @Option(names = "--sizes", paramLabel = "N,...", description = "sizes, each N or NxM, separated by commas (default: the kernel's)")
    String sizes;

    @Option(names = "--schedules", paramLabel = "S,...", description = "default: wavefront,lock-dataflow,lock-dataflow:persistent,data-parallel")
    String schedules;

    @Option(names = "--backends", paramLabel = "B,...", description = "default: every available backend")
    String backends;

    @Option(names = "--mechanisms", paramLabel = "M,...|all",
            description = "lock mechanisms for lock-dataflow (default: the kernel's own if it names one, else all)")
    String mechanisms;

    @Option(names = "--out", paramLabel = "DIR", description = "also write DIR/results.json, DIR/results.csv and DIR/report.html")
    Path outDir;

    @Option(names = "--results", paramLabel = "FILE", split = ",",
            description = "rows to merge, from results.json files (an exported CUDA bundle's, or an earlier --out's)")
    List<Path> results = new ArrayList<>();

    @Mixin
    RunOptions options = new RunOptions();


    @Override
    public Integer call() {
        LibraryKernel kernel = CliValues.kernel(catalog(), kernelName);
        ResultFormat resultFormat = options.resultFormat();
        int rank = kernel.kernel().rank();
        ComparisonRequest.Builder request = ComparisonRequest.builder(kernel)
                .sizes(sizes == null ? kernel.defaultSizes() : CliValues.sizes(sizes, rank, kernelName))
                .schedules(schedules == null ? CliValues.allSchedules() : CliValues.schedules(schedules))
                .backends(backends == null ? Backends.available() : CliValues.backends(backends))
                .mechanisms(mechanisms == null ? MechanismChoice.ownOrAll() : CliValues.mechanismChoice(mechanisms))
                .progress(err());
        List<ResultRow> imported = new ArrayList<>();
        results.forEach(file -> imported.addAll(ImportedRows.read(file)));
        if (backends == null && !imported.isEmpty()) {
            request.backends(List.of());
        }
        ReportWriter report = outDir == null ? null : ReportWriter.into(outDir);
        Comparison local = ComparisonRunner.run(options.applyTo(request).build());
        List<String> askedSizes = sizes == null ? List.of()
                : CliValues.sizes(sizes, rank, kernelName).stream().map(ComparisonRunner::sizeText).toList();
        Comparison comparison = local.withImported(imported, kernelName, askedSizes,
                String.join(", ", results.stream().map(Path::toString).toList()));
        // the runner printed its own notes as it went; what the merge adds is said here
        comparison.notes().stream().skip(local.notes().size()).forEach(note -> err().println("note: " + note));
        out().print(resultFormat.render(comparison.rows()));
        if (report != null) {
            Path page = report.write(comparison, CliValues.commandLine(spec), ZonedDateTime.now());
            err().println("report: " + page);
        }
        return CliValues.exitStatus(comparison, err());
    }
}
