package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.gpu.BandMapping;
import dev.finegrain.compiler.backend.gpu.DataParallelMapping;
import dev.finegrain.compiler.backend.gpu.DynamicDataflowMapping;
import dev.finegrain.compiler.backend.gpu.GpuLoweringException;
import dev.finegrain.compiler.backend.gpu.GpuMapper;
import dev.finegrain.compiler.backend.gpu.GpuMapping;
import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.backend.gpu.LockDataflowMapping;
import dev.finegrain.compiler.backend.gpu.WavefrontMapping;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.plan.DataflowPlan;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;
import dev.finegrain.gpu.runtime.SimtProfile;

import java.util.Optional;

/**
 * The entry to the GPU model's lowering: checks that the kernel can be mapped, has the plan mapped
 * ({@link GpuMapper}) and spells the mapping in the model ISA, one emitter per schedule.
 */
public final class SimtLowering {

    private SimtLowering() {}

    /**
     * Why the GPU model cannot run this kernel at all, if it cannot: every type and operator has a lowering, so only
     * the mapping's requirements of a kernel remain ({@link GpuMapper#unmappableKernel}).
     */
    public static Optional<String> unsupportedKernel(KernelGraph graph) {
        return GpuMapper.unmappableKernel(graph);
    }

    /**
     * Why the model cannot run this plan (with this mechanism, for lock-dataflow) on the profile at any size, if it
     * cannot: the kernel's fit to the model ISA, the mapping's size-free checks, and the model ISA's own limits.
     */
    public static Optional<String> unsupported(ExecutionPlan plan, Optional<LockMechanism> mechanism, SimtProfile profile) {
        GpuTarget target = GpuTarget.of(profile);
        // the bands hand tokens along their edges, not per point: the tiles' limits on a point's channels do not apply
        return unsupportedKernel(plan.graph()).or(() -> GpuMapper.unsupported(plan, mechanism, target)).or(() ->
                plan instanceof DataflowPlan dataflow && !persistent(plan) ? SimtLockDataflow.unsupported(plan.graph(),
                        GpuMapper.effectiveMechanism(plan, mechanism.orElseThrow(), target), target,
                        GpuMapper.tokenWaits(dataflow).size()) : Optional.empty());
    }

    /**
     * The mapping of {@code plan} on the profile's machine, checked against what the model ISA can spell.
     *
     * @throws GpuLoweringException naming the reason when the variant cannot run on the profile
     */
    public static GpuMapping map(ExecutionPlan plan, Optional<LockMechanism> mechanism, SimtProfile profile, int[] sizes) {
        unsupportedKernel(plan.graph()).ifPresent(reason -> {
            throw new GpuLoweringException(reason);
        });
        GpuMapping mapping = GpuMapper.map(plan, mechanism, GpuTarget.of(profile), sizes);
        if (mapping instanceof LockDataflowMapping dataflow) {
            SimtLockDataflow.unsupported(dataflow.graph(), dataflow.mechanism().id(), dataflow.target(),
                    dataflow.channels().size()).ifPresent(reason -> {
                        throw new GpuLoweringException(reason);
                    });
        }
        return mapping;
    }

    /**
     * Lowers {@code plan} for {@code sizes}: sizes are folded into the program as constants, params are read from
     * global memory. Throws {@link GpuLoweringException} when the variant cannot run on {@code profile}.
     */
    public static SimtKernel lower(ExecutionPlan plan, Optional<LockMechanism> mechanism, SimtProfile profile, int[] sizes) {
        return emit(map(plan, mechanism, profile, sizes), new GlobalLayout(plan.graph(), sizes));
    }

    private static boolean persistent(ExecutionPlan plan) {
        return plan.schedule() instanceof Schedule.LockDataflow lock && lock.persistentLaunch();
    }

    static SimtKernel emit(GpuMapping mapping, GlobalLayout layout) {
        return switch (mapping) {
            case WavefrontMapping wavefront -> SimtWavefront.emit(wavefront, layout);
            case DataParallelMapping dataParallel -> SimtDataParallel.emit(dataParallel, layout);
            case DynamicDataflowMapping dynamic -> SimtDynamicDataflow.emit(dynamic, layout);
            case LockDataflowMapping dataflow -> SimtLockDataflow.emit(dataflow, layout);
            case BandMapping bands -> SimtBands.emit(bands, layout);
        };
    }
}
