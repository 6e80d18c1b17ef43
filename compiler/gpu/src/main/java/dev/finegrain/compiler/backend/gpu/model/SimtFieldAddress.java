package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;

/**
 * A point's byte offset in every field of a layout, held in two registers: {@code narrow} for 4-byte elements and,
 * when some field is long or double, {@code wide} (twice it) for 8-byte ones; {@code columns} elements to the right of
 * it where a view names a neighbour (a band's lane owns several columns side by side).
 */
record SimtFieldAddress(GlobalLayout layout, String narrow, String wide, int columns) {

    SimtFieldAddress(GlobalLayout layout, String narrow, String wide) {
        this(layout, narrow, wide, 0);
    }

    /** The same registers, naming the point {@code columns} columns to the right. */
    SimtFieldAddress right(int columns) {
        return new SimtFieldAddress(layout, narrow, wide, columns);
    }

    /** Sets the wide offset, twice the narrow one, where the layout has 8-byte fields (and so a wide register). */
    void emitWide(SimtAssembler asm) {
        if (wide != null) {
            asm.emit("IADD " + wide + ", " + narrow + ", " + narrow);
        }
    }

    /** The address {@code [offset register + bytes]} of a word of {@code field}. */
    String at(int field, long bytes) {
        int elementBytes = GpuTarget.elementBytes(layout.fieldType(field));
        return SimtAssembler.address(elementBytes == 8 ? wide : narrow, bytes + (long) columns * elementBytes);
    }
}
