package dev.finegrain.dsl;

/**
 * How a backend may keep an input field's values in memory. {@link #NATURAL}: one element of the field's type each.
 * {@link #BYTE}: the values of an INT input all fit in a signed byte (-128 to 127), so a backend that streams the input
 * may keep one byte per element and widen it on load; an invocation whose values do not fit is refused. The kernel's
 * results do not change: every read still yields the int.
 *
 * <p>Why: a kernel that reads an input and writes a field once per cell (Needleman-Wunsch's substitution scores) is
 * bound by the bytes it moves; a byte input moves 1 byte a cell where an int moves 4. The jvm backend keeps BYTE inputs
 * in bytes; the other backends keep ints.
 */
public enum Storage {
    NATURAL,
    BYTE
}
