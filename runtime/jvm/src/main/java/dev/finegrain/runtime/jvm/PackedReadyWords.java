package dev.finegrain.runtime.jvm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The tiny-lock analogue (seed 001 LDSLK/STSUL): an int value and its ready bit packed in one long word, so no
 * separate lock storage exists.
 *
 * <p>The low 32 bits hold the value, bit 32 is the ready bit. {@link #publish} stores both in one release store,
 * so a consumer can never see the ready bit with a stale value; {@link #await} reads the word with acquire, so it
 * also sees every other plain write the producer made before publishing.
 */
public final class PackedReadyWords {
    private static final VarHandle WORD = MethodHandles.arrayElementVarHandle(long[].class);
    private static final long READY_BIT = 1L << 32;
    private static final long VALUE_MASK = 0xFFFF_FFFFL;

    private PackedReadyWords() {
    }

    /** {@code words} words, none ready. */
    public static long[] create(int words) {
        return new long[words];
    }

    /** Stores the value with the ready bit, release. */
    public static void publish(long[] words, int word, int value) {
        WORD.setRelease(words, word, READY_BIT | (value & VALUE_MASK));
    }

    /**
     * Waits until the word is ready, re-reading it with acquire after every pause (spin, yield, then park: {@link
     * WaitPolicy}), and returns its value.
     */
    public static int await(long[] words, int word, Watchdog watchdog, int channel, int consumerPoint,
            int producerPoint) {
        long w = (long) WORD.getAcquire(words, word);
        if ((w & READY_BIT) == 0) {
            w = awaitSlowly(words, word, watchdog, channel, consumerPoint, producerPoint);
        }
        return (int) w;
    }

    /** Plain read of the value of a word already known to be ready (this thread awaited it before). */
    public static int value(long[] words, int word) {
        return (int) words[word];
    }

    private static long awaitSlowly(long[] words, int word, Watchdog watchdog, int channel, int consumerPoint,
            int producerPoint) {
        long start = Watchdog.CLOCK_NOT_STARTED;
        for (long attempt = 0; ; attempt++) {
            start = watchdog.waitPolicy().pause(attempt, start, watchdog, channel, consumerPoint, producerPoint);
            long w = (long) WORD.getAcquire(words, word);
            if ((w & READY_BIT) != 0) {
                return w;
            }
        }
    }
}
