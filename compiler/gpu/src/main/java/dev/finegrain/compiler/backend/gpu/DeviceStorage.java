package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.Storage;

/**
 * How many bytes an element of a field takes in a GPU's device memory, decided once for every GPU emitter: an input
 * declared {@link Storage#BYTE} (each value in -128 to 127) lies a byte an element on a target that loads single bytes
 * ({@link GpuTarget#byteLoads}), so that a Needleman-Wunsch cell reads 1 byte of its reference where an int takes 4;
 * every other field takes its type's bytes ({@link GpuTarget#elementBytes}). The model's ISA loads whole words, so on
 * the model a byte input stays a word an element, as it was declared.
 */
public final class DeviceStorage {

    private DeviceStorage() {}

    /** Whether {@code field} lies in {@code target}'s memory a byte an element. */
    public static boolean packsBytes(KernelGraph graph, IrField field, GpuTarget target) {
        return target.byteLoads() && graph.declaresBytes(field);
    }

    /** The bytes one element of {@code field} takes in {@code target}'s memory. */
    public static int elementBytes(KernelGraph graph, IrField field, GpuTarget target) {
        return packsBytes(graph, field, target) ? 1 : GpuTarget.elementBytes(field.type());
    }
}
