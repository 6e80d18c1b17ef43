package dev.finegrain.runtime.jvm;

/**
 * The work a {@link WorkerTeam} runs once on every worker: a generated kernel's body for one worker index.
 * It is a single object per run, not one per actor instance.
 */
@FunctionalInterface
public interface TeamTask {
    /**
     * Runs this worker's share of the work.
     *
     * @param worker  this worker's index, {@code 0 <= worker < workers}
     * @param workers the team size
     */
    void run(int worker, int workers);
}
