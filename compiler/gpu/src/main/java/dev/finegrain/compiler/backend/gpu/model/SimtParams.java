package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.Type;

import java.util.LinkedHashMap;
import java.util.Map;

/** The prologue's loads of a kernel's params from the parameter bank (a pair each for long and double). */
final class SimtParams {

    private SimtParams() {}

    /** Loads every param; returns its register by param index. */
    static Map<Integer, String> load(SimtAssembler asm, KernelGraph graph, GlobalLayout layout) {
        Map<Integer, String> params = new LinkedHashMap<>();
        for (int p = 0; p < graph.kernel().params().size(); p++) {
            Type type = graph.kernel().params().get(p).type();
            String param = asm.register(type);
            asm.emit("LDG" + SimtAssembler.width(type) + " " + param + ", [" + SimtAssembler.immediate(layout.paramByte(p))
                    + "]");
            params.put(p, param);
        }
        return params;
    }
}
