package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.gpu.GpuGoldenCatalog;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.Schedule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
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
 * and partial tiles, in ints, longs and doubles, as one translation unit. Lock-dataflow in 3D is refused with the
 * schedules that take it. Skipped where nvcc is missing (except the refusal).
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

    private record Case(Kernel kernel, Schedule schedule, int[] sizes) {}

    @Test
    void threeDimensionalVariantsCompileWithNvcc(@TempDir Path folder) throws IOException {
        assumeTrue(CudaToolchain.nvccProblem().isEmpty(), "nvcc is not on the PATH: the CUDA compile test is skipped");
        List<Case> cases = List.of(
                new Case(GpuGoldenCatalog.box3d(), wavefront(), new int[] {12, 10, 9}),
                new Case(GpuGoldenCatalog.box3d(), wavefront(), new int[] {40, 40, 40}),
                new Case(GpuGoldenCatalog.box3d(), dataParallel(4, 5, 3), new int[] {12, 10, 9}),
                new Case(GpuGoldenCatalog.box3d(), dataParallel(8), new int[] {20, 9, 17}),
                new Case(planes(), wavefront(), new int[] {9, 7, 40}),
                new Case(planes(), dataParallel(3, 7, 8), new int[] {9, 7, 40}));
        CudaBackend backend = new CudaBackend(CudaBackend.DEFAULT_ARCH);
        List<String> includes = new ArrayList<>();
        for (Case c : cases) {
            KernelGraph graph = Pipeline.compile(c.kernel());
            CudaSource source = backend.source(new Variant(graph, SchedulePlanner.plan(graph, c.schedule()), Optional.empty()),
                    c.sizes());
            Files.writeString(folder.resolve(source.id() + ".cu"), source.text());
            includes.add("#include \"" + source.id() + ".cu\"");
        }
        Files.writeString(folder.resolve(CudaSource.PRELUDE), CudaToolchain.prelude());
        Files.writeString(folder.resolve("all.cu"), String.join("\n", includes) + "\n");
        String log = CudaToolchain.compileObject(folder, "all.cu", CudaBackend.DEFAULT_ARCH);
        assertTrue(!log.contains("warning"), "nvcc warned:\n" + log);
    }

    @Test
    void lockDataflowIn3dIsRefusedNamingTheSchedulesThatTakeIt() {
        KernelGraph graph = Pipeline.compile(GpuGoldenCatalog.box3d());
        assertEquals(Optional.of("lock-dataflow on the GPU tiles 1D and 2D domains (one thread per word of a tile whose rows"
                        + " are a warp wide); box-3d has 3 dimensions: use wavefront or dataParallel(tile), which the GPU"
                        + " targets take in 3D"),
                new CudaBackend(CudaBackend.DEFAULT_ARCH).unsupportedKernel(SchedulePlanner.plan(graph, lockDataflow())));
    }
}
