package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.backend.gpu.mechanism.GpuMechanism;
import dev.finegrain.compiler.backend.gpu.mechanism.GpuMechanisms;
import dev.finegrain.compiler.plan.DataflowPlan;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Mutex;

import java.util.Optional;

/**
 * How the GPU mechanisms that hold a lock (atomic-spin-lock, shared-spin-lock) take it in a tile's shared memory, as
 * Stuart and Owens' mutexes do; every target spells the same three from here:
 * <ul>
 *   <li>{@code tas}: an atomic exchange at every look, the loop of Li et al.'s listings (every profile's default,
 *       {@code default.mutex}: the fastest of the three on an H200);</li>
 *   <li>{@code ttas}: a plain (acquire) load at every look, and the exchange only once the word looks free, so waiters
 *       spin on their own copy of the word instead of queueing atomics on it;</li>
 *   <li>{@code ticket}: one 32-bit word holds two 16-bit counters, the next ticket (high half) and the ticket being
 *       served (low half); a waiter draws a ticket with one atomic add of {@link #TICKET} and loads until it is
 *       served; an unlock serves the next with an atomic add of 1; a try takes a ticket only when it would be served at
 *       once (a compare-and-swap from next = served). A producer holds ticket 0 from the start ({@link #TICKET}); a
 *       token meets a handful of tickets in a run, far below the 65536 at which a half would wrap.</li>
 * </ul>
 */
public final class GpuMutexes {

    /** One ticket in the high half of a ticket word: what a draw adds, and a producer's held word. */
    public static final int TICKET = 0x10000;
    /** The low half of a ticket word: the ticket being served. */
    public static final int SERVED = 0xffff;

    private GpuMutexes() {}

    /** Why {@code mechanism} cannot take {@code plan}'s mutex, if it cannot: only a lock-holding token has a mutex. */
    public static Optional<String> unsupported(DataflowPlan plan, LockMechanism mechanism, GpuTarget target) {
        Mutex mutex = plan.lockChoices().mutexOr(target.defaultMutex());
        boolean holdsALock = GpuMechanisms.of(mechanism).map(GpuMechanism::tokenIsMutex).orElse(false);
        return mutex != target.defaultMutex() && !holdsALock ? Optional.of(mechanism + " holds no lock, so mutex " + mutex + " does not"
                + " apply to it (its rows would repeat the default ones); the spin-locks take a mutex") : Optional.empty();
    }

    /** What a token word holds while its producer has not fired (locked), for {@code mutex}. */
    public static int held(Mutex mutex) {
        return mutex == Mutex.TICKET ? TICKET : 1;
    }

    /** The mutex in words, for {@code show --gpu-plan}. */
    public static String describe(Mutex mutex) {
        return switch (mutex) {
            case TEST_AND_SET -> "test-and-set: an atomic exchange at every look";
            case TEST_AND_TEST_AND_SET -> "test-and-test-and-set: a load at every look, the exchange once the word looks free";
            case TICKET -> "ticket: a word of two 16-bit counters (next, served); a waiter draws with one atomic add and"
                    + " loads until it is served";
        };
    }
}
