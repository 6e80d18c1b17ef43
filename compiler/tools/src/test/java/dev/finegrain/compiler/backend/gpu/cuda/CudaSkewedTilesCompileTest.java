package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.gpu.GpuGoldenCatalog;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.LockMechanism;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Lock-dataflow's skewed tiles for a dependence forward in j (north-east and west) compile with {@code nvcc
 * -arch=sm_90} under every per-thread mechanism, at a size of several tile columns and one of a single column, as one
 * translation unit; the persistent bands still refuse the kernel, naming the wavefront and the skew.
 */
class CudaSkewedTilesCompileTest {

    @Test
    void skewedLockDataflowTilesCompileWithNvcc(@TempDir Path folder) throws IOException {
        assumeTrue(CudaToolchain.nvccProblem().isEmpty(), "nvcc is not on the PATH: the CUDA compile test is skipped");
        KernelGraph graph = Pipeline.compile(GpuGoldenCatalog.northEast());
        CudaBackend backend = new CudaBackend(CudaBackend.DEFAULT_ARCH);
        List<CudaSource> sources = new ArrayList<>();
        for (LockMechanism mechanism : List.of(LockMechanism.TINY_LOCK, LockMechanism.ACQUIRE_RELEASE_FLAG,
                LockMechanism.ATOMIC_SPIN_LOCK, LockMechanism.MBARRIER)) {
            for (int[] sizes : List.of(new int[] {300, 200}, new int[] {40, 1})) {
                CudaSource source = backend.source(new Variant(graph, SchedulePlanner.plan(graph, lockDataflow()),
                        Optional.of(mechanism)), sizes);
                assertTrue(source.text().contains("// the skewed tile column holds j + i"), source.text());
                sources.add(source);
            }
        }
        String log = NvccTogether.compile(folder, sources);
        assertTrue(!log.contains("warning"), "nvcc warned:\n" + log);
    }

    @Test
    void theBandsStillRefuseItNamingBothSchedulesThatTakeIt() {
        KernelGraph graph = Pipeline.compile(GpuGoldenCatalog.northEast());
        CudaBackend backend = new CudaBackend(CudaBackend.DEFAULT_ARCH);
        assertEquals(Optional.empty(), backend.unsupportedKernel(SchedulePlanner.plan(graph, lockDataflow())));
        String bands = backend.unsupportedKernel(SchedulePlanner.plan(graph, lockDataflow().persistent())).orElseThrow();
        assertTrue(bands.endsWith("wavefront takes it on every target, along hyperplane (2,1) on the GPU targets, and"
                + " lock-dataflow's tiles there, skewed (j + i)"), bands);
    }
}
