package dev.finegrain.runtime.jvm;

import java.util.concurrent.locks.ReentrantLock;

/**
 * The coarse-grained answer: one FIFO ring of ints under one lock. Simple and obviously correct (every operation is a
 * critical section), and every worker serialises on the lock, which is what the other two forms avoid. The ring
 * doubles when full.
 */
public final class LockedReadyQueue implements ReadyStructure {
    private final ReentrantLock lock = new ReentrantLock();
    private int[] ring = new int[64];
    private int head;
    private int size;

    @Override
    public void put(int worker, int item) {
        lock.lock();
        try {
            if (size == ring.length) {
                int[] bigger = new int[2 * ring.length];
                for (int k = 0; k < size; k++) {
                    bigger[k] = ring[(head + k) % ring.length];
                }
                ring = bigger;
                head = 0;
            }
            ring[(head + size) % ring.length] = item;
            size++;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int take(int worker) {
        lock.lock();
        try {
            if (size == 0) {
                return EMPTY;
            }
            int item = ring[head];
            head = (head + 1) % ring.length;
            size--;
            return item;
        } finally {
            lock.unlock();
        }
    }
}
