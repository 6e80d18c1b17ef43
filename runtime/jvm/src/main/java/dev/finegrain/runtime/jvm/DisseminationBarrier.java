package dev.finegrain.runtime.jvm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Hensgen, Finkel and Manber's dissemination barrier, for more threads than one counter or one gathering worker
 * serves well: ceil(log2 P) rounds; in round r, worker i signals worker (i + 2^r) mod P and waits for the signal of
 * worker (i - 2^r) mod P. After the last round every worker has heard, directly or through others, from every other,
 * and no word has more than one writer, so there is no atomic read-modify-write at all and each wait spins on a
 * cache line of its own.
 *
 * <p>Each flag holds the number of the last episode (barrier use) its one writer signalled; a waiter waits until its
 * flag reaches its own episode. The numbers only grow, and a writer can be at most one episode ahead of its reader (it
 * needs the reader's own signals to finish an episode), so no flag is ever reset and no signal is lost.
 *
 * <p>Ordering: a signal is a release store and a wait an acquire load, so a worker's writes before its arrival reach
 * its partner of round 0, and through the chain of rounds every worker, before any leaves.
 */
public final class DisseminationBarrier implements StepBarrier {
    private static final VarHandle FLAGS = MethodHandles.arrayElementVarHandle(int[].class);
    private static final int PAD = 16;

    private final int parties;
    private final int rounds;
    /** flags[(round * parties + worker) * PAD]: the last episode worker's partner of that round signalled. */
    private final int[] flags;
    private final int[] episodes;

    public DisseminationBarrier(int parties) {
        if (parties < 1) {
            throw new IllegalArgumentException("a barrier needs at least one worker, was " + parties);
        }
        this.parties = parties;
        this.rounds = 32 - Integer.numberOfLeadingZeros(parties - 1);
        this.flags = new int[Math.max(1, rounds) * parties * PAD];
        this.episodes = new int[parties * PAD];
    }

    @Override
    public void await(int worker, Watchdog watchdog) {
        int episode = episodes[worker * PAD] += 1;
        for (int round = 0, distance = 1; round < rounds; round++, distance <<= 1) {
            int partner = (worker + distance) % parties;
            FLAGS.setRelease(flags, (round * parties + partner) * PAD, episode);
            int mine = (round * parties + worker) * PAD;
            long start = Watchdog.CLOCK_NOT_STARTED;
            for (long attempt = 0; (int) FLAGS.getAcquire(flags, mine) - episode < 0; attempt++) {
                start = watchdog.waitPolicy().pause(attempt, start, watchdog, Exclusion.WAIT_CHANNEL, worker,
                        (worker - distance + parties) % parties);
            }
        }
    }

    @Override
    public int parties() {
        return parties;
    }
}
