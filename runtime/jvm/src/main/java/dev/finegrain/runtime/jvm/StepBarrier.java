package dev.finegrain.runtime.jvm;

/**
 * A barrier over a fixed number of workers: no worker leaves its {@code n}-th {@link #await} before every worker has
 * entered its {@code n}-th, and every write made before the wait is visible to every worker after it. The kernels the
 * JVM backend generates meet here between steps; which barrier a run gets is the schedule's choice.
 */
public interface StepBarrier {
    /** Waits until every worker has arrived at this step; a wait that outlives {@code watchdog}'s patience stalls. */
    void await(int worker, Watchdog watchdog);

    int parties();

    /**
     * Says that a worker has finished its task and will not arrive again; every worker calls it once, at its end. A
     * barrier that can tell a missing arrival from a slow one (by a departure) reports it at once; the others leave it
     * to the watchdog's timeout.
     */
    default void depart() {
    }
}
