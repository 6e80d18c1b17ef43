package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.gpu.GpuMutexes;
import dev.finegrain.dsl.Mutex;

/**
 * The mapping's mutex ({@link GpuMutexes}) in the model ISA, for the spin-locks' token words in shared memory, through
 * {@link SharedAtomics} (so that on Fermi every atomic is the lock-bit loop nvcc emits there): test-and-set as Li et
 * al.'s listings, test-and-test-and-set with a load before the compare-and-swap, and the ticket mutex in one word.
 * The caller names the scratch predicates, as it does for the atomics.
 */
final class SimtMutex {

    private final SimtSyncContext cx;
    private final Mutex mutex;

    SimtMutex(SimtSyncContext cx) {
        this.cx = cx;
        this.mutex = cx.mapping.mutex();
    }

    /** A register holding what a producer's word starts as: 1, or a ticket word with ticket 0 drawn. */
    String held() {
        return mutex == Mutex.TICKET ? cx.asm.constant(GpuMutexes.TICKET) : cx.one;
    }

    /**
     * Sets {@code result} where {@code participants} holds and the mutex at {@code address} was free and is now this
     * lane's; false elsewhere. Scratch: {@code todo}, {@code took}, {@code P0}.
     */
    void tryTake(String address, String participants, String result, String todo, String took, String why) {
        String old = cx.asm.register();
        switch (mutex) {
            case TEST_AND_SET -> {
                cx.atomics.exchange(old, address, cx.one, participants, todo, took, why);
                cx.asm.emit("ISETP.EQ.AND " + result + ", PT, " + old + ", RZ, " + participants);
            }
            case TEST_AND_TEST_AND_SET -> {
                cx.polls.emit(participants, old, address, false, "look first");
                cx.asm.emit("ISETP.EQ.AND " + result + ", PT, " + old + ", RZ, " + participants);
                cx.atomics.exchange(old, address, cx.one, result, todo, took, why);
                cx.asm.emit("ISETP.EQ.AND " + result + ", PT, " + old + ", RZ, " + result);
            }
            case TICKET -> {
                String seen = cx.asm.register();
                String next = cx.asm.register();
                String served = cx.asm.register();
                cx.polls.emit(participants, seen, address, false, "free when next == served");
                cx.asm.emit("SHR.U32 " + next + ", " + seen + ", 0x10");
                cx.asm.emit("LOP.AND " + served + ", " + seen + ", " + SimtAssembler.immediate(GpuMutexes.SERVED));
                cx.asm.emit("ISETP.EQ.AND " + result + ", PT, " + next + ", " + served + ", " + participants);
                cx.asm.emit("IADD " + next + ", " + seen + ", " + SimtAssembler.immediate(GpuMutexes.TICKET));
                cx.atomics.compareAndSwap(old, address, seen, next, result, todo, took, result, why + ": draw the ticket served now");
                cx.asm.emit("ISETP.EQ.AND " + result + ", PT, " + old + ", " + seen + ", " + result);
            }
        }
    }

    /** Waits, in every active lane, until the lane holds the mutex at {@code address}. Scratch as {@link SharedAtomics#lock}. */
    void lock(String address, String todo, String took, String taken) {
        switch (mutex) {
            case TEST_AND_SET -> cx.atomics.lock(cx.asm.register(), address, cx.one, todo, took, taken);
            case TEST_AND_TEST_AND_SET -> cx.atomics.lookThenLock(cx.asm.register(), address, cx.one, todo, took, taken);
            case TICKET -> {
                String ticket = cx.asm.register();
                String seen = cx.asm.register();
                cx.atomics.add(ticket, address, cx.asm.constant(GpuMutexes.TICKET), "PT", todo, took, "draw a ticket");
                cx.asm.emit("SHR.U32 " + ticket + ", " + ticket + ", 0x10");
                String spin = cx.asm.label("served");
                cx.asm.place(spin);
                cx.polls.emit("PT", seen, address, false, "wait until the ticket is served");
                cx.asm.emit("LOP.AND " + seen + ", " + seen + ", " + SimtAssembler.immediate(GpuMutexes.SERVED));
                cx.asm.emit("ISETP.NE.AND " + taken + ", PT, " + seen + ", " + ticket + ", PT");
                cx.pause(taken);
                cx.asm.emit(taken, "BRA " + spin);
            }
        }
    }

    /** Gives the mutex at {@code address} up where {@code participants} holds (a ticket serves the next). */
    void unlock(String address, String participants, String todo, String took, String why) {
        if (mutex == Mutex.TICKET) {
            cx.atomics.add("RZ", address, cx.one, participants, todo, took, why);
        } else {
            cx.atomics.exchange("RZ", address, "RZ", participants, todo, took, why);
        }
    }
}
