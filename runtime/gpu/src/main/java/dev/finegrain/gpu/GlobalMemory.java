package dev.finegrain.gpu;

/**
 * Global memory that the caller owns, so that it outlives one launch: a host program (the compiler's GPU-model
 * backend) uploads its arrays once, runs a sequence of launches over the same memory, as CUDA host code does, and
 * reads the results back. Pass it with {@link SimRequest.Builder#globalMemory}; without it, each run gets fresh,
 * zeroed memory of {@link SimRequest#globalBytes()} bytes.
 */
public final class GlobalMemory {
    private final int[] words;

    public GlobalMemory(int bytes) {
        if (bytes <= 0 || (bytes & 3) != 0) {
            throw new SimUserException("global memory size must be a positive multiple of 4 bytes, was " + bytes);
        }
        this.words = new int[bytes / 4];
    }

    public int sizeBytes() {
        return words.length * 4;
    }

    /** Copies {@code values} to consecutive words from {@code byteAddress}. */
    public void write(int byteAddress, int[] values) {
        System.arraycopy(values, 0, words, wordIndex(byteAddress, values.length), values.length);
    }

    /** A copy of {@code count} consecutive words from {@code byteAddress}. */
    public int[] read(int byteAddress, int count) {
        int[] copy = new int[count];
        System.arraycopy(words, wordIndex(byteAddress, count), copy, 0, count);
        return copy;
    }

    public void writeWord(int byteAddress, int value) {
        words[wordIndex(byteAddress, 1)] = value;
    }


    private int wordIndex(int byteAddress, int count) {
        if ((byteAddress & 3) != 0 || byteAddress < 0 || byteAddress / 4 + (long) count > words.length) {
            throw new IllegalArgumentException(count + " words at 0x" + Integer.toHexString(byteAddress)
                    + " are not inside the " + sizeBytes() + " bytes of global memory");
        }
        return byteAddress >>> 2;
    }

    /** The backing words, shared with the machine that runs on this memory. */
    int[] words() {
        return words;
    }
}
