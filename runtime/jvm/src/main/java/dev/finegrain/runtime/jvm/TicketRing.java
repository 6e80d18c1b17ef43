package dev.finegrain.runtime.jvm;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The GPU's ready queue on threads: a ring of slots with a head and a tail counter, as GPU task queues are built. A
 * producer draws a slot with one fetch-and-add on the tail and fills it; a consumer claims the next slot with a
 * compare-and-set on the head once the tail has passed it, and waits for its producer to fill it (the moment between
 * the two is the only wait, so the ring is not lock-free: a producer descheduled between drawing and filling holds
 * up the one consumer of its slot). Slots are never reused, so it holds at most {@code capacity} items over its
 * whole life, which a dynamic-dataflow run knows: one put per tile. No ABA: a slot goes from empty to full once, and
 * the counters only grow.
 */
public final class TicketRing implements ReadyStructure {
    private final AtomicInteger head = new AtomicInteger();
    private final AtomicInteger tail = new AtomicInteger();
    /** Each slot's item plus one: 0 is a slot drawn but not yet filled. */
    private final AtomicIntegerArray slots;

    public TicketRing(int capacity) {
        slots = new AtomicIntegerArray(capacity);
    }

    @Override
    public void put(int worker, int item) {
        int slot = tail.getAndIncrement();
        if (slot >= slots.length()) {
            throw new IllegalStateException("ticket ring of " + slots.length() + " slots is full");
        }
        slots.set(slot, item + 1);
    }

    @Override
    public int take(int worker) {
        while (true) {
            int slot = head.get();
            if (slot >= tail.get()) {
                return EMPTY;
            }
            if (head.compareAndSet(slot, slot + 1)) {
                int item;
                while ((item = slots.get(slot)) == 0) {
                    Thread.onSpinWait();   // its producer has drawn the slot and is about to fill it
                }
                return item - 1;
            }
        }
    }
}
