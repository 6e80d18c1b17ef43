package dev.finegrain.samples;

import dev.finegrain.compiler.backend.gpu.GpuLoweringException;
import dev.finegrain.compiler.backend.gpu.cuda.CudaBackend;
import dev.finegrain.compiler.backend.gpu.cuda.CudaSource;
import dev.finegrain.compiler.backend.gpu.cuda.CudaToolchain;
import dev.finegrain.compiler.compare.ComparisonRequest;
import dev.finegrain.compiler.compare.MechanismChoice;
import dev.finegrain.compiler.compare.Sweep;
import dev.finegrain.dsl.LibraryKernel;
import dev.finegrain.dsl.Schedule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import static dev.finegrain.dsl.Finegrain.dataParallel;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static dev.finegrain.dsl.Finegrain.wavefront;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Every variant of every sample that the cuda backend can run (every schedule, every mechanism the target has, at a
 * size of whole tiles and one that leaves partial tiles) compiles with {@code nvcc -arch=sm_90}, as two translation
 * units side by side so that the suite pays nvcc's start-up twice; the host harness compiles too. Skipped where nvcc is
 * missing.
 */
class CudaCompileTest {

    @Test
    void everyVariantOfEverySampleCompilesWithNvcc(@TempDir Path folder) throws IOException {
        assumeTrue(CudaToolchain.nvccProblem().isEmpty(), "nvcc is not on the PATH: the CUDA compile test is skipped");
        CudaBackend backend = new CudaBackend(CudaBackend.DEFAULT_ARCH);
        List<String> includes = new ArrayList<>();
        TreeSet<String> covered = new TreeSet<>();
        for (LibraryKernel kernel : new SampleLibrary().kernels()) {
            int rank = kernel.kernel().rank();
            ComparisonRequest request = ComparisonRequest.builder(kernel)
                    .sizes(rank == 1 ? List.of(new int[] {512}, new int[] {1000}) : List.of(new int[] {64, 64}, new int[] {100, 60}))
                    .schedules(List.<Schedule>of(wavefront(), lockDataflow(), lockDataflow().persistent(), dataParallel(16)))
                    .backends(List.of(backend))
                    .mechanisms(MechanismChoice.all())
                    .build();
            for (Sweep.Planned row : Sweep.of(request).rows()) {
                if (row.skipReason().isPresent()) {
                    continue;
                }
                CudaSource source;
                try {
                    source = backend.source(row.variant().orElseThrow(), row.sizes());
                } catch (GpuLoweringException doesNotFit) {
                    continue;   // the row would be skipped with this reason, which the mapping tests cover
                }
                Files.writeString(folder.resolve(source.id() + ".cu"), source.text());
                includes.add("#include \"" + source.id() + ".cu\"");
                covered.add(kernel.name() + " " + row.schedule().cliName() + " " + row.mechanismText());
            }
        }
        assertTrue(covered.size() >= 30, "the sweep should cover every sample's schedules and mechanisms: " + covered);
        Files.writeString(folder.resolve(CudaSource.PRELUDE), CudaToolchain.prelude());
        Files.writeString(folder.resolve("harness.cu"), CudaToolchain.harness());
        // two translation units of variants and the harness, on the build machines' two cores (nvcc runs on one)
        int half = includes.size() / 2;
        Files.writeString(folder.resolve("first.cu"), String.join("\n", includes.subList(0, half)) + "\n");
        Files.writeString(folder.resolve("second.cu"), String.join("\n", includes.subList(half, includes.size())) + "\n");
        List<Runnable> builds = List.of(() -> nvcc(folder, "first.cu"), () -> nvcc(folder, "second.cu"),
                () -> nvcc(folder, "harness.cu", "-DFG_VARIANT=any_variant"));
        builds.parallelStream().forEach(Runnable::run);
    }

    private static void nvcc(Path folder, String file, String... defines) {
        String log = CudaToolchain.compileObject(folder, file, CudaBackend.DEFAULT_ARCH, defines);
        assertTrue(!log.contains("warning"), "nvcc warned on " + file + ":\n" + log);
    }
}
