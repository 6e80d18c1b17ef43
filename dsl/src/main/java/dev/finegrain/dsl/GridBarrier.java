package dev.finegrain.dsl;

/**
 * How a wavefront's workers meet between steps (Stuart and Owens, "Efficient synchronization primitives for GPUs",
 * after Xiao and Feng): ATOMIC, the two-stage atomic barrier (a block barrier, one atomic increment per block on one
 * counter, a poll until every block arrived); XF, Xiao and Feng's lock-free barrier (a flag per block, block 0 gathers
 * and releases them, no atomics); COOPERATIVE, CUDA's {@code grid.sync()} of a cooperative launch (the CUDA target
 * only); RELAUNCH, a launch per step (the kernel boundary is the barrier: no persistent blocks, as many blocks as the
 * step's points need, and a launch's cost per step). A schedule that names none takes the target's default, which
 * {@code show --gpu-plan} prints with where it comes from.
 *
 * <p>On the JVM, where the workers are threads of one team: ATOMIC is the same counting barrier (one atomic add per
 * worker and step, a poll), XF the same flags with worker 0 gathering; DISSEMINATION, Hensgen, Finkel and Manber's
 * barrier for many threads (log2 P rounds of pairwise signals, no atomics, the JVM only); with none named the workers
 * meet at a sense-reversing barrier that spins, then parks. COOPERATIVE and RELAUNCH have no JVM meaning (the team runs
 * one task for the whole run), so a JVM run that names one is skipped with that reason.
 */
public enum GridBarrier {
    ATOMIC("atomic"),
    XF("xf"),
    COOPERATIVE("cooperative"),
    RELAUNCH("relaunch"),
    DISSEMINATION("dissemination");

    private final String cliName;

    GridBarrier(String cliName) {
        this.cliName = cliName;
    }

    /** Whether the JVM's team of threads can meet at this barrier (the others are a GPU's launch configurations). */
    public boolean onThreads() {
        return this == ATOMIC || this == XF || this == DISSEMINATION;
    }

    /** Whether a GPU's blocks can meet at this barrier (dissemination is the JVM's). */
    public boolean onGpu() {
        return this != DISSEMINATION;
    }

    public String cliName() {
        return cliName;
    }

    public static java.util.Optional<GridBarrier> fromCliName(String name) {
        return java.util.Arrays.stream(values()).filter(b -> b.cliName.equals(name)).findFirst();
    }

    @Override
    public String toString() {
        return cliName;
    }
}
