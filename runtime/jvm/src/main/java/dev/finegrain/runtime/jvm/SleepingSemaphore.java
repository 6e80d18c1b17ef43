package dev.finegrain.runtime.jvm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Stuart and Owens' sleeping semaphore (their Algorithm 5), a fetch-and-add semaphore: wait increments {@code count};
 * if the old count was below the capacity the worker is in (one atomic, no wait), else it draws a ticket and polls
 * {@code turn} until it passes the ticket. Post decrements {@code count}; if the old count was above the capacity a
 * waiter exists, and post advances {@code turn} to let the oldest in. At most two atomics per operation, no spinning
 * in post, and waiters enter in the order they drew tickets. "Sleeping" is the paper's word for polling a plain
 * (volatile) word rather than retrying an atomic; the poll pauses as the wait policy has it.
 *
 * <p>Why it never admits too many: {@code count} is the number inside plus the number waiting, and {@code turn} is
 * advanced once per post that saw a waiter, so tickets admitted never exceed slots freed. A post that runs between a
 * waiter's count increment and its ticket draw advances {@code turn} first; the ticket drawn after it is then already
 * passed, which admits that waiter into the slot the post freed.
 */
public final class SleepingSemaphore implements Exclusion {
    private static final VarHandle COUNT;
    private static final VarHandle TICKET;
    private static final VarHandle TURN;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            COUNT = lookup.findVarHandle(SleepingSemaphore.class, "count", int.class);
            TICKET = lookup.findVarHandle(SleepingSemaphore.class, "ticket", int.class);
            TURN = lookup.findVarHandle(SleepingSemaphore.class, "turn", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int capacity;
    private final Watchdog watchdog;
    @SuppressWarnings("unused") // through COUNT
    private volatile int count;
    @SuppressWarnings("unused") // through TICKET
    private volatile int ticket;
    @SuppressWarnings("unused") // keeps turn, which waiters poll, off the line the atomics hit
    private long pad0, pad1, pad2, pad3, pad4, pad5, pad6, pad7;
    @SuppressWarnings("unused") // through TURN
    private volatile int turn;

    public SleepingSemaphore(int capacity, Watchdog watchdog) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a semaphore's capacity must be at least 1, was " + capacity);
        }
        this.capacity = capacity;
        this.watchdog = watchdog;
    }

    @Override
    public void acquire(int worker) {
        if ((int) COUNT.getAndAdd(this, 1) < capacity) {
            return;
        }
        int mine = (int) TICKET.getAndAdd(this, 1);
        long start = Watchdog.CLOCK_NOT_STARTED;
        for (long attempt = 0; (int) TURN.getAcquire(this) - mine <= 0; attempt++) {
            start = watchdog.waitPolicy().pause(attempt, start, watchdog, WAIT_CHANNEL, worker, -1);
        }
    }

    @Override
    public void release(int worker) {
        if ((int) COUNT.getAndAdd(this, -1) > capacity) {
            TURN.getAndAdd(this, 1);
        }
    }

    @Override
    public int capacity() {
        return capacity;
    }
}
