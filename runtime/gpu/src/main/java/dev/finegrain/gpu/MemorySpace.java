package dev.finegrain.gpu;

import java.util.Locale;

/** The two memories a run can initialize and dump. */
public enum MemorySpace {
    /** Per block; every block's window starts zeroed (or initialized) when the block is placed on an SM. */
    SHARED,
    /** One for the whole grid. */
    GLOBAL;

    public static MemorySpace parse(String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new SimUserException("unknown memory '" + text + "' (expected shared or global)");
        }
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    static int parseAddress(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        try {
            long value = t.startsWith("0x") ? Long.parseLong(t.substring(2), 16) : Long.parseLong(t);
            if (value < 0 || value > Integer.MAX_VALUE) {
                throw new SimUserException("address out of range: " + text);
            }
            return (int) value;
        } catch (NumberFormatException e) {
            throw new SimUserException("not an address (hex 0x... or decimal): '" + text + "'");
        }
    }
}
