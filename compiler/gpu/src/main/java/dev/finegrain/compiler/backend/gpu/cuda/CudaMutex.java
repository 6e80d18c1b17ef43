package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.gpu.GpuMutexes;
import dev.finegrain.dsl.Mutex;

/**
 * The mapping's mutex ({@link GpuMutexes}) in CUDA, for the spin-locks' token words in shared memory: test-and-set as Li
 * et al.'s listings write it, test-and-test-and-set with an acquire load before the exchange, and the ticket mutex
 * through the prelude's {@code fg::ticket_*}.
 */
final class CudaMutex {

    private final Mutex mutex;

    CudaMutex(Mutex mutex) {
        this.mutex = mutex;
    }

    /** The word's first value: held by a producer that computes, free otherwise. */
    String initial(String computes) {
        return computes + " ? " + (mutex == Mutex.TICKET ? "0x10000" : "1") + " : 0";
    }

    /** A condition that takes the mutex at {@code word} if it is free now, and is false otherwise. */
    String tryTake(String word) {
        return switch (mutex) {
            case TEST_AND_SET -> "atomicExch(&" + word + ", 1) == 0";
            case TEST_AND_TEST_AND_SET -> "fg::load_acquire_cta(&" + word + ") == 0 && atomicExch(&" + word + ", 1) == 0";
            case TICKET -> "fg::ticket_try(&" + word + ")";
        };
    }

    /** Waits until this thread holds the mutex at {@code word}, as the wait policy spells a wait. */
    String lock(CudaSyncContext cx, String word) {
        return switch (mutex) {
            case TEST_AND_SET -> cx.waitWhile("atomicExch(&" + word + ", 1) != 0") + "   // lock (Listing 2)";
            case TEST_AND_TEST_AND_SET -> cx.waitWhile("fg::load_acquire_cta(&" + word + ") != 0 || atomicExch(&" + word
                    + ", 1) != 0") + "   // lock: look, then exchange";
            case TICKET -> "{ const int ticket = fg::ticket_draw(&" + word + "); " + cx.waitWhile("!fg::ticket_served(&"
                    + word + ", ticket)") + " }   // lock: draw a ticket, wait to be served";
        };
    }

    /** Gives the mutex at {@code word} up (or, for a ticket, serves the next). */
    String unlock(String word) {
        return mutex == Mutex.TICKET ? "atomicAdd(&" + word + ", 1);" : "atomicExch(&" + word + ", 0);";
    }
}
