package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.backend.Backend;
import dev.finegrain.compiler.compare.Comparison;
import dev.finegrain.compiler.compare.ComparisonRequest;
import dev.finegrain.compiler.compare.ComparisonRunner;
import dev.finegrain.compiler.compare.MechanismChoice;
import dev.finegrain.compiler.compare.ResultFormat;
import dev.finegrain.compiler.compare.ResultRow;
import dev.finegrain.compiler.compare.RowStatus;
import dev.finegrain.compiler.compare.UsageException;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.resolve.Skip;
import dev.finegrain.compiler.resolve.VariantRequest;
import dev.finegrain.compiler.resolve.VariantResolver;
import dev.finegrain.dsl.LibraryKernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

@Command(name = "run", description = "Run one combination and verify it against the oracle.")
final class RunCommand extends CatalogCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "KERNEL", description = "a kernel from 'finegrain list'")
    String kernelName;

    @Option(names = "--size", required = true, paramLabel = "N[xM]", description = "the domain size: N, or one extent per dimension joined by x")
    String size;

    @Option(names = "--schedule", defaultValue = "lock-dataflow", paramLabel = "S",
            description = "wavefront[:BARRIER], lock-dataflow[:persistent][:interleaved][:capacity=N], data-parallel[:B[xC]],"
                    + " dynamic-dataflow[:B[xC]][:READY] (default: ${DEFAULT-VALUE})")
    String schedule;

    @Option(names = "--backend", defaultValue = "reference", paramLabel = "B", description = "default: ${DEFAULT-VALUE}")
    String backend;

    @Option(names = "--mechanism", paramLabel = "M",
            description = "lock mechanism for lock-dataflow, on backends that implement them (default: the kernel's own if it "
                    + "names one, else the backend's: acquire-release on jvm, tiny-lock on gpu-model)")
    String mechanism;

    @Mixin
    RunOptions options = new RunOptions();


    @Override
    public Integer call() {
        LibraryKernel kernel = CliValues.kernel(catalog(), kernelName);
        ResultFormat resultFormat = options.resultFormat();
        options.requireOneThreadCount("run");
        Schedule parsedSchedule = CliValues.schedule(schedule);
        Backend parsedBackend = CliValues.backend(backend);
        CliValues.requireRuns(parsedBackend, parsedSchedule);
        ComparisonRequest.Builder request = ComparisonRequest.builder(kernel)
                .sizes(List.of(CliValues.size(size, kernel.kernel())))
                .schedules(List.of(parsedSchedule)).backends(List.of(parsedBackend))
                .mechanisms(oneMechanism(kernel, parsedSchedule, parsedBackend).map(m -> MechanismChoice.listed(List.of(m)))
                        .orElse(MechanismChoice.ownOrAll()));
        // the runner's notes (the sweep's, a long oracle's as it starts) go to stderr as they come
        Comparison comparison = ComparisonRunner.run(options.applyTo(request).progress(err()).build());
        ResultRow row = comparison.rows().getFirst();
        if (row.status() == RowStatus.SKIPPED) {
            throw new UsageException(row.problem());
        }
        out().print(resultFormat.render(comparison.rows()));
        return CliValues.exitStatus(comparison, err());
    }

    /**
     * One combination: the mechanism asked for, else the schedule's or the kernel's own, else the backend's default;
     * none for a schedule or backend that takes none.
     */
    private Optional<LockMechanism> oneMechanism(LibraryKernel kernel, Schedule schedule, Backend backend) {
        if (mechanism != null) {
            return Optional.of(CliValues.mechanism(mechanism));
        }
        if (!(schedule instanceof Schedule.LockDataflow dataflow) || backend.modelsSyncAbstractly()) {
            return Optional.empty();
        }
        Optional<LockMechanism> own = dataflow.mechanismFor(kernel.kernel());
        if (own.isPresent()) {
            return own;
        }
        VariantResolver resolver = new VariantResolver();
        VariantRequest request = VariantRequest.of(kernel.kernel(), schedule, backend);
        Optional<LockMechanism> chosen = resolver.resolve(request).variant().flatMap(Variant::mechanism);
        backend.preferredMechanism().filter(preferred -> chosen.isPresent() && !chosen.get().equals(preferred)).ifPresent(preferred ->
                err().println("note: backend '" + backend.name() + "' cannot use its default mechanism " + preferred + " here ("
                        + resolver.resolve(request.withMechanism(preferred)).skip().map(Skip::detail).orElse("not available")
                        + "), so this run uses " + chosen.get() + "; choose one with --mechanism"));
        return chosen;
    }
}
