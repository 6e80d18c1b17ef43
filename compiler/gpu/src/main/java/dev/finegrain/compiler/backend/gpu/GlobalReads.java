package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;

import java.util.List;

/**
 * Which fields a GPU mapping stages (tile copies in shared memory, a band's rings and edge windows) and which a cell
 * reads straight from global memory. A sequence input (an element per row or column) and a lookup table are small,
 * read again and again and never written, so every cell reads them from global memory, where the read-only caches
 * keep them; staging them would copy a row's one value into every word of a tile. Every other field is staged, in the
 * common halo's layout ({@link CommonHalo}).
 */
public final class GlobalReads {

    private GlobalReads() {}

    /** Whether the mapping stages {@code field}: every field but a sequence input. */
    public static boolean staged(IrField field) {
        return !field.isSequence();
    }

    /** The fields a mapping stages, in field order. */
    public static List<IrField> stagedFields(KernelGraph graph) {
        return graph.fields().stream().filter(GlobalReads::staged).toList();
    }
}
