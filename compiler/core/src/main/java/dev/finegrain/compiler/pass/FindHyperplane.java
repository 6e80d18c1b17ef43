package dev.finegrain.compiler.pass;

import dev.finegrain.compiler.ir.IrChannel;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.internal.DependenceMath;

/** Records the Lamport hyperplane h with h.d >= 1 for every non-zero channel vector d (the kernel's validation guarantees one); needs channels. */
public final class FindHyperplane implements Pass {

    @Override
    public String name() {
        return "find-hyperplane";
    }

    @Override
    public String contract() {
        return "Records the Lamport hyperplane h with h.d >= 1 for every non-zero channel vector d; needs channels.";
    }

    @Override
    public KernelGraph apply(KernelGraph graph) {
        int[] hyperplane = DependenceMath.findHyperplane(graph.rank(), graph.channels().stream().map(IrChannel::vector).toList())
                .orElseThrow(() -> new IllegalStateException("validated kernel " + graph.name() + " has no hyperplane"));
        return graph.withHyperplane(hyperplane);
    }
}
