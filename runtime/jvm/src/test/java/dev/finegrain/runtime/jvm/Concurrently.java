package dev.finegrain.runtime.jvm;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/** Runs actions on their own threads, joins them within a deadline and rethrows the first failure. */
final class Concurrently {
    private static final long DEADLINE_MILLIS = 30_000;

    private Concurrently() {
    }

    static void run(Runnable... actions) {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < actions.length; i++) {
            Runnable action = actions[i];
            Thread t = new Thread(() -> {
                try {
                    action.run();
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "test-actor-" + i);
            t.setDaemon(true);
            threads.add(t);
        }
        threads.forEach(Thread::start);
        long deadline = System.currentTimeMillis() + DEADLINE_MILLIS;
        for (Thread t : threads) {
            try {
                t.join(Math.max(1, deadline - System.currentTimeMillis()));
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            if (t.isAlive()) {
                throw new AssertionError(t.getName() + " still running after " + DEADLINE_MILLIS + " ms");
            }
        }
        Throwable t = failure.get();
        if (t instanceof RuntimeException e) {
            throw e;
        }
        if (t instanceof Error e) {
            throw e;
        }
    }

    /** A describer whose lines tests can assert exactly. */
    static final WaitDescriber DESCRIBER =
            (channel, consumer, producer) -> "cell " + consumer + " waits on channel " + channel + " for cell " + producer;

    static Watchdog watchdog() {
        return new Watchdog(Watchdog.DEFAULT_TIMEOUT_NANOS, DESCRIBER);
    }

    static Watchdog shortWatchdog() {
        return new Watchdog(200_000_000L, DESCRIBER);
    }
}
