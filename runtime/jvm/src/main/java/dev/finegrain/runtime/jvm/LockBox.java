package dev.finegrain.runtime.jvm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * Tullsen et al.'s lock-box ("Supporting fine-grained synchronization on a simultaneous multithreading processor",
 * HPCA 1999) on the JVM: lock words whose waiters are suspended instead of spinning, and whose release hands the
 * lock straight to the oldest waiter instead of setting it free for all to contend. The token of a producer/consumer
 * channel, used like {@link SpinLockTokens}: every word starts held by its producer, which {@link #release releases}
 * it after writing; a consumer {@link #take takes} it, and a SHARED channel's consumer {@link #restore restores} it
 * after reading, for the next consumer.
 *
 * <p>State. A word is FREE, HELD, or QUEUED (held, with waiters). Without waiters a take is one CAS (FREE -> HELD) and
 * a release one CAS (HELD -> FREE). Every other step goes through the word's chunk, which holds the FIFO queue of each
 * of its {@link #CHUNK} words (a list of waiter nodes) and is the monitor guarding them. A take that finds the word
 * held enters the monitor, CASes HELD -> QUEUED (or finds QUEUED), appends its node, leaves, and parks until its node
 * is granted. A release whose CAS fails, the word being QUEUED, enters the monitor, unlinks the head node, leaves the
 * word QUEUED if more nodes wait and HELD if not, marks the node granted (volatile store) and unparks its thread.
 *
 * <p>Why it is a FIFO lock. Invariant, under the monitor: a word is QUEUED exactly when its queue is not empty. Moves
 * into and out of QUEUED happen only under the monitor; outside it only the two CASes above happen, and neither
 * touches a QUEUED word. So a word is never FREE while someone waits: a taker that arrives meanwhile fails its CAS
 * and queues behind the waiters (no barging), each release passes the lock from its holder to the oldest waiter
 * (held throughout: mutual exclusion), and a waiter is granted after exactly the waiters queued before it, so it
 * starves only if some holder never releases. A fast release racing a taker that queues is decided by their atomic
 * accesses to the word: if the release's CAS comes first, the taker reads FREE under the monitor and takes the word
 * with a CAS; if the taker's CAS to QUEUED comes first, the release's CAS fails and it waits for the monitor, which the
 * taker leaves only once its node is in the queue.
 *
 * <p>Ordering. A take that returns either read FREE in its CAS, stored by a release's CAS or (empty queue) by the
 * monitor's volatile store, both after the releaser's writes; or read its node's grant, a volatile store made after
 * the releaser's writes. A volatile read that sees a volatile write happens after it, so a consumer sees every write
 * its producer made before {@code release}, and through each consumer's {@code restore} so does every later consumer
 * of a SHARED token. No wakeup is lost: the grant is stored before the unpark, the waiter reads it before every park,
 * and an unpark that comes before the park leaves a permit, so that park returns at once.
 *
 * <p>Waiting. A waiter never spins: it parks, for at most a slice ({@link ParkingFlags#PARK_SLICE_NANOS}), and after
 * each wakeup reads its grant and then {@link Watchdog#check checks} the watchdog, so it notices a stall declared by
 * any waiter of the run. On a stall it leaves consistently before rethrowing: under the monitor, a node not yet
 * granted is unlinked (the word goes back to HELD if the queue emptied), and a node granted meanwhile passes the lock
 * on to the next waiter exactly as a release does, so a handed-over lock is never lost with an abandoned wait.
 *
 * <p>Memory. Besides one int per word, chunks are made by the first waiter that queues in them (a CAS on the chunk's
 * slot, as {@link ParkingFlags} makes its stacks), so at 4096 x 4096 words a run without waiters allocates 64 MB of
 * state plus 256 KB of chunk slots. A release that found QUEUED reads the chunk after its failed CAS, whose read of
 * QUEUED comes after the waiter's CAS that made the chunk, so it finds it. Nodes are made only by takes that queue.
 */
public final class LockBox {
    /**
     * Words per chunk of queues, and so per monitor: a quarter of {@link ParkingFlags#CHUNK}, since here the words of
     * a chunk share a monitor, not just an allocation; the chunk slots still take 1/256 of the state's memory.
     */
    static final int CHUNK = 256;

    private static final VarHandle STATE = MethodHandles.arrayElementVarHandle(int[].class);
    private static final VarHandle CHUNKS = MethodHandles.arrayElementVarHandle(Chunk[].class);
    private static final int FREE = 0;
    private static final int HELD = 1;
    private static final int QUEUED = 2;

    private final int[] state;
    /** Chunk c holds the queues of words [c * CHUNK, (c + 1) * CHUNK), or is null while no taker queued there. */
    private final Chunk[] chunks;
    private final long parkSliceNanos;

    /** {@code words} lock words, all held by their producers. */
    public LockBox(int words) {
        this(words, ParkingFlags.PARK_SLICE_NANOS);
    }

    /** For tests that make waiters look at the watchdog often ({@code parkSliceNanos} small). */
    LockBox(int words, long parkSliceNanos) {
        this.state = new int[words];
        Arrays.fill(state, HELD);
        this.chunks = new Chunk[Math.ceilDiv(words, CHUNK)];
        this.parkSliceNanos = parkSliceNanos;
    }

    /** The producer hands over its word after writing: to the oldest waiter, or free if none waits. */
    public void release(int word) {
        unlock(word);
    }

    /**
     * Takes the word: one CAS (FREE -> HELD) if it is free; otherwise queues behind the word's waiters and parks until
     * a release hands the word over.
     *
     * @throws StallException when the watchdog declares a stall while this take waits
     */
    public void take(int word, Watchdog watchdog, int channel, int consumerPoint, int producerPoint) {
        if (!STATE.compareAndSet(state, word, FREE, HELD)) {
            queueAndPark(word, watchdog, channel, consumerPoint, producerPoint);
        }
    }

    /** A SHARED channel's consumer gives the word back after reading: to the oldest waiter, or free if none waits. */
    public void restore(int word) {
        unlock(word);
    }

    private void unlock(int word) {
        if (!STATE.compareAndSet(state, word, HELD, FREE)) {
            handOff(word);
        }
    }

    private void handOff(int word) {
        Chunk chunk = (Chunk) CHUNKS.getVolatile(chunks, word / CHUNK);
        if (chunk == null) {
            throw new IllegalStateException("lock word " + word + " released but not held");
        }
        Waiter next;
        synchronized (chunk) {
            next = passOn(chunk, word);
        }
        if (next != null) {
            LockSupport.unpark(next.thread);
        }
    }

    private void queueAndPark(int word, Watchdog watchdog, int channel, int consumerPoint, int producerPoint) {
        Chunk chunk = chunk(word / CHUNK);
        int slot = word % CHUNK;
        Waiter me = new Waiter(Thread.currentThread());
        synchronized (chunk) {
            for (int s; (s = (int) STATE.getVolatile(state, word)) != QUEUED; ) {
                if (s == FREE && STATE.compareAndSet(state, word, FREE, HELD)) {
                    return;
                }
                if (s == HELD && STATE.compareAndSet(state, word, HELD, QUEUED)) {
                    break;
                }
            }
            if (chunk.tails[slot] == null) {
                chunk.heads[slot] = me;
            } else {
                chunk.tails[slot].next = me;
            }
            chunk.tails[slot] = me;
        }
        long start = System.nanoTime();
        while (!me.granted) {
            LockSupport.parkNanos(this, parkSliceNanos);
            if (me.granted) {
                return;
            }
            try {
                watchdog.check(start, channel, consumerPoint, producerPoint);
            } catch (RuntimeException | Error e) {
                leave(chunk, word, me);
                throw e;
            }
        }
    }

    /**
     * Under the chunk's monitor: the word's oldest waiter is granted the word, which stays QUEUED if others wait and
     * becomes HELD if not; with no waiter the word becomes FREE. Returns the granted node, to unpark outside.
     */
    private Waiter passOn(Chunk chunk, int word) {
        int slot = word % CHUNK;
        Waiter head = chunk.heads[slot];
        if (head == null) {
            STATE.setVolatile(state, word, FREE);
            return null;
        }
        chunk.heads[slot] = head.next;
        if (head.next == null) {
            chunk.tails[slot] = null;
            STATE.setVolatile(state, word, HELD);
        }
        head.next = null;
        head.granted = true;
        return head;
    }

    /** A waiter gives up (a stall): unlinks its node, or, if it was granted the word meanwhile, passes the word on. */
    private void leave(Chunk chunk, int word, Waiter me) {
        Waiter next = null;
        synchronized (chunk) {
            if (me.granted) {
                next = passOn(chunk, word);
            } else {
                int slot = word % CHUNK;
                Waiter before = null;
                for (Waiter w = chunk.heads[slot]; w != me; w = w.next) {
                    before = w;
                }
                if (before == null) {
                    chunk.heads[slot] = me.next;
                } else {
                    before.next = me.next;
                }
                if (chunk.tails[slot] == me) {
                    chunk.tails[slot] = before;
                }
                if (chunk.heads[slot] == null) {
                    STATE.setVolatile(state, word, HELD);
                }
            }
        }
        if (next != null) {
            LockSupport.unpark(next.thread);
        }
    }

    /** Chunk {@code c} of the queues, made by whichever taker gets there first. */
    private Chunk chunk(int c) {
        Chunk chunk = (Chunk) CHUNKS.getVolatile(chunks, c);
        if (chunk != null) {
            return chunk;
        }
        Chunk made = new Chunk();
        Chunk found = (Chunk) CHUNKS.compareAndExchange(chunks, c, (Chunk) null, made);
        return found == null ? made : found;
    }

    /** How many takers wait on the word, for tests. */
    int waiters(int word) {
        Chunk chunk = (Chunk) CHUNKS.getVolatile(chunks, word / CHUNK);
        if (chunk == null) {
            return 0;
        }
        synchronized (chunk) {
            int n = 0;
            for (Waiter w = chunk.heads[word % CHUNK]; w != null; w = w.next) {
                n++;
            }
            return n;
        }
    }

    /** Whether the word is free (nobody holds it), for tests. */
    boolean free(int word) {
        return (int) STATE.getVolatile(state, word) == FREE;
    }

    /** The FIFO queues of {@link #CHUNK} words, and the monitor that guards them. */
    private static final class Chunk {
        final Waiter[] heads = new Waiter[CHUNK];
        final Waiter[] tails = new Waiter[CHUNK];
    }

    /** A queued taker; {@code next} is only read and written under its chunk's monitor. */
    private static final class Waiter {
        final Thread thread;
        Waiter next;
        volatile boolean granted;

        Waiter(Thread thread) {
            this.thread = thread;
        }
    }
}
