package dev.finegrain.gpu;

import java.util.Arrays;

/**
 * Words written into memory before the kernel starts: into global memory once, or into the shared window of every
 * block as it is placed.
 *
 * @param space where
 * @param byteAddress first byte, 4-byte aligned
 * @param words the 32-bit values, in address order
 */
public record MemoryInit(MemorySpace space, int byteAddress, int[] words) {
    public MemoryInit {
        if ((byteAddress & 3) != 0) {
            throw new SimUserException("init address 0x" + Integer.toHexString(byteAddress) + " is not 4-byte aligned");
        }
        words = words.clone();
    }

    @Override
    public int[] words() {
        return words.clone();
    }

    /**
     * Parses {@code SPACE:ADDRESS=V1,V2,...} (what {@code --init} takes): {@code global:0x100=1,2,3}; addresses and
     * values in hex ({@code 0x}) or decimal, values possibly negative.
     */
    public static MemoryInit parse(String text) {
        int colon = text.indexOf(':');
        int equals = text.indexOf('=');
        if (colon < 0 || equals < colon) {
            throw new SimUserException("init '" + text + "': expected SPACE:ADDRESS=V1,V2,... (e.g. global:0x0=1,2,3)");
        }
        MemorySpace space = MemorySpace.parse(text.substring(0, colon));
        int address = MemorySpace.parseAddress(text.substring(colon + 1, equals));
        String[] parts = text.substring(equals + 1).split(",");
        int[] values = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            values[i] = parseValue(text, parts[i].trim());
        }
        return new MemoryInit(space, address, values);
    }

    private static int parseValue(String whole, String value) {
        boolean negative = value.startsWith("-");
        String digits = negative ? value.substring(1) : value;
        try {
            long parsed = digits.toLowerCase(java.util.Locale.ROOT).startsWith("0x")
                    ? Long.parseLong(digits.substring(2), 16) : Long.parseLong(digits);
            if (parsed > 0xFFFF_FFFFL) {
                throw new NumberFormatException();
            }
            return (int) (negative ? -parsed : parsed);
        } catch (NumberFormatException e) {
            throw new SimUserException("init '" + whole + "': '" + value + "' is not a 32-bit value");
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof MemoryInit that && space == that.space && byteAddress == that.byteAddress
                && Arrays.equals(words, that.words);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * space.hashCode() + byteAddress) + Arrays.hashCode(words);
    }

    @Override
    public String toString() {
        return space.label() + ":0x" + Integer.toHexString(byteAddress) + "=" + Arrays.toString(words);
    }
}
