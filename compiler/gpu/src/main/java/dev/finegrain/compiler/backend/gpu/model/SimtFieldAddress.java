package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;

/**
 * A point's byte offset in every field of a layout, held in two registers: {@code narrow} for 4-byte elements and,
 * when some field is long or double, {@code wide} (twice it) for 8-byte ones.
 */
record SimtFieldAddress(GlobalLayout layout, String narrow, String wide) {

    /** The address {@code [offset register + bytes]} of a word of {@code field}. */
    String at(int field, long bytes) {
        boolean eightBytes = GpuTarget.elementBytes(layout.fieldType(field)) == 8;
        return SimtAssembler.address(eightBytes ? wide : narrow, bytes);
    }
}
