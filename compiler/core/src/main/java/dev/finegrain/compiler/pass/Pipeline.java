package dev.finegrain.compiler.pass;

import dev.finegrain.compiler.ir.IrPrinter;
import dev.finegrain.compiler.ir.IrVerifier;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.Kernel;

import java.io.PrintStream;
import java.util.List;

/** The compiler's pass pipeline, as one readable list. */
public final class Pipeline {

    public static final List<Pass> STANDARD = List.of(
            new DeriveChannels(),
            new OrderActorsAtPoint(),
            new ReduceChannelsTransitively(),
            new FindHyperplane(),
            new AnalyzeTiling());

    private Pipeline() {}

    /** Lowers and analyses a kernel. */
    public static KernelGraph compile(Kernel kernel) {
        return run(kernel, false, null);
    }

    /**
     * Lowers and analyses a kernel; with {@code verifyEachPass} the verifier runs after the lowering and after
     * every pass, and with a {@code trace} stream the IR is printed after each (or "(unchanged)").
     */
    public static KernelGraph run(Kernel kernel, boolean verifyEachPass, PrintStream trace) {
        KernelGraph graph = LowerSpecToGraph.lower(kernel);
        String before = IrPrinter.print(graph);
        if (verifyEachPass) {
            IrVerifier.verify(graph, "lower-spec-to-graph");
        }
        if (trace != null) {
            trace.println("--- after lower-spec-to-graph ---");
            trace.print(before);
        }
        for (Pass pass : STANDARD) {
            graph = pass.apply(graph);
            if (verifyEachPass) {
                IrVerifier.verify(graph, pass.name());
            }
            if (trace != null) {
                String after = IrPrinter.print(graph);
                trace.println("--- after " + pass.name() + " ---");
                trace.print(after.equals(before) ? "(unchanged)\n" : after);
                before = after;
            }
        }
        return graph;
    }
}
