package dev.finegrain.dsl;

/**
 * How a wavefront's persistent blocks meet between steps on a GPU (Stuart and Owens, "Efficient synchronization
 * primitives for GPUs", after Xiao and Feng): ATOMIC, the two-stage atomic barrier (a block barrier, one atomic
 * increment per block on one counter, a poll until every block arrived); XF, Xiao and Feng's lock-free barrier (a
 * flag per block, block 0 gathers and releases them, no atomics); COOPERATIVE, CUDA's {@code grid.sync()} of a
 * cooperative launch (the CUDA target only). A schedule that names none takes the target's default, which {@code show
 * --gpu-plan} prints with where it comes from. The JVM's wavefront steps meet at its own sense-reversing barrier, so
 * a JVM run of a wavefront that names one is skipped with that reason.
 */
public enum GridBarrier {
    ATOMIC("atomic"),
    XF("xf"),
    COOPERATIVE("cooperative");

    private final String cliName;

    GridBarrier(String cliName) {
        this.cliName = cliName;
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
