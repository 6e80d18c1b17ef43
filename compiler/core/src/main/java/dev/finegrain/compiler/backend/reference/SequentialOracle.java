package dev.finegrain.compiler.backend.reference;

import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.plan.Domain;
import dev.finegrain.dsl.Invocation;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The oracle every backend and schedule is checked against: one actor instance at a time, points in
 * lexicographic order, the actors of a point in the graph's actor order. The kernel's validation guarantees
 * every dependence points backwards in this order. A state field the kernel does not keep whole is folded into a
 * rolling window of rows (as many as its reads reach back, plus one), so a score-only alignment runs in memory linear
 * in the row length; its kept values and the reductions are gathered as they are produced.
 */
public final class SequentialOracle {

    private SequentialOracle() {}

    public static KernelOutputs run(KernelGraph graph, Invocation invocation) {
        return fireAll(graph, invocation, true).outputs();
    }

    /**
     * Every state field over the whole domain (no halo, row-major), whatever the kernel keeps: for a check that compares
     * whole fields (a CUDA bundle's harness), which is stronger than comparing what a run keeps.
     */
    public static Map<String, Object> wholeFields(KernelGraph graph, Invocation invocation) {
        Interpreter interpreter = fireAll(graph, invocation, false);
        Object[] padded = interpreter.paddedArrays();
        Map<String, Object> fields = new LinkedHashMap<>();
        for (IrField field : graph.fields()) {
            if (field.isState()) {
                fields.put(field.name(), KernelOutputs.interior(field, invocation.sizes(), padded[field.id()]));
            }
        }
        return fields;
    }

    private static Interpreter fireAll(KernelGraph graph, Invocation invocation, boolean fold) {
        Interpreter interpreter = new Interpreter(graph, invocation, true, fold);
        int[] sizes = invocation.sizes();
        int[] point = new int[sizes.length];
        // every point in row-major order, unnumbered: a folded run may have more points than an int counts
        do {
            if (isRowStart(point)) {
                interpreter.startRow(point[0]);
            }
            for (int actor : graph.actorOrder()) {
                interpreter.fire(actor, point);
            }
        } while (Domain.next(sizes, point));
        return interpreter;
    }

    /** Whether {@code point} is the first of its row along the first dimension (every other coordinate 0). */
    private static boolean isRowStart(int[] point) {
        for (int d = 1; d < point.length; d++) {
            if (point[d] != 0) {
                return false;
            }
        }
        return true;
    }
}
