package dev.finegrain.runtime.jvm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Stuart and Owens' fetch-and-add (FA) mutex (their Algorithm 3, after Mellor-Crummey and Scott's ticket lock): lock
 * draws a ticket with one fetch-and-add and polls {@code turn} until it is the ticket's; unlock advances {@code turn}
 * with a plain store, since only the holder writes it. One atomic per lock whatever the contention, and waiters are
 * served in the order they drew (fair). The paper polls with backoff; here the poll pauses as the wait policy has it.
 *
 * <p>Ordering: the holder's unlock is a release store and the poll an acquire load, so the next holder sees every
 * write the last one made inside. {@code ticket} and {@code turn} sit on separate cache lines, so drawing a ticket
 * does not disturb the pollers' line.
 */
public final class FetchAddMutex implements Exclusion {
    private static final VarHandle TICKET;
    private static final VarHandle TURN;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            TICKET = lookup.findVarHandle(FetchAddMutex.class, "ticket", int.class);
            TURN = lookup.findVarHandle(FetchAddMutex.class, "turn", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Watchdog watchdog;
    @SuppressWarnings("unused") // through TICKET
    private volatile int ticket;
    @SuppressWarnings("unused") // keeps turn off ticket's cache line
    private long pad0, pad1, pad2, pad3, pad4, pad5, pad6, pad7;
    @SuppressWarnings("unused") // through TURN
    private volatile int turn;

    public FetchAddMutex(Watchdog watchdog) {
        this.watchdog = watchdog;
    }

    @Override
    public void acquire(int worker) {
        int mine = (int) TICKET.getAndAdd(this, 1);
        long start = Watchdog.CLOCK_NOT_STARTED;
        for (long attempt = 0; (int) TURN.getAcquire(this) != mine; attempt++) {
            start = watchdog.waitPolicy().pause(attempt, start, watchdog, WAIT_CHANNEL, worker, -1);
        }
    }

    @Override
    public void release(int worker) {
        TURN.setRelease(this, (int) TURN.getOpaque(this) + 1);
    }

    @Override
    public int capacity() {
        return 1;
    }
}
