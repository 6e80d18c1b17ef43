package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.IrChannel;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.plan.DataParallelPlan;
import dev.finegrain.compiler.plan.DynamicDataflowPlan;
import dev.finegrain.compiler.plan.DataflowPlan;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.compiler.plan.TokenRule;
import dev.finegrain.compiler.plan.WavefrontPlan;
import dev.finegrain.dsl.internal.DependenceMath;
import dev.finegrain.dsl.LockMechanism;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The entry to the GPU mapping: checks what every GPU mapping needs of a kernel (1D, 2D or 3D domains, dependences
 * that point backwards in every dimension for the tiles, or in 2D that a wavefront's diagonals order), then maps the plan with its
 * schedule's mapping. Emitters take the result and only spell it.
 */
public final class GpuMapper {

    private GpuMapper() {}

    /**
     * The plan's waits that need a token on a GPU, where each thread owns one point
     * ({@link TokenRule.Ownership#POINT}): the one rule every GPU target and check applies. A thread fires every actor
     * of its point, so two shared channels from one producer actor at one vector (two actors reading one field at one
     * offset) are one wait for it, on one token: it waits once, never twice on a token (a lock bit) it already holds.
     */
    public static List<IrChannel> tokenWaits(DataflowPlan plan) {
        List<IrChannel> waits = new java.util.ArrayList<>();
        for (IrChannel channel : plan.waits()) {
            boolean repeat = channel.policy() == dev.finegrain.dsl.ChannelPolicy.SHARED && waits.stream().anyMatch(w ->
                    w.policy() == dev.finegrain.dsl.ChannelPolicy.SHARED && w.producer() == channel.producer()
                            && Arrays.equals(w.vector(), channel.vector()));
            if (!repeat && TokenRule.needsToken(channel, plan.graph().rank(), TokenRule.Ownership.POINT)) {
                waits.add(channel);
            }
        }
        return List.copyOf(waits);
    }

    /**
     * Why no GPU mapping exists for this kernel at all, if none does: more than three dimensions, or a dependence with
     * a negative component that no 2D wavefront step orders ({@link WavefrontDiagonals}); the tiles' own limit is
     * {@link #unmappableTiles}.
     */
    public static Optional<String> unmappableKernel(KernelGraph graph) {
        if (graph.rank() > 3) {
            return Optional.of("the GPU model lowers 1D, 2D and 3D domains; " + graph.name() + " has " + graph.rank());
        }
        if (graph.rank() == 2 && WavefrontDiagonals.stepping(graph).isPresent()) {
            return Optional.empty();
        }
        return forwardDependence(graph).map(channel -> tilesNeedBackwards(graph, channel) + skewedWavefront(graph));
    }

    /**
     * Why the tiled schedules (data-parallel, dynamic-dataflow, lock-dataflow and its bands) cannot take this kernel,
     * if they cannot: a tile waits for whole tiles behind it, so every dependence must point backwards in every
     * dimension; the 2D wavefront's steeper diagonals take the rest.
     */
    public static Optional<String> unmappableTiles(KernelGraph graph) {
        return unmappableKernel(graph).or(() -> forwardDependence(graph).map(channel -> tilesNeedBackwards(graph, channel)
                + "; wavefront takes it on every target, along hyperplane " + DependenceMath.format(
                WavefrontDiagonals.stepping(graph).orElseThrow()) + " on the GPU targets, and lock-dataflow's tiles there,"
                + " skewed (" + TileSkew.of(graph).orElseThrow().column() + ")"));
    }

    private static Optional<IrChannel> forwardDependence(KernelGraph graph) {
        return graph.channels().stream().filter(channel -> Arrays.stream(channel.vector()).anyMatch(component -> component < 0))
                .findFirst();
    }

    private static String tilesNeedBackwards(KernelGraph graph, IrChannel channel) {
        return "the GPU model's tiles need dependences that point backwards in every dimension; " + graph.name() + " has "
                + DependenceMath.format(channel.vector()) + " (" + channel.via() + ")";
    }

    /**
     * Why lock-dataflow's persistent bands take the kernel under no mechanism on the target, if they take it under none:
     * a domain other than 2D, no warp shuffles, reads beyond a band or a lane's registers. Said of the schedule, not of
     * whichever mechanism a request names.
     */
    private static Optional<String> unmappableBands(ExecutionPlan plan, GpuTarget target) {
        return plan instanceof DataflowPlan dataflow && dataflow.persistent()
                ? MapBands.unsupported(dataflow, Optional.empty(), target) : Optional.empty();
    }

    /**
     * Why a lock-dataflow plan runs on the target under no mechanism, if it runs under none: its tiles or bands cannot
     * take the kernel, or the target cannot honour its lock choices. Each mechanism's own fit is judged apart.
     */
    public static Optional<String> unmappableDataflow(ExecutionPlan plan, GpuTarget target) {
        return unmappable(plan).or(() -> unmappableLockChoices(plan, target)).or(() -> unmappableBands(plan, target));
    }

    /**
     * Why the GPU target cannot honour a plan's wait policy or mutex, if it cannot: the napping waits
     * ({@link GpuWaits}) need nanosleep and apply to tiles, not to a persistent band's edge, and so does a mutex other
     * than the default ({@link GpuMutexes}).
     */
    public static Optional<String> unmappableLockChoices(dev.finegrain.compiler.plan.ExecutionPlan plan, GpuTarget target) {
        dev.finegrain.dsl.WaitPolicy policy = plan.lockChoices().waitPolicy();
        dev.finegrain.dsl.Mutex mutex = plan.lockChoices().mutexOr(target.defaultMutex());
        if (mutex != target.defaultMutex() && plan instanceof DataflowPlan dataflow && dataflow.persistent()) {
            return Optional.of("mutex " + mutex + " applies to lock-dataflow's tiles; a persistent band's edge takes its"
                    + " lock with the listings' compare-and-swap");
        }
        if (GpuWaits.naps(policy) && plan instanceof DataflowPlan dataflow && dataflow.persistent()) {
            return Optional.of("wait policy " + policy + " applies to lock-dataflow's tiles; a persistent band's edge"
                    + " waits spin");
        }
        return GpuWaits.unsupported(policy, target);
    }

    /** Which schedule takes a dependence the tiles cannot: the wavefront along the hyperplane the analysis found, if any. */
    private static String skewedWavefront(KernelGraph graph) {
        return graph.hyperplaneIfFound().map(hyperplane -> ", which the wavefront along hyperplane "
                + DependenceMath.format(hyperplane) + " takes on the reference and jvm backends").orElse("");
    }

    /** Why the GPU targets never run {@code schedule}, at any size and with any mechanism, if they never do. */
    public static Optional<String> neverRuns(dev.finegrain.dsl.Schedule schedule) {
        if (schedule instanceof dev.finegrain.dsl.Schedule.Wavefront wavefront
                && wavefront.barrier().filter(b -> !b.onGpu()).isPresent()) {
            return Optional.of("the " + wavefront.barrier().get() + " barrier is the JVM's, for many threads");
        }
        return Optional.empty();
    }

    /**
     * Why this plan (with this mechanism, for lock-dataflow) cannot be mapped on {@code target} at any size, if it
     * cannot: computed from the kernel, the plan and the mechanism's requirements, without mapping a size. A variant
     * that passes may still not fit at a given size (a tile the sizes cap, a block over the machine's limits); its
     * mapping says so.
     */
    public static Optional<String> unsupported(ExecutionPlan plan, Optional<LockMechanism> mechanism, GpuTarget target) {
        KernelGraph graph = plan.graph();
        if (plan instanceof DataflowPlan dataflow && dataflow.lockChoices().capacity().isPresent()) {
            return Optional.of("capacity " + dataflow.lockChoices().capacity().get() + " sizes spsc-ring's rings on threads;"
                    + " a GPU keeps a token per instance (its rows would repeat the ones without a capacity)");
        }
        return unmappable(plan).or(() -> switch (plan) {
            case WavefrontPlan wavefront -> MapWavefront.unsupported(graph, wavefront)
                    .or(() -> MapWavefront.unsupportedBarrier(wavefront, target));
            case DataParallelPlan dataParallel -> Optional.empty();
            case DynamicDataflowPlan dynamic -> MapDynamicDataflow.unsupported(dynamic, target);
            case DataflowPlan dataflow when dataflow.persistent() -> MapBands.unsupported(dataflow, mechanism, target);
            case DataflowPlan dataflow -> (mechanism.isEmpty()
                    ? Optional.of("lock-dataflow on the GPU model needs a lock mechanism")
                    : MapLockDataflow.unsupported(graph, dataflow, mechanism.get(), target)
                            .or(() -> GpuMutexes.unsupported(dataflow, mechanism.get(), target)));
        });
    }

    /**
     * Why no mapping of this plan's schedule takes its kernel, whatever the mechanism and sizes, if none does: the
     * wavefront's planes, lock-dataflow's (possibly skewed) tiles, or the rectangular tiles of the others.
     */
    public static Optional<String> unmappable(ExecutionPlan plan) {
        KernelGraph graph = plan.graph();
        return switch (plan) {
            // lock-dataflow's tiles take a 2D dependence forward in j skewed (TileSkew), so they need what the wavefront needs
            case WavefrontPlan wavefront -> unmappableKernel(graph);
            case DataflowPlan dataflow when !dataflow.persistent() -> unmappableKernel(graph);
            default -> unmappableTiles(graph);
        };
    }

    /** The mechanism a lock-dataflow program runs: the requested one, or its warp-shared form for warp-shared locks. */
    public static LockMechanism effectiveMechanism(ExecutionPlan plan, LockMechanism requested, GpuTarget target) {
        if (!(plan instanceof DataflowPlan dataflow) || dataflow.persistent()) {
            return requested;   // a band's edge tokens keep the requested mechanism whatever the granularity
        }
        return MapLockDataflow.effectiveMechanism(dataflow, requested);
    }

    /**
     * Maps {@code plan} for {@code sizes} on {@code target}; lock-dataflow needs its mechanism.
     *
     * @throws GpuLoweringException naming the reason when the variant cannot run there
     */
    public static GpuMapping map(ExecutionPlan plan, Optional<LockMechanism> mechanism, GpuTarget target, int[] sizes) {
        KernelGraph graph = plan.graph();
        unmappable(plan).ifPresent(reason -> {
                    throw new GpuLoweringException(reason);
                });
        return switch (plan) {
            case WavefrontPlan wavefront -> MapWavefront.map(graph, wavefront, target, sizes);
            case DataParallelPlan dataParallel -> MapDataParallel.map(graph, dataParallel, target, sizes, true);
            case DynamicDataflowPlan dynamic -> MapDynamicDataflow.map(graph, dynamic, target, sizes);
            case DataflowPlan dataflow when dataflow.persistent() -> MapBands.map(dataflow, mechanism.orElseThrow(() ->
                    new GpuLoweringException("lock-dataflow:persistent needs a lock mechanism")), target, sizes);
            case DataflowPlan dataflow -> MapLockDataflow.map(graph, dataflow, mechanism.orElseThrow(() ->
                    new GpuLoweringException("lock-dataflow on the GPU model needs a lock mechanism")), target, sizes);
        };
    }
}
