package dev.finegrain.runtime.jvm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The acquire/release flag: one int per sync word, 0 = not ready, set with release, read with acquire (VarHandle).
 *
 * <p>Ordering: every plain write a producer makes before {@link #publish} happens-before every read a consumer
 * makes after {@link #await} on the same word returns (release store, acquire load of the same element). A word
 * is published once; arrays come fresh from {@link #create} for each run.
 */
public final class ReadyFlags {
    private static final VarHandle FLAG = MethodHandles.arrayElementVarHandle(int[].class);
    private static final int NOT_READY = 0;
    private static final int READY = 1;

    private ReadyFlags() {
    }

    /** {@code words} flags, none ready. */
    public static int[] create(int words) {
        return new int[words];
    }

    /** Marks the word ready with a release store, after the producer's data writes. */
    public static void publish(int[] flags, int word) {
        FLAG.setRelease(flags, word, READY);
    }

    /**
     * Returns once the word is ready (acquire load); until then spins, yields, then parks ({@link WaitPolicy}),
     * re-reading the word with acquire after every pause.
     */
    public static void await(int[] flags, int word, Watchdog watchdog, int channel, int consumerPoint,
            int producerPoint) {
        if ((int) FLAG.getAcquire(flags, word) == NOT_READY) {
            awaitSlowly(flags, word, watchdog, channel, consumerPoint, producerPoint);
        }
    }

    private static void awaitSlowly(int[] flags, int word, Watchdog watchdog, int channel, int consumerPoint,
            int producerPoint) {
        long start = Watchdog.CLOCK_NOT_STARTED;
        for (long attempt = 0; (int) FLAG.getAcquire(flags, word) == NOT_READY; attempt++) {
            start = watchdog.waitPolicy().pause(attempt, start, watchdog, channel, consumerPoint, producerPoint);
        }
    }
}
