package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.gpu.GpuLoweringException;
import dev.finegrain.compiler.backend.gpu.GpuMapper;
import dev.finegrain.compiler.backend.gpu.GpuMapping;
import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.dsl.GridBarrier;
import dev.finegrain.dsl.LockMechanism;

import java.util.Optional;

/**
 * The entry to the CUDA backend's code generation: maps a plan for a real GPU ({@link GpuMapper}) and spells the
 * mapping as a CUDA C++ translation unit. Every DSL type and operator has a CUDA spelling, so what a GPU cannot run is
 * what its mapping says.
 */
public final class CudaLowering {

    private CudaLowering() {}

    /**
     * The machine behind {@code cuda:<arch>}: the limits of its compute capability ({@link CudaArchitecture}) and the
     * features of its generation.
     *
     * @throws IllegalArgumentException in one line, where the backend cannot plan for the architecture
     */
    public static GpuTarget target(String arch) {
        CudaArchitecture limits = CudaArchitecture.of(arch);
        int version = limits.version();
        // Volta and later schedule threads independently; __syncwarp gives the warp mechanisms their reconvergence.
        boolean hopper = version >= 90;
        return new GpuTarget(arch, arch, 1024, 48 * 1024, 0, true, hopper, false, limits.smCount(), limits.maxThreadsPerSm(),
                limits.maxBlocksPerSm(), true, 8, true, limits.sharedBytesPerSm(), limits.sharedBytesPerBlockOptIn(),
                version >= 80, false, version >= 60,
                GridBarrier.ATOMIC, hopper ? "the best measured on an H200 by finegrain primitives, docs/primitives.md"
                        : "not measured on this architecture; the atomic barrier, as on Hopper", version >= 70,
                dev.finegrain.dsl.Mutex.TEST_AND_SET, hopper ? "the best measured on an H200, docs/gpu.md"
                        : "not measured on this architecture; test-and-set, as on Hopper", hopper, true, true,
                limits.reservedSharedBytesPerBlock(), hopper);
    }

    /** Why no size of this variant can run on the target, if none can. */
    public static Optional<String> unsupported(ExecutionPlan plan, Optional<LockMechanism> mechanism, GpuTarget target) {
        return GpuMapper.unsupported(plan, mechanism, target);
    }

    /**
     * @param showCommand the command that prints the unit again, for its header
     * @throws GpuLoweringException naming the reason when the variant cannot run on the target
     */
    public static CudaSource lower(String id, String describedAs, String showCommand, ExecutionPlan plan,
                                   Optional<LockMechanism> mechanism, GpuTarget target, int[] sizes) {
        GpuMapping mapping = GpuMapper.map(plan, mechanism, target, sizes);
        return CudaSource.of(id, describedAs, showCommand, mapping);
    }
}
