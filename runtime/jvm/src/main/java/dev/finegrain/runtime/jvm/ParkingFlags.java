package dev.finegrain.runtime.jvm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Seed 003's lock-box analogue: spin briefly, then park until the producer publishes and unparks.
 *
 * <p>Each word has a ready flag and a stack of parked waiters. Ordering: {@link #publish} is a volatile store,
 * {@link #await} returns only after reading the flag as set (acquire or volatile load), so a consumer sees every
 * plain write the producer made before publishing.
 *
 * <p>No lost wakeup. A waiter pushes itself on the word's stack (a volatile CAS), then re-reads the flag with a
 * volatile load, and parks only if it is still clear. The producer stores the flag with a volatile store, then
 * reads the stack with a volatile load, and unparks whoever it finds. Volatile accesses are totally ordered
 * (the JMM's synchronization order), so either the producer's stack read comes after the push, and it unparks the
 * waiter, or it comes before, and then the flag store (earlier still) comes before the waiter's re-read, which
 * sees the flag set and does not park. An unpark that lands before the park leaves a permit, so the park returns
 * at once. Parks are also bounded by a slice, to notice a stall declared by another waiter, and every wakeup
 * re-reads the flag, so spurious wakeups and stale entries (a waiter that left on a stall) are harmless.
 *
 * <p>The stacks live in chunks of {@link #CHUNK} words, each made by the first waiter that pushes into it (a volatile
 * CAS on the chunk's slot), so a run allocates stacks only where a consumer waited: one array of a reference per word
 * would be as large as the data (64 MB at 4096 x 4096), allocated every run, for a collector to trace. The argument
 * above holds with the chunk read added: a producer that reads no chunk read it before the waiter's CAS that made the
 * chunk, so after the flag store, and the waiter's re-read sees the flag set.
 */
public final class ParkingFlags {
    /**
     * Spins before a waiter parks. 256 pauses take roughly 10 to 35 microseconds on current x86 cores, about what
     * a park/unpark round trip costs in futex calls, so a waiter never spins much longer than blocking would cost
     * (the competitive spin-then-block bound), while a token that is a few cells behind is caught without a
     * system call.
     */
    public static final int SPINS_BEFORE_PARK = 256;
    /** How long a parked waiter sleeps before looking at the watchdog again. */
    static final long PARK_SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private static final VarHandle FLAG = MethodHandles.arrayElementVarHandle(int[].class);
    private static final VarHandle WAITERS = MethodHandles.arrayElementVarHandle(Waiter[].class);
    private static final VarHandle CHUNKS = MethodHandles.arrayElementVarHandle(Waiter[][].class);
    /** Words per chunk of waiter stacks. */
    static final int CHUNK = 1024;
    private static final int NOT_READY = 0;
    private static final int READY = 1;

    private final int[] flags;
    /** Chunk c holds the stacks of words [c * CHUNK, (c + 1) * CHUNK), or is null while no consumer waited there. */
    private final Waiter[][] waiters;
    private final int spinsBeforePark;
    private final long parkSliceNanos;

    /** {@code words} flags, none ready. */
    public ParkingFlags(int words) {
        this(words, SPINS_BEFORE_PARK, PARK_SLICE_NANOS);
    }

    /** For tests that force the parking path ({@code spinsBeforePark = 0}) or make a lost wakeup hang. */
    ParkingFlags(int words, int spinsBeforePark, long parkSliceNanos) {
        this.flags = new int[words];
        this.waiters = new Waiter[Math.ceilDiv(words, CHUNK)][];
        this.spinsBeforePark = spinsBeforePark;
        this.parkSliceNanos = parkSliceNanos;
    }

    /** Sets the word ready (volatile store), then unparks the waiters parked on it, if any. */
    public void publish(int word) {
        FLAG.setVolatile(flags, word, READY);
        Waiter[] chunk = (Waiter[]) CHUNKS.getVolatile(waiters, word / CHUNK);
        if (chunk != null && WAITERS.getVolatile(chunk, word % CHUNK) != null) {
            wakeWaiters(chunk, word % CHUNK);
        }
    }

    /** Returns once the word is ready: spins {@link #SPINS_BEFORE_PARK} times, then parks. */
    public void await(int word, Watchdog watchdog, int channel, int consumerPoint, int producerPoint) {
        if ((int) FLAG.getAcquire(flags, word) == NOT_READY) {
            spinThenPark(word, watchdog, channel, consumerPoint, producerPoint);
        }
    }

    private static void wakeWaiters(Waiter[] chunk, int slot) {
        for (Waiter w = (Waiter) WAITERS.getAndSet(chunk, slot, null); w != null; w = w.next) {
            LockSupport.unpark(w.thread);
        }
    }

    private void spinThenPark(int word, Watchdog watchdog, int channel, int consumerPoint, int producerPoint) {
        for (int spins = 0; spins < spinsBeforePark; spins++) {
            Thread.onSpinWait();
            if ((int) FLAG.getAcquire(flags, word) != NOT_READY) {
                return;
            }
        }
        long start = System.nanoTime();
        Waiter me = new Waiter(Thread.currentThread());
        Waiter[] chunk = chunk(word / CHUNK);
        int slot = word % CHUNK;
        do {
            me.next = (Waiter) WAITERS.getVolatile(chunk, slot);
        } while (!WAITERS.compareAndSet(chunk, slot, me.next, me));
        while ((int) FLAG.getVolatile(flags, word) == NOT_READY) {
            LockSupport.parkNanos(this, parkSliceNanos);
            if ((int) FLAG.getVolatile(flags, word) != NOT_READY) {
                return;
            }
            watchdog.check(start, channel, consumerPoint, producerPoint);
        }
    }

    /** Chunk {@code c} of the stacks, made by whichever waiter gets there first. */
    private Waiter[] chunk(int c) {
        Waiter[] chunk = (Waiter[]) CHUNKS.getVolatile(waiters, c);
        if (chunk != null) {
            return chunk;
        }
        Waiter[] made = new Waiter[CHUNK];
        Waiter[] found = (Waiter[]) CHUNKS.compareAndExchange(waiters, c, (Waiter[]) null, made);
        return found == null ? made : found;
    }

    /** A parked consumer; {@code next} is written before the CAS that publishes the node. */
    private static final class Waiter {
        final Thread thread;
        Waiter next;

        Waiter(Thread thread) {
            this.thread = thread;
        }
    }
}
