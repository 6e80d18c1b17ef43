package dev.finegrain.runtime.jvm;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How a token wait that found its word not ready passes the time until it looks again, for the spinning mechanisms
 * ({@link ReadyFlags}, {@link PackedReadyWords}, {@link SpinLockTokens}). Their wait loops read their word (with
 * acquire, or a CAS) and, while it is not ready, call {@link #pause} on the run's policy ({@link Watchdog#waitPolicy})
 * with the number of failed looks so far; the policy decides what the pause is, and runs the stall watchdog.
 *
 * <p>Stuart and Owens ("Efficient synchronization primitives for GPUs") compare waiting by spinning, by spinning with
 * exponential backoff, and by sleeping, and find the best one differs by machine and load; so the policy is a choice a
 * schedule makes ({@code lockDataflow().waitPolicy(...)}) and a sweep can vary ({@code compare --wait-policy}):
 * <ul>
 *   <li>{@link #SPIN}: {@link Thread#onSpinWait} between looks, nothing else (the watchdog is checked every
 *       {@link #SPIN_CHECK} looks);</li>
 *   <li>{@link #BACKOFF}: spin with exponential backoff: {@code 2^k} spins between looks, doubling from 1 up to
 *       {@link #MAX_BACKOFF_SPINS}, so a long wait looks at the word less often and leaves the line to its writer;</li>
 *   <li>{@link #SLEEP}: park from the first miss, {@link #MIN_PARK_NANOS} doubling to {@link #MAX_PARK_NANOS};</li>
 *   <li>{@link #ADAPTIVE}, the default: spin, then yield, then sleep, below.</li>
 * </ul>
 *
 * <p>The adaptive policy has three phases (seed 000's lesson: spinning loses to sleeping once waiters outnumber cores).
 * <ol>
 *   <li><b>Spin</b> {@link #SPINS} times with {@link Thread#onSpinWait}. On a quiet machine the producer is running
 *       on another core and most tokens arrive within a few cache-line round trips; a spin sees them at once, with no
 *       system call, so the uncontended speed of the 2D kernels stays what it was.</li>
 *   <li><b>Yield</b> {@link #YIELDS} times. A yield costs a system call (0.5 to 1.1 µs on the machine below) and
 *       returns at once when this core has nothing else to run, so on a quiet machine this phase is a slower spin;
 *       but when the producer is queued on this very core (more workers than cores), the yield hands it the core
 *       instead of burning the rest of a scheduler slice.</li>
 *   <li><b>Park</b> with {@link LockSupport#parkNanos}, from {@link #MIN_PARK_NANOS} doubling to
 *       {@link #MAX_PARK_NANOS}. A parked waiter leaves its core to whoever is runnable (the scheduler pulls a queued
 *       producer onto the idle core), and wakes on its own timeout: the producer's publish path stays one release
 *       store, with no unpark (that protocol is {@link ParkingFlags}', the {@code blocking} mechanism). The cap bounds
 *       how late a waiter sees a token published while it sleeps.</li>
 * </ol>
 *
 * <p>The bounds and the measurement behind them. On the 2-vCPU KVM machine (Intel Xeon, Linux 6.18, Temurin 25) a
 * {@code Thread.onSpinWait} took 31 to 136 ns, a {@code Thread.yield} 0.5 to 1.1 µs, and {@code parkNanos(n)} slept 60
 * to 75 µs for every n from 1 to 16 µs (Linux's default timer slack of 50 µs), 90 to 150 µs for 32 µs, 196 µs for 128
 * µs. So the doubling from 1 µs is mostly the kernel's floor, and the cap of 128 µs keeps a sleeping waiter at most
 * about 0.2 ms late. Runs of the 1D chain {@code prefix-hash} (lock-dataflow, acquire-release, the {@code finegrain
 * run} CLI; medians of its timed runs, single-shot {@code --quick} runs where marked) chose the counts: with 3 workers
 * on the 2 cores (32768 cells) the old loop, which spun and yielded once per 1024 spins, ran at 5.1e4 to 5.6e4
 * cells/s, 32 spins then 256 yields then parking at 8.7e5 (2.9e5 to 4.5e5 quick), while 1024 spins before the first
 * yield ran at 4.5e4 to 5.6e4 (quick) and 16384 spins at 4e3 to 5e3 (quick): a long spin phase is what loses when
 * workers outnumber cores (again on the final code: 5.4e5 against 5.5e4). The price is paid by 2 workers beside one
 * busy process ({@code yes}, 131072 cells, six runs each): 2.1e5 to 7.0e5 cells/s with this policy against 3.0e5 to
 * 2.2e6 with the old loop (JMH's {@code OversubscribedBenchmark}, 65536 cells: 105 ± 19 ms/op against 67 ± 22 on a
 * quiet moment, 431 against 1107 with errors larger than the scores while another build ran): there the workers do
 * best staying on their cores, and every pause that leaves one costs a timer-slack sleep or a scheduler slice. Those
 * numbers swing by 5x from run to run (other work shared the machine), and the 2-thread chain is bound by its handoffs
 * either way: uncontended it ran at 3.4e6 to 4.3e6 cells/s against 1.1e8 to 1.4e8 on one thread. Needleman-Wunsch 2048
 * x 2048 on two threads, uncontended (CLI, lock-dataflow, acquire-release, six runs each, interleaved), ran at 0.79 to
 * 1.75 G cells/s (median 1.6) with this policy against 0.75 to 1.96 (median 1.5) with the old loop: within that
 * machine's noise. No count of spins made the 2-thread chain beside a busy process fast on the 2 cores (pure spinning
 * came closest, 1.9e6 cells/s, and is the worst choice with 3 workers): its 32-cell blocks hand over to the other
 * worker every few hundred nanoseconds, which is a property of the schedule, not of the wait.
 *
 * <p>Watchdog. The spin phase is a few microseconds and reads no clock. From the first yield on, every pause reads
 * the clock (about 50 ns against a yield's 500 or more) and {@link Watchdog#check checks} the wait, which began at
 * that first yield: a stalled wait is reported within the stall timeout plus one park (at most
 * {@link #MAX_PARK_NANOS}, a few hundred microseconds late with the timer slack), and a stall declared by another
 * waiter ends this one at its next pause.
 *
 * <p>Memory ordering is the callers': the policy reads no shared word, and a wait returns only after its own acquire
 * load (or CAS) saw the token, whichever phase it was in.
 */
public enum WaitPolicy {
    /** Spin, then yield, then park with a doubling timeout: the default (the phases above). */
    ADAPTIVE,
    /** Spin between looks, never leaving the core. */
    SPIN,
    /** Spin with exponential backoff between looks. */
    BACKOFF,
    /** Park between looks from the first miss, with a doubling timeout. */
    SLEEP;

    /** Spins before the first yield: 1 to 4 µs of {@code onSpinWait}, the handoffs of a quiet machine. */
    static final int SPINS = 32;
    /** Yields before the first park: 0.1 to 0.3 ms of system calls that return at once on an idle core. */
    static final int YIELDS = 256;
    /** The first park. Linux sleeps at least its timer slack (50 µs by default) whatever is asked. */
    static final long MIN_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(1);
    /** The longest park: how late, at most (plus timer slack), a sleeping waiter sees its token. */
    static final long MAX_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(128);
    /** How many looks a spinning wait takes between two watchdog checks (a clock read each). */
    static final int SPIN_CHECK = 1024;
    /** The most spins between two looks of a backing-off wait: 10 to 140 µs of {@code onSpinWait}. */
    static final int MAX_BACKOFF_SPINS = 1024;

    private static final long FIRST_YIELD = SPINS;
    private static final long FIRST_PARK = FIRST_YIELD + YIELDS;
    /** Doublings from the first park to the longest. */
    private static final int MAX_DOUBLINGS =
            Long.numberOfTrailingZeros(Long.highestOneBit(MAX_PARK_NANOS / MIN_PARK_NANOS)) + 1;
    private static final int MAX_BACKOFF_DOUBLINGS = Integer.numberOfTrailingZeros(MAX_BACKOFF_SPINS);

    /**
     * One pause of a wait that has looked {@code attempt + 1} times (the fast path's look and {@code attempt} more)
     * without seeing its token, as the policy has it; the watchdog is checked at every pause that leaves the core
     * and every {@link #SPIN_CHECK} spinning ones.
     *
     * @param start the wait's start time as the previous pause returned it, {@link Watchdog#CLOCK_NOT_STARTED} first
     * @return the wait's start time, to pass to the next pause
     * @throws StallException when the wait has lasted longer than the watchdog's timeout, or another waiter stalled
     */
    long pause(long attempt, long start, Watchdog watchdog, int channel, long consumerPoint, long producerPoint) {
        switch (this) {
            case ADAPTIVE -> {
                if (attempt < FIRST_YIELD) {
                    Thread.onSpinWait();
                    return start;
                }
                long began = check(start, watchdog, channel, consumerPoint, producerPoint);
                if (attempt < FIRST_PARK) {
                    Thread.yield();
                } else {
                    LockSupport.parkNanos(parkNanos(attempt));
                }
                return began;
            }
            case SPIN -> {
                Thread.onSpinWait();
                return attempt % SPIN_CHECK == SPIN_CHECK - 1 ? check(start, watchdog, channel, consumerPoint, producerPoint) : start;
            }
            case BACKOFF -> {
                int spins = 1 << Math.min(attempt, MAX_BACKOFF_DOUBLINGS);
                for (int s = 0; s < spins; s++) {
                    Thread.onSpinWait();
                }
                return attempt >= MAX_BACKOFF_DOUBLINGS ? check(start, watchdog, channel, consumerPoint, producerPoint) : start;
            }
            case SLEEP -> {
                long began = check(start, watchdog, channel, consumerPoint, producerPoint);
                LockSupport.parkNanos(Math.min(MIN_PARK_NANOS << Math.min(attempt, MAX_DOUBLINGS), MAX_PARK_NANOS));
                return began;
            }
        }
        throw new AssertionError(this);
    }

    /** Starts the wait's clock if it has not started, and checks the watchdog; the wait's start time. */
    private static long check(long start, Watchdog watchdog, int channel, long consumerPoint, long producerPoint) {
        long began = start;
        if (began == Watchdog.CLOCK_NOT_STARTED) {
            long now = System.nanoTime();
            began = now == Watchdog.CLOCK_NOT_STARTED ? 1L : now;
        }
        watchdog.check(began, channel, consumerPoint, producerPoint);
        return began;
    }

    /** The park of an attempt in the adaptive policy's park phase: the first park, doubled once per park since, up to the longest. */
    static long parkNanos(long attempt) {
        long doublings = Math.min(attempt - FIRST_PARK, MAX_DOUBLINGS);
        return Math.min(MIN_PARK_NANOS << doublings, MAX_PARK_NANOS);
    }

    /** The attempt of the adaptive policy's first park, for tests. */
    static long firstPark() {
        return FIRST_PARK;
    }
}
