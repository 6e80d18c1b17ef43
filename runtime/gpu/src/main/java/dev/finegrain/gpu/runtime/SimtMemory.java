package dev.finegrain.gpu.runtime;

/** A word-addressed memory reached by byte addresses that must be 4-byte aligned and in range. */
public final class SimtMemory {
    private final int[] words;

    public SimtMemory(int bytes) {
        this(new int[bytes / 4]);
    }

    /** A memory over {@code words}, which it shares with whoever passed them. */
    public SimtMemory(int[] words) {
        this.words = words;
    }

    public int sizeBytes() {
        return words.length * 4;
    }

    /** The word index of a byte address, or -1 when it is misaligned or out of range. */
    public int wordIndex(int byteAddress) {
        if ((byteAddress & 3) != 0 || byteAddress < 0 || byteAddress / 4 >= words.length) {
            return -1;
        }
        return byteAddress >>> 2;
    }

    public int load(int wordIndex) {
        return words[wordIndex];
    }

    /** Stores and reports whether the value changed, which is what the deadlock watchdog calls progress. */
    public boolean store(int wordIndex, int value) {
        boolean changed = words[wordIndex] != value;
        words[wordIndex] = value;
        return changed;
    }

    public int[] snapshot(int fromByte, int toByte) {
        int from = Math.max(0, fromByte / 4);
        int to = Math.min(words.length, (toByte + 3) / 4);
        int[] copy = new int[Math.max(0, to - from)];
        System.arraycopy(words, from, copy, 0, copy.length);
        return copy;
    }
}
