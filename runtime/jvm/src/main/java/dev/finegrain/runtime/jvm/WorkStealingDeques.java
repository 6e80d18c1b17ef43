package dev.finegrain.runtime.jvm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A Chase-Lev deque per worker (Chase and Lev, "Dynamic circular work-stealing deque", SPAA 2005; the memory orders of
 * Lê, Pop, Cohen and Zappa Nardelli, PPoPP 2013, here all volatile): a worker puts onto and takes from the bottom of its
 * own deque with no atomic read-modify-write except when one item is left, and an idle worker steals from the top of
 * the others' with one CAS on {@code top}. So a worker firing the consumers its own producers made ready touches only
 * its own cache lines, and contention is left to thieves (the lecture's point about spreading the hot spot).
 *
 * <p>Each deque is a circular array of ints that doubles when full; a thief that read the old array still finds its
 * item there, since the owner copies rather than overwrites. Why no ABA: {@code top} only grows (a 64-bit counter
 * never wraps), so a thief's CAS from {@code t} to {@code t + 1} cannot succeed against a different item at the same
 * index; and an old array a slow thief still reads is reclaimed by the garbage collector only once no thief holds it
 * (without a collector it would need hazard pointers or epochs).
 *
 * <p>{@link #take} pops the worker's own deque, then tries every other deque once, starting at the next worker; a steal
 * retries while its CAS loses to another thief or to the owner, so it returns {@link #EMPTY} only when it saw the
 * deque empty. A take can still return EMPTY while another deque gained an item after it looked there: callers loop.
 */
public final class WorkStealingDeques implements ReadyStructure {
    private final Deque[] deques;

    public WorkStealingDeques(int workers) {
        if (workers < 1) {
            throw new IllegalArgumentException("at least one worker, was " + workers);
        }
        deques = new Deque[workers];
        for (int w = 0; w < workers; w++) {
            deques[w] = new Deque();
        }
    }

    @Override
    public void put(int worker, int item) {
        deques[worker].push(item);
    }

    @Override
    public int take(int worker) {
        int item = deques[worker].pop();
        for (int k = 1; item == EMPTY && k < deques.length; k++) {
            item = deques[(worker + k) % deques.length].steal();
        }
        return item;
    }

    /** Worker {@code owner}'s own pop, for tests: its deque's bottom. */
    int pop(int owner) {
        return deques[owner].pop();
    }

    /** A steal from {@code victim}'s deque, for tests: its top. */
    int steal(int victim) {
        return deques[victim].steal();
    }

    static final class Deque {
        private static final VarHandle TOP;
        private static final VarHandle BOTTOM;
        private static final VarHandle ARRAY;
        private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(int[].class);

        static {
            try {
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                TOP = lookup.findVarHandle(Deque.class, "top", long.class);
                BOTTOM = lookup.findVarHandle(Deque.class, "bottom", long.class);
                ARRAY = lookup.findVarHandle(Deque.class, "array", int[].class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        @SuppressWarnings("unused") // through TOP
        private volatile long top;
        @SuppressWarnings("unused") // keeps bottom, the owner's, off the line thieves CAS
        private long pad0, pad1, pad2, pad3, pad4, pad5, pad6, pad7;
        @SuppressWarnings("unused") // through BOTTOM
        private volatile long bottom;
        @SuppressWarnings("unused") // through ARRAY
        private volatile int[] array = new int[32];

        /** The owner only. */
        void push(int item) {
            long b = (long) BOTTOM.getVolatile(this);
            long t = (long) TOP.getVolatile(this);
            int[] slots = (int[]) ARRAY.getVolatile(this);
            if (b - t >= slots.length) {
                int[] bigger = new int[2 * slots.length];
                for (long k = t; k < b; k++) {
                    bigger[(int) (k & (bigger.length - 1))] = (int) SLOTS.getVolatile(slots, (int) (k & (slots.length - 1)));
                }
                ARRAY.setVolatile(this, bigger);
                slots = bigger;
            }
            SLOTS.setVolatile(slots, (int) (b & (slots.length - 1)), item);
            BOTTOM.setVolatile(this, b + 1);
        }

        /** The owner only: the newest item, or EMPTY. */
        int pop() {
            long b = (long) BOTTOM.getVolatile(this) - 1;
            int[] slots = (int[]) ARRAY.getVolatile(this);
            BOTTOM.setVolatile(this, b);   // claim the bottom slot before looking at top (a volatile store, then load)
            long t = (long) TOP.getVolatile(this);
            if (t > b) {
                BOTTOM.setVolatile(this, b + 1);   // it was empty
                return EMPTY;
            }
            int item = (int) SLOTS.getVolatile(slots, (int) (b & (slots.length - 1)));
            if (t == b) {
                // the last item: race the thieves for it on top
                if (!TOP.compareAndSet(this, t, t + 1)) {
                    item = EMPTY;
                }
                BOTTOM.setVolatile(this, b + 1);
            }
            return item;
        }

        /** Any worker: the oldest item, or EMPTY when the deque was seen empty. */
        int steal() {
            while (true) {
                long t = (long) TOP.getVolatile(this);
                long b = (long) BOTTOM.getVolatile(this);
                if (t >= b) {
                    return EMPTY;
                }
                int[] slots = (int[]) ARRAY.getVolatile(this);
                int item = (int) SLOTS.getVolatile(slots, (int) (t & (slots.length - 1)));
                if (TOP.compareAndSet(this, t, t + 1)) {
                    return item;
                }
            }
        }
    }
}
