package dev.finegrain.runtime.jvm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * A reusable team of worker threads, created once and reused across runs; no task objects per actor.
 *
 * <p>The caller is worker 0: a team of n runs n - 1 threads of its own, and {@code run} runs worker 0's share on the
 * calling thread. Why: on a machine with as many cores as workers, a caller that only waited was one thread too many,
 * and with it about one run in four on two cores took half again as long or more, likely two woken workers queued on
 * one core (docs/jvm-backend.md, "Threads, barriers and the watchdog").
 *
 * <p>A run hands one {@link TeamTask} to every worker by bumping a volatile epoch; idle workers spin for about
 * {@link #IDLE_SPIN_NANOS} looking for the next epoch (so back-to-back runs never block), then park. The last
 * worker to finish unparks the caller if it parked. A run allocates nothing.
 *
 * <p>Ordering: the caller's writes before {@code run} happen-before the task (volatile epoch store, read by each
 * worker), and the task's writes happen-before {@code run} returns (each worker's volatile decrement of the
 * running count, read as zero by the caller).
 *
 * <p>No lost wakeup, on either side, by the same argument as {@link ParkingFlags}: a worker stores its
 * {@code parked} flag (volatile) and re-reads the epoch before parking, while the caller stores the epoch and then
 * reads each worker's flag; the caller stores {@code parkedCaller} and re-reads the running count, while the last
 * worker decrements the count and then reads {@code parkedCaller}. With volatile accesses totally ordered, one
 * side always sees the other.
 */
public final class WorkerTeam implements AutoCloseable {
    /** How long an idle worker (or a waiting caller) spins before parking: long enough to catch the next run. */
    static final long IDLE_SPIN_NANOS = 50_000L;
    private static final int SPINS_PER_CLOCK_READ = 64;
    private static final VarHandle RUNNING;

