package dev.finegrain.runtime.jvm;

/**
 * A barrier over a fixed number of workers: no worker leaves its {@code n}-th {@link #await} before every worker has
 * entered its {@code n}-th, and every write made before the wait is visible to every worker after it.
 */
public interface StepBarrier {
    /** Waits until every worker has arrived at this step. */
    void await(int worker);

    int parties();
}
