package dev.finegrain.gpu;

/**
 * A range of memory to print after the run, one 32-bit word per line: {@code [fromByte, toByte)}. For shared memory
 * every block's window is printed.
 */
public record DumpRange(MemorySpace space, int fromByte, int toByte) {
    public DumpRange {
        if ((fromByte & 3) != 0 || toByte < fromByte) {
            throw new SimUserException("dump range " + fromByte + ":" + toByte
                    + " must start 4-byte aligned and not end before it starts");
        }
    }

    /** Parses what {@code --dump shared|global START:END} takes, END exclusive, hex or decimal. */
    public static DumpRange parse(String space, String range) {
        int colon = range.indexOf(':');
        if (colon < 0) {
            throw new SimUserException("dump range '" + range + "': expected START:END (e.g. 0:0x100)");
        }
        return new DumpRange(MemorySpace.parse(space), MemorySpace.parseAddress(range.substring(0, colon)),
                MemorySpace.parseAddress(range.substring(colon + 1)));
    }
}
