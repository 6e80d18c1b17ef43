package dev.finegrain.runtime.jvm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Stuart and Owens' fetch-and-add ticket mutex as a channel token: each word is a pair (next ticket, ticket served). A
 * producer holds ticket 0 from the start (next = 1, served = 0) and {@link #release releases} it after writing
 * (served = 1); a consumer {@link #take takes} a ticket with one fetch-and-add and waits until it is served, and a
 * SHARED channel's consumer {@link #restore restores} the token by serving the next ticket. Consumers are served in
 * the order they drew tickets (FIFO, no starvation), and each draws with one atomic, whatever the contention.
 *
 * <p>Ordering: release and restore are release stores of {@code served}; a taker returns only after an acquire load
 * saw its ticket served, so it sees every write the producer (and each earlier consumer) made before serving it.
 */
public final class TicketTokens {
    private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(int[].class);

    private TicketTokens() {
    }

    /** {@code words} tokens, each held by its producer (ticket 0 drawn, none served). */
    public static int[] createHeld(int words) {
        int[] pairs = new int[2 * words];
        for (int w = 0; w < words; w++) {
            pairs[2 * w] = 1;
        }
        return pairs;
    }

    /** The producer serves the next ticket after writing. */
    public static void release(int[] pairs, int word) {
        serveNext(pairs, word);
    }

    /** Draws a ticket (fetch-and-add on next) and waits, as the run's wait policy has it, until it is served. */
    public static void take(int[] pairs, int word, Watchdog watchdog, int channel, int consumerPoint, int producerPoint) {
        int ticket = (int) WORDS.getAndAdd(pairs, 2 * word, 1);
        long start = Watchdog.CLOCK_NOT_STARTED;
        for (long attempt = 0; (int) WORDS.getAcquire(pairs, 2 * word + 1) != ticket; attempt++) {
            start = watchdog.waitPolicy().pause(attempt, start, watchdog, channel, consumerPoint, producerPoint);
        }
    }

    /** A SHARED channel's consumer hands the token to the next ticket after reading. */
    public static void restore(int[] pairs, int word) {
        serveNext(pairs, word);
    }

    /** Only the holder serves, so a plain read of served and a release store of its successor suffice. */
    private static void serveNext(int[] pairs, int word) {
        WORDS.setRelease(pairs, 2 * word + 1, (int) WORDS.getOpaque(pairs, 2 * word + 1) + 1);
    }
}
