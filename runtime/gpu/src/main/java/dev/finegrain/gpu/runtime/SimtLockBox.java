package dev.finegrain.gpu.runtime;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * The lock box of one SM (Tullsen et al., "Supporting fine-grained synchronization on a simultaneous multithreading
 * processor", HPCA 1999), on profiles with {@code feature.lockBox}. A lane whose {@code LBACQ} finds its lock held is
 * suspended in hardware: it stops issuing and waits in the lock's FIFO queue. {@code LBREL} hands the lock straight to
 * the oldest waiter, which stays suspended for the restart penalty ({@link SimtProfile#lockBoxRestartCycles()})
 * and then issues again at the instruction after its LBACQ; with no waiter the lock becomes free.
 *
 * <p>Locks are keyed by the physical shared byte address (the block's window base plus the address), so there is no
 * aliasing. Every lock starts held, by no thread (a token its producer will release); a block placed in a window
 * finds every lock of that window held again. The model remembers who holds each lock only to explain deadlocks.
 */
public final class SimtLockBox {
    private final int restartCycles;
    /** Locks that left their initial state (released, taken or waited on), by physical byte address. */
    private final Map<Integer, Lock> locks = new HashMap<>();
    private final PriorityQueue<Wake> wakes = new PriorityQueue<>(
            Comparator.comparingLong(Wake::cycle).thenComparingLong(Wake::order));
    private long wakeOrder;

    /** A lock: held or free, by whom (null while its initial token holds it), and who waits for it. */
    private static final class Lock {
        boolean held = true;
        SimtThread holder;
        final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
    }

    private record Waiter(SimtWarp warp, int lane) {
    }

    /** A granted lane issues again at {@code cycle}; {@code order} keeps grants of one cycle in grant order. */
    private record Wake(long cycle, long order, SimtWarp warp, int lane) {
    }

    /** What a deadlock report says about a lock: held or not, its holder (null: its initial token), its waiters. */
    public record LockState(boolean held, SimtThread holder, int waiters) {
    }

    SimtLockBox(int restartCycles) {
        this.restartCycles = restartCycles;
    }

    /**
     * LBACQ by {@code lane} of {@code warp} on block-relative byte address {@code address}: true when the lock was
     * free and the lane took it; false when it is held, and the lane is queued (the caller suspends it).
     */
    @TruffleBoundary
    public boolean acquire(SimtWarp warp, int lane, int address) {
        Lock lock = locks.computeIfAbsent(warp.block().sharedBase() + address, unused -> new Lock());
        if (!lock.held) {
            lock.held = true;
            lock.holder = warp.thread(lane);
            return true;
        }
        lock.waiters.addLast(new Waiter(warp, lane));
        return false;
    }

    /**
     * LBREL by {@code lane} of {@code warp} at {@code cycle}: the oldest waiter takes the lock and issues again
     * {@link SimtProfile#lockBoxRestartCycles()} later (true), or, with no waiter, the lock becomes free (false). The
     * hardware does not check who releases: a producer releases the token it never acquired.
     */
    @TruffleBoundary
    public boolean release(SimtWarp warp, int lane, int address, long cycle) {
        Lock lock = locks.computeIfAbsent(warp.block().sharedBase() + address, unused -> new Lock());
        Waiter next = lock.waiters.pollFirst();
        if (next == null) {
            lock.held = false;
            lock.holder = null;
            return false;
        }
        lock.held = true;
        lock.holder = next.warp.thread(next.lane);
        long restart = cycle + restartCycles;
        next.warp.lockBoxGranted(next.lane, restart);
        wakes.add(new Wake(restart, wakeOrder++, next.warp, next.lane));
        return true;
    }

    /** The first cycle at which a granted lane issues again, or {@code Long.MAX_VALUE}. */
    long nextWake() {
        Wake first = wakes.peek();
        return first == null ? Long.MAX_VALUE : first.cycle;
    }

    /** Lets the granted lanes whose restart penalty has passed by {@code cycle} issue again, a warp's lanes together. */
    @TruffleBoundary
    void wake(long cycle) {
        Map<SimtWarp, Integer> woken = new LinkedHashMap<>();
        while (!wakes.isEmpty() && wakes.peek().cycle <= cycle) {
            Wake wake = wakes.poll();
            woken.merge(wake.warp, 1 << wake.lane, (a, b) -> a | b);
        }
        woken.forEach(SimtWarp::resumeFromLockBox);
    }

    /** A block was placed in the window {@code [base, base + bytes)}: its locks start held again. */
    @TruffleBoundary
    void resetWindow(int base, int bytes) {
        Iterator<Integer> addresses = locks.keySet().iterator();
        while (addresses.hasNext()) {
            int address = addresses.next();
            if (address >= base && address - base < bytes) {
                addresses.remove();
            }
        }
    }

    /** The lock of block-relative {@code address} as {@code block} sees it. */
    @TruffleBoundary
    public LockState state(SimtBlock block, int address) {
        Lock lock = locks.get(block.sharedBase() + address);
        return lock == null ? new LockState(true, null, 0) : new LockState(lock.held, lock.holder, lock.waiters.size());
    }

    /** The block-relative addresses of the locks {@code thread} of {@code block} holds, in address order. */
    @TruffleBoundary
    public List<Integer> heldBy(SimtBlock block, SimtThread thread) {
        List<Integer> held = new ArrayList<>();
        locks.forEach((address, lock) -> {
            if (lock.held && thread.equals(lock.holder) && address >= block.sharedBase()) {
                held.add(address - block.sharedBase());
            }
        });
        held.sort(null);
        return held;
    }
}
