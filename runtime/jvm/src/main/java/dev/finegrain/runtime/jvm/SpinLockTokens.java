package dev.finegrain.runtime.jvm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * Seed 001 Listing 14: CAS mutex words. A producer holds its token from the start and releases it after writing;
 * a consumer takes it with CAS(0 -> 1) and, for a SHARED channel, restores it (sets 0 again) after reading.
 *
 * <p>Ordering: {@link #release} and {@link #restore} are release stores, {@link #take} is a volatile CAS (at least
 * acquire). So a consumer that returns from {@code take} sees the producer's writes made before {@code release},
 * and, through each consumer's restore, so does every later consumer of a SHARED token. The CAS admits one owner
 * at a time: between a {@code take} and its {@code restore} no other {@code take} of the word returns.
 */
public final class SpinLockTokens {
    private static final VarHandle MUTEX = MethodHandles.arrayElementVarHandle(int[].class);
    private static final int FREE = 0;
    private static final int HELD = 1;

    private SpinLockTokens() {
    }

    /** {@code words} tokens, all held by their producers. */
    public static int[] createHeld(int words) {
        int[] mutex = new int[words];
        Arrays.fill(mutex, HELD);
        return mutex;
    }

    /** The producer hands over its token after writing (release store). */
    public static void release(int[] mutex, int word) {
        MUTEX.setRelease(mutex, word, FREE);
    }

    /**
     * Takes the token with CAS(0 -> 1); while someone else holds it, pauses (spin, yield, then park: {@link
     * WaitPolicy}) and tries again, test then test-and-set.
     */
    public static void take(int[] mutex, int word, Watchdog watchdog, int channel, int consumerPoint,
            int producerPoint) {
        if (!MUTEX.compareAndSet(mutex, word, FREE, HELD)) {
            awaitSlowly(mutex, word, watchdog, channel, consumerPoint, producerPoint);
        }
    }

    /**
     * Takes the token by test-and-set alone: every look is a CAS(0 -> 1), which claims the word's cache line for
     * writing even while the token is held (the mutex Stuart and Owens measure against test-and-test-and-set).
     */
    public static void takeBySwap(int[] mutex, int word, Watchdog watchdog, int channel, int consumerPoint,
            int producerPoint) {
        long start = Watchdog.CLOCK_NOT_STARTED;
        for (long attempt = 0; !MUTEX.compareAndSet(mutex, word, FREE, HELD); attempt++) {
            start = watchdog.waitPolicy().pause(attempt, start, watchdog, channel, consumerPoint, producerPoint);
        }
    }

    /** A SHARED channel's consumer gives the token back after reading, for the next consumer (release store). */
    public static void restore(int[] mutex, int word) {
        MUTEX.setRelease(mutex, word, FREE);
    }

    private static void awaitSlowly(int[] mutex, int word, Watchdog watchdog, int channel, int consumerPoint,
            int producerPoint) {
        long start = Watchdog.CLOCK_NOT_STARTED;
        for (long attempt = 0; ; attempt++) {
            start = watchdog.waitPolicy().pause(attempt, start, watchdog, channel, consumerPoint, producerPoint);
            if ((int) MUTEX.getOpaque(mutex, word) == FREE && MUTEX.compareAndSet(mutex, word, FREE, HELD)) {
                return;
            }
        }
    }
}
