package dev.finegrain.runtime.jvm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Xiao and Feng's lock-free barrier, as Stuart and Owens describe it (the "XF" barrier, the best at scale on both of
 * their GPUs): each worker stores the step number into its own arrival flag; worker 0, the master, polls every
 * arrival flag until all hold the step, then stores the step into every worker's release flag; each worker polls its
 * own release flag. No atomic at all: every flag has one writer, and each worker's flags sit on their own cache lines,
 * so a poll only meets the one store that ends it. The master does the work of everyone, which is what limits it as
 * workers grow (on a GPU, the master block's threads share it).
 *
 * <p>Ordering: the flag stores are release stores and the polls acquire loads; a worker's writes before its arrival
 * reach the master through its arrival flag and every other worker through the master's release store, which comes
 * after the master's acquire of that arrival.
 */
public final class XfBarrier implements StepBarrier {
    private static final VarHandle FLAGS = MethodHandles.arrayElementVarHandle(int[].class);
    private static final int PAD = 16;

    private final int parties;
    private final int[] arrived;
    private final int[] released;
    private final int[] steps;

    public XfBarrier(int parties) {
        if (parties < 1) {
            throw new IllegalArgumentException("a barrier needs at least one worker, was " + parties);
        }
        this.parties = parties;
        this.arrived = new int[parties * PAD];
        this.released = new int[parties * PAD];
        this.steps = new int[parties * PAD];
    }

    @Override
    public void await(int worker, Watchdog watchdog) {
        int step = steps[worker * PAD] += 1;
        FLAGS.setRelease(arrived, worker * PAD, step);
        if (worker == 0) {
            for (int other = 0; other < parties; other++) {
                poll(arrived, other, step, worker, watchdog);
            }
            for (int other = 0; other < parties; other++) {
                FLAGS.setRelease(released, other * PAD, step);
            }
        }
        poll(released, worker, step, worker, watchdog);
    }

    private static void poll(int[] flags, int owner, int step, int worker, Watchdog watchdog) {
        long start = Watchdog.CLOCK_NOT_STARTED;
        for (long attempt = 0; (int) FLAGS.getAcquire(flags, owner * PAD) - step < 0; attempt++) {
            start = watchdog.waitPolicy().pause(attempt, start, watchdog, Exclusion.WAIT_CHANNEL, worker, owner);
        }
    }

    @Override
    public int parties() {
        return parties;
    }
}
