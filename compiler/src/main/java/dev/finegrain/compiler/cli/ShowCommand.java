package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.compare.KernelCatalog;
import dev.finegrain.compiler.ir.IrPrinter;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.LibraryKernel;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

@Command(name = "show", description = "Show a kernel's compiled IR and, with --schedule, its execution plan.")
final class ShowCommand extends CatalogCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "KERNEL", description = "a kernel from 'finegrain list'")
    String kernelName;

    @Option(names = "--ir", description = "print the IR after all passes (the default view)")
    boolean ir;

    @Option(names = "--passes", description = "print the IR after each pass, verifying it each time")
    boolean passes;

    @Option(names = "--schedule", paramLabel = "S", description = "also print the plan of schedule S")
    String schedule;

    ShowCommand(KernelCatalog catalog) {
        super(catalog);
    }

    @Override
    public Integer call() {
        LibraryKernel kernel = CliValues.kernel(catalog, kernelName);
        KernelGraph graph;
        if (passes) {
            ByteArrayOutputStream trace = new ByteArrayOutputStream();
            graph = Pipeline.run(kernel.kernel(), true, new PrintStream(trace, true, StandardCharsets.UTF_8));
            out().print(trace.toString(StandardCharsets.UTF_8));
        } else {
            graph = Pipeline.compile(kernel.kernel());
            out().print(IrPrinter.print(graph));
        }
        if (schedule != null) {
            out().print("plan: " + SchedulePlanner.plan(graph, CliValues.schedule(schedule)).describe());
        }
        return 0;
    }
}
