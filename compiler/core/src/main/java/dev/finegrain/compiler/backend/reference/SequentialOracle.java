package dev.finegrain.compiler.backend.reference;

import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.plan.Domain;
import dev.finegrain.dsl.Invocation;

/**
 * The oracle every backend and schedule is checked against: one actor instance at a time, points in
 * lexicographic order, the actors of a point in the graph's actor order. The kernel's validation guarantees
 * every dependence points backwards in this order.
 */
public final class SequentialOracle {

    private SequentialOracle() {}

    public static KernelOutputs run(KernelGraph graph, Invocation invocation) {
        Interpreter interpreter = new Interpreter(graph, invocation, true);
        Domain domain = new Domain(invocation.sizes());
        int[] point = new int[domain.rank()];
        for (int p = 0; p < domain.points(); p++) {
            domain.coordinates(p, point);
            for (int actor : graph.actorOrder()) {
                interpreter.fire(actor, point);
            }
        }
        return interpreter.outputs();
    }
}
