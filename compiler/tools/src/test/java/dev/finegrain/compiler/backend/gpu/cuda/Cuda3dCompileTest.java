package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.gpu.GpuGoldenCatalog;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static dev.finegrain.dsl.Finegrain.LONG;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.dataParallel;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.index;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static dev.finegrain.dsl.Finegrain.wavefront;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The CUDA of 3D domains compiles with {@code nvcc -arch=sm_90}: wavefront planes (one block, and persistent blocks
 * with the inter-block barrier), a plane that leaves a dimension free, and data-parallel 3D tiles at sizes of whole
 * and partial tiles, in ints, longs and doubles, and lock-dataflow's 3D tiles under three mechanisms, as one
 * translation unit. Skipped where nvcc is missing (except the schedules' verdicts).
 */
class Cuda3dCompileTest {

    /** A recurrence along i alone in longs, reading an input one point ahead in k: the plane (1,0,0), a halo above. */
    private static Kernel planes() {
        return kernel("planes-3d")
                .domain(dim("i", "ni"), dim("j", "nj"), dim("k", "nk"))
                .input("x", LONG, 1)
                .state("h", LONG, boundary(index("j").castTo(dev.finegrain.dsl.Type.LONG)))
                .actor("mix", "h", a -> a.read("h", -1, 0, 0).times(31).plus(a.read("h", -2, 0, 0)).plus(a.read("x", 0, 0, 1)))
                .build();
    }

    /** A sum along every dimension: a channel a plane, a row and a word back. */
    private static Kernel cube() {
        return kernel("cube-3d")
                .domain(dim("i", "ni"), dim("j", "nj"), dim("k", "nk"))
                .state("x", dev.finegrain.dsl.Type.INT, boundary(index("i").minus(index("k"))))
                .actor("sum", "x", a -> a.read("x", -1, 0, 0).plus(a.read("x", 0, -1, 0)).minus(a.read("x", 0, 0, -1)))
                .build();
    }

    private record Case(Kernel kernel, Schedule schedule, int[] sizes, Optional<LockMechanism> mechanism) {
        Case(Kernel kernel, Schedule schedule, int[] sizes) {
            this(kernel, schedule, sizes, Optional.empty());
        }
    }

    @Test
    void threeDimensionalVariantsCompileWithNvcc(@TempDir Path folder) throws IOException {
        assumeTrue(CudaToolchain.nvccProblem().isEmpty(), "nvcc is not on the PATH: the CUDA compile test is skipped");
        List<Case> cases = List.of(
                new Case(GpuGoldenCatalog.box3d(), wavefront(), new int[] {12, 10, 9}),
                new Case(GpuGoldenCatalog.box3d(), wavefront(), new int[] {40, 40, 40}),
                new Case(GpuGoldenCatalog.box3d(), dataParallel(4, 5, 3), new int[] {12, 10, 9}),
                new Case(GpuGoldenCatalog.box3d(), dataParallel(8), new int[] {20, 9, 17}),
                new Case(planes(), wavefront(), new int[] {9, 7, 40}),
                new Case(planes(), dataParallel(3, 7, 8), new int[] {9, 7, 40}),
                new Case(cube(), lockDataflow(), new int[] {9, 7, 40}, Optional.of(LockMechanism.TINY_LOCK)),
                new Case(cube(), lockDataflow(), new int[] {9, 7, 40}, Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG)),
                new Case(cube(), lockDataflow(), new int[] {9, 7, 40}, Optional.of(LockMechanism.ATOMIC_SPIN_LOCK)),
                new Case(planes(), lockDataflow(), new int[] {9, 7, 40}, Optional.of(LockMechanism.TINY_LOCK)));
        CudaBackend backend = new CudaBackend(CudaBackend.DEFAULT_ARCH);
        List<CudaSource> sources = new ArrayList<>();
        for (Case c : cases) {
            KernelGraph graph = Pipeline.compile(c.kernel());
            sources.add(backend.source(new Variant(graph, SchedulePlanner.plan(graph, c.schedule()), c.mechanism()), c.sizes()));
        }
        String log = NvccTogether.compile(folder, sources);
        assertTrue(!log.contains("warning"), "nvcc warned:\n" + log);
    }

    @Test
    void lockDataflowTakes3dTilesAndItsBandsNeed2d() {
        KernelGraph graph = Pipeline.compile(cube());
        CudaBackend backend = new CudaBackend(CudaBackend.DEFAULT_ARCH);
        assertEquals(Optional.empty(), backend.unsupportedKernel(SchedulePlanner.plan(graph, lockDataflow())));
        assertEquals(Optional.empty(), backend.unsupported(SchedulePlanner.plan(graph, lockDataflow()), LockMechanism.TINY_LOCK));
        assertEquals(Optional.of("lock-dataflow:persistent deals bands of columns to warps, which needs a 2D domain; kernel"
                        + " 'cube-3d' has 3 dimension(s); use lock-dataflow"),
                backend.unsupported(SchedulePlanner.plan(graph, lockDataflow().persistent()), LockMechanism.TINY_LOCK));
    }
}
