package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.backend.Backend;
import dev.finegrain.compiler.compare.ComparisonRunner;
import dev.finegrain.compiler.compare.KernelCatalog;
import dev.finegrain.compiler.compare.ResultFormat;
import dev.finegrain.compiler.compare.ResultRow;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.dsl.LibraryKernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "run", description = "Run one combination and verify it against the oracle.")
final class RunCommand extends CatalogCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "KERNEL", description = "a kernel from 'finegrain list'")
    String kernelName;

    @Option(names = "--size", required = true, paramLabel = "N[,M]", description = "the domain size: N, or one extent per dimension")
    String size;

    @Option(names = "--schedule", defaultValue = "lock-dataflow", paramLabel = "S",
            description = "wavefront, lock-dataflow, data-parallel[:B] (default: ${DEFAULT-VALUE})")
    String schedule;

    @Option(names = "--backend", defaultValue = "reference", paramLabel = "B", description = "default: ${DEFAULT-VALUE}")
    String backend;

    @Option(names = "--mechanism", paramLabel = "M",
            description = "lock mechanism for lock-dataflow, on backends that implement them (default: the backend's own: "
                    + "acquire-release on jvm, tiny-lock on gpu-model)")
    String mechanism;

    @Mixin
    RunOptions options = new RunOptions();

    RunCommand(KernelCatalog catalog) {
        super(catalog);
    }

    @Override
    public Integer call() {
        LibraryKernel kernel = CliValues.kernel(catalog, kernelName);
        ResultFormat resultFormat = options.resultFormat();
        Schedule parsedSchedule = CliValues.schedule(schedule);
        Backend parsedBackend = CliValues.backend(backend);
        // one combination: without --mechanism, the backend's default mechanism rather than a sweep of all of them
        List<LockMechanism> mechanisms = mechanism != null ? List.of(CliValues.mechanism(mechanism))
                : parsedBackend.modelsSyncAbstractly() ? List.of()
                : parsedBackend.defaultMechanism(Pipeline.compile(kernel.kernel()), parsedSchedule).map(List::of).orElse(List.of());
        List<ResultRow> rows = ComparisonRunner.run(new ComparisonRunner.Request(kernel,
                List.of(CliValues.size(size, kernel.kernel().rank(), kernelName)), List.of(parsedSchedule),
                List.of(parsedBackend), mechanisms, options.seed, options.threadCount(), options.measure(), null));
        out().print(resultFormat.render(rows));
        return rows.stream().allMatch(ResultRow::verified) ? 0 : FinegrainCli.EXIT_NOT_VERIFIED;
    }
}
