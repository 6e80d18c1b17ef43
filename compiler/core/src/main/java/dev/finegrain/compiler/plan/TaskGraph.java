package dev.finegrain.compiler.plan;

/**
 * An execution plan made concrete for one size: tasks (each a sequence of actor firings, run in order by one
 * worker), the barrier phase of each task, and the tasks each must wait for. A task may start once every task
 * of an earlier phase and every predecessor has finished; nothing else orders tasks.
 *
 * <p>Invariants, checked here: phases never decrease with the task index and every predecessor has a smaller
 * index, so task order is one legal execution and critical paths need one forward sweep.
 *
 * @param phase          barrier phase per task
 * @param predecessors   per task, the tasks it waits for through channels
 * @param firingOffsets  task t fires entries firingOffsets[t] until firingOffsets[t + 1]
 * @param firingActors   actor id per firing
 * @param firingPoints   row-major domain point per firing
 */
public record TaskGraph(int[] phase, int[][] predecessors, int[] firingOffsets, int[] firingActors, int[] firingPoints) {

    public TaskGraph {
        for (int t = 0; t < phase.length; t++) {
            if (t > 0 && phase[t] < phase[t - 1]) {
                throw new IllegalArgumentException("task " + t + " has an earlier phase than task " + (t - 1));
            }
            for (int p : predecessors[t]) {
                if (p >= t) {
                    throw new IllegalArgumentException("task " + t + " waits for later task " + p);
                }
            }
        }
    }

    public int tasks() {
        return phase.length;
    }

    public int phases() {
        return phase.length == 0 ? 0 : phase[phase.length - 1] + 1;
    }

    public int firings(int task) {
        return firingOffsets[task + 1] - firingOffsets[task];
    }

    /** Channel waits plus barriers: the sync operations the plan relies on. */
    public long syncPoints() {
        long waits = 0;
        for (int[] p : predecessors) {
            waits += p.length;
        }
        return waits + Math.max(0, phases() - 1);
    }

    /** The longest chain of firings that must happen one after another, with unbounded workers. */
    public long criticalPath() {
        long[] finish = new long[tasks()];
        long finishedBeforePhase = 0;
        long finishedInPhase = 0;
        int currentPhase = 0;
        for (int t = 0; t < tasks(); t++) {
            if (phase[t] != currentPhase) {
                finishedBeforePhase = Math.max(finishedBeforePhase, finishedInPhase);
                currentPhase = phase[t];
            }
            long start = finishedBeforePhase;
            for (int p : predecessors[t]) {
                start = Math.max(start, finish[p]);
            }
            finish[t] = start + firings(t);
            finishedInPhase = Math.max(finishedInPhase, finish[t]);
        }
        return Math.max(finishedBeforePhase, finishedInPhase);
    }
}
