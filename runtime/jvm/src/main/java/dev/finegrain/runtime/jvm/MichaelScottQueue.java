package dev.finegrain.runtime.jvm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Michael and Scott's lock-free FIFO queue ("Simple, fast, and practical non-blocking and blocking concurrent queue
 * algorithms", 1996): a linked list with a dummy head node; put links a node after the last one with a CAS on its
 * {@code next} and then swings {@code tail} (any thread that finds {@code tail} lagging swings it first, so no put
 * waits on a stalled one); take swings {@code head} to the first node's successor with a CAS and returns that node's
 * item. Lock-free: a CAS fails only because another operation succeeded.
 *
 * <p>Why no ABA. A CAS on a C queue compares addresses, and a node freed and reused at the same address while a slow
 * thread still holds it makes a stale CAS succeed (the ABA problem); C implementations add counted pointers or hazard
 * pointers (seed 002's remedy) to prevent it. On the JVM a node is never freed while any thread can still reach it:
 * the garbage collector reclaims it only once no reference is left, so an address a thread holds is never reused
 * under it, and comparing references is enough. Without a collector this class would need hazard pointers or
 * epoch-based reclamation.
 */
public final class MichaelScottQueue implements ReadyStructure {
    private static final VarHandle HEAD;
    private static final VarHandle TAIL;
    private static final VarHandle NEXT;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(MichaelScottQueue.class, "head", Node.class);
            TAIL = lookup.findVarHandle(MichaelScottQueue.class, "tail", Node.class);
            NEXT = lookup.findVarHandle(Node.class, "next", Node.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final class Node {
        final int item;
        @SuppressWarnings("unused") // through NEXT
        volatile Node next;

        Node(int item) {
            this.item = item;
        }
    }

    @SuppressWarnings("unused") // through HEAD
    private volatile Node head;
    @SuppressWarnings("unused") // through TAIL
    private volatile Node tail;

    public MichaelScottQueue() {
        Node dummy = new Node(EMPTY);
        head = dummy;
        tail = dummy;
    }

    @Override
    public void put(int worker, int item) {
        Node node = new Node(item);
        while (true) {
            Node last = (Node) TAIL.getVolatile(this);
            Node next = (Node) NEXT.getVolatile(last);
            if (next != null) {
                TAIL.compareAndSet(this, last, next);   // help a put that linked but did not swing the tail yet
            } else if (NEXT.compareAndSet(last, null, node)) {
                TAIL.compareAndSet(this, last, node);   // may fail: someone helped
                return;
            }
        }
    }

    @Override
    public int take(int worker) {
        while (true) {
            Node first = (Node) HEAD.getVolatile(this);
            Node last = (Node) TAIL.getVolatile(this);
            Node next = (Node) NEXT.getVolatile(first);
            if (next == null) {
                return EMPTY;
            }
            if (first == last) {
                TAIL.compareAndSet(this, last, next);   // the tail lags behind a linked node: swing it, then retry
            } else if (HEAD.compareAndSet(this, first, next)) {
                return next.item;
            }
        }
    }
}