    static {
        try {
            RUNNING = MethodHandles.lookup().findVarHandle(WorkerTeam.class, "running", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Worker[] workers;
    private final Throwable[] failures;
    private final Object runLock = new Object();
    private TeamTask task;
    private volatile int epoch;
    private volatile int running;
    private volatile Thread parkedCaller;
    /** The thread running worker 0 of the current run, if any: a run or close from it would wait for itself. */
    private volatile Thread callerInRun;
    private volatile boolean closed;

    /** A team of {@code threads} workers: the caller of {@code run} and {@code threads - 1} daemon threads named {@code finegrain-worker-N}, N from 1. */
    public WorkerTeam(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
        workers = new Worker[threads - 1];
        failures = new Throwable[threads];
        for (int i = 1; i < threads; i++) {
            workers[i - 1] = new Worker(this, i);
        }
        for (Worker w : workers) {
            w.start();
        }
    }

    public int size() {
        return workers.length + 1;
    }

    /**
     * Runs task.run(worker, size()) once on every worker, worker 0 on the calling thread, and waits for all; rethrows the failure to blame (a stall
     * that timed out, else a worker's own failure rather than the waits abandoned after it) on the caller, with
     * the other failures attached as suppressed.
     * Reusable many times; runs from several callers take turns.
     *
     * @throws IllegalStateException if the team is closed, or when called from one of its own workers
     */
    public void run(TeamTask task) {
        if (Thread.currentThread() instanceof Worker w && w.team == this) {
            throw new IllegalStateException("WorkerTeam.run called from its own worker " + w.getName());
        }
        if (callerInRun == Thread.currentThread()) {
            throw new IllegalStateException("WorkerTeam.run called from its own worker 0, the thread of the run in progress");
        }
        synchronized (runLock) {
            if (closed) {
                throw new IllegalStateException("WorkerTeam is closed");
            }
            this.task = task;
            running = workers.length;
            epoch = epoch + 1;
            for (Worker w : workers) {
                if (w.parked) {
                    LockSupport.unpark(w);
                }
            }
            callerInRun = Thread.currentThread();
            try {
                task.run(0, size());
            } catch (Throwable t) {
                failures[0] = t;
            } finally {
                callerInRun = null;
            }
            awaitWorkers();
            this.task = null;
            rethrowFailures();
        }
    }

    /**
     * Stops the threads and waits for them to end; idempotent.
     *
     * @throws IllegalStateException when called from one of its own workers, which would wait for itself
     */
    @Override
    public void close() {
        if (Thread.currentThread() instanceof Worker w && w.team == this) {
            throw new IllegalStateException("WorkerTeam.close called from its own worker " + w.getName());
        }
        if (callerInRun == Thread.currentThread()) {
            throw new IllegalStateException("WorkerTeam.close called from its own worker 0, the thread of the run in progress");
        }
        synchronized (runLock) {
            if (closed) {
                return;
            }
            closed = true;
            epoch = epoch + 1;
            for (Worker w : workers) {
                LockSupport.unpark(w);
            }
        }
        boolean interrupted = false;
        for (Worker w : workers) {
            while (w.isAlive()) {
                try {
                    w.join();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void awaitWorkers() {
        long spinStart = 0L;
        for (int spins = 1; running != 0; spins++) {
            Thread.onSpinWait();
            if (spins % SPINS_PER_CLOCK_READ == 0) {
                long now = System.nanoTime();
                if (spinStart == 0L) {
                    spinStart = now;
                } else if (now - spinStart > IDLE_SPIN_NANOS) {
                    break;
                }
            }
        }
        if (running == 0) {
            return;
        }
        parkedCaller = Thread.currentThread();
        while (running != 0) {
            LockSupport.park(this);
        }
        parkedCaller = null;
    }

    private void rethrowFailures() {
        Throwable first = null;
        for (Throwable t : failures) {
            if (t != null && (first == null || blame(t) > blame(first))) {
                first = t;
            }
        }
        if (first == null) {
            return;
        }
        for (int i = 0; i < failures.length; i++) {
            if (failures[i] != null && failures[i] != first) {
                first.addSuppressed(failures[i]);
            }
            failures[i] = null;
        }
        if (first instanceof RuntimeException e) {
            throw e;
        }
        if (first instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException("worker task failed", first);
    }

    /**
     * Which failure a run rethrows, highest first: a stall that timed out (the report names every wait); a
     * worker's own failure; and last, waits abandoned because a worker failed, which only echo that failure.
     */
    private static int blame(Throwable failure) {
        if (failure instanceof StallException stall) {
            return stall.afterAbort() ? 0 : 2;
        }
        return 1;
    }

    private void finish() {
        if ((int) RUNNING.getAndAdd(this, -1) == 1) {
            Thread caller = parkedCaller;
            if (caller != null) {
                LockSupport.unpark(caller);
            }
        }
    }

    private static final class Worker extends Thread {
        final WorkerTeam team;
        final int index;
        volatile boolean parked;

        Worker(WorkerTeam team, int index) {
            super("finegrain-worker-" + index);
            this.team = team;
            this.index = index;
            setDaemon(true);
        }

        @Override
        public void run() {
            int seen = 0;
            while (true) {
                seen = awaitEpoch(seen);
                if (team.closed) {
                    return;
                }
                try {
                    team.task.run(index, team.size());
                } catch (Throwable t) {
                    team.failures[index] = t;
                }
                team.finish();
            }
        }

        private int awaitEpoch(int seen) {
            long spinStart = 0L;
            for (int spins = 1; team.epoch == seen; spins++) {
                Thread.onSpinWait();
                if (spins % SPINS_PER_CLOCK_READ == 0) {
                    long now = System.nanoTime();
                    if (spinStart == 0L) {
                        spinStart = now;
                    } else if (now - spinStart > IDLE_SPIN_NANOS) {
                        break;
                    }
                }
            }
            int e;
            while ((e = team.epoch) == seen) {
                parked = true;
                if (team.epoch == seen) {
                    LockSupport.park(team);
                }
                parked = false;
            }
            return e;
        }
    }
}
