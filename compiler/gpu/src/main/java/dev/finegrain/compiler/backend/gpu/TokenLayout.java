package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.backend.gpu.mechanism.TokenStorage;

import java.util.Arrays;

/**
 * Where a lock-dataflow block keeps its tokens: {@code arrays} token arrays (one per state field for shared channels,
 * one per channel for private ones), each of {@code wordsPerArray} words (one per thread, or one per warp), laid out
 * in shared memory from byte 0 at {@code tokenBase} (empty when the tokens live in the data words or nowhere), so that
 * their lock bits never alias those of the data.
 */
public record TokenLayout(TokenStorage storage, boolean privateChannels, int arrays, int wordsPerArray, int[] tokenBase) {

    /** Token words of the block, whatever holds them. */
    public int words() {
        return arrays * wordsPerArray;
    }

    @Override
    public String toString() {
        return arrays + " array" + (arrays == 1 ? "" : "s") + " of " + wordsPerArray + " token words, " + switch (storage) {
            case LOCK_BIT_OF_DATA_WORD -> "the lock bits of the data words themselves";
            case READY_BIT_BESIDE_VALUE -> "a ready bit beside each data word's value in one 64-bit word";
            case TOKEN_WORD -> "words of their own at shared bytes " + Arrays.toString(tokenBase);
            case NONE -> "no words: the warps meet at named barriers";
        };
    }
}
