package dev.finegrain.runtime.jvm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Stuart and Owens' spin-lock semaphore (their Algorithm 4), built, as on a GPU, from swaps alone: the word holds
 * {@code free + 1}, and 0 while some worker holds it locked to update it. Wait swaps in 0: an old value above 1 means
 * a free slot, taken by storing {@code old - 1}; exactly 1 means full, put back; 0 means another worker is updating,
 * try again. Post swaps in 0 until it gets a non-zero value and stores {@code old + 1}. Both may spin, and both use
 * several atomics per operation, which is what the paper's sleeping semaphore ({@link SleepingSemaphore}) avoids.
 * Failed attempts pause as the wait policy has it (backoff is the paper's variant for wait). The paper's post never
 * backs off; here it pauses as wait does, since a thread descheduled while it holds the word at 0 would otherwise be
 * spun against for a whole scheduler slice by every poster (a GPU block is never descheduled).
 */
public final class SpinSemaphore implements Exclusion {
    private static final VarHandle WORD;

    static {
        try {
            WORD = MethodHandles.lookup().findVarHandle(SpinSemaphore.class, "word", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int capacity;
    private final Watchdog watchdog;
    @SuppressWarnings("unused") // through WORD
    private volatile int word;

    public SpinSemaphore(int capacity, Watchdog watchdog) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a semaphore's capacity must be at least 1, was " + capacity);
        }
        this.capacity = capacity;
        this.watchdog = watchdog;
        this.word = capacity + 1;
    }

    @Override
    public void acquire(int worker) {
        long start = Watchdog.CLOCK_NOT_STARTED;
        for (long attempt = 0; ; attempt++) {
            int old = (int) WORD.getAndSet(this, 0);
            if (old > 1) {
                WORD.setVolatile(this, old - 1);
                return;
            }
            if (old == 1) {
                WORD.setVolatile(this, 1);
            }
            start = watchdog.waitPolicy().pause(attempt, start, watchdog, WAIT_CHANNEL, worker, -1);
        }
    }

    @Override
    public void release(int worker) {
        long start = Watchdog.CLOCK_NOT_STARTED;
        for (long attempt = 0; ; attempt++) {
            int old = (int) WORD.getAndSet(this, 0);
            if (old > 0) {
                WORD.setVolatile(this, old + 1);
                return;
            }
            start = watchdog.waitPolicy().pause(attempt, start, watchdog, WAIT_CHANNEL, worker, -1);
        }
    }

    @Override
    public int capacity() {
        return capacity;
    }
}
