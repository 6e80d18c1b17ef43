package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.gpu.GpuGoldenCatalog;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LockMechanism;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static dev.finegrain.dsl.Finegrain.index;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A band's checked chunks (its first and last) read a sequence along the rows from the register its last step loaded, at
 * the row clamped into the domain, as the steady chunks do; the table row's index is clamped on its own only where it
 * reads the row itself. Every form compiles with {@code nvcc -arch=sm_90} without a warning.
 */
class CudaRowAheadCompileTest {

    @Test
    void checkedStepsLoadTheRowsSequenceAStepAheadAndCompile(@TempDir Path folder) throws IOException {
        List<CudaSource> sources = new ArrayList<>();
        for (int columns : new int[] {1, 4}) {
            String sequenceOnly = source(GpuGoldenCatalog.nwSequences(), columns, sources);
            assertTrue(sequenceOnly.contains("int row_a = __ldg(&f.a[min(max(base - lane, 0), 511)]);"), sequenceOnly);
            assertTrue(sequenceOnly.contains("const int row_a_next = __ldg(&f.a[min(max(i + 1, 0), 511)]);"), sequenceOnly);
            assertFalse(sequenceOnly.contains("const int ic = "), "no index reads the row itself: " + sequenceOnly);
            assertFalse(sequenceOnly.contains("__ldg(&f.a[(ic)])"), sequenceOnly);
        }
        // the table's row index names the row and takes it away again: the same value, but it reads i
        String rowIndexed = source(GpuGoldenCatalog.nwSequences("row-indexed", c -> c.read("a", 0).plus(index("i")).minus(index("i"))), 4, sources);
        assertTrue(rowIndexed.contains("const int ic = min(max(i, 0), 511);   // my row, clamped into the domain"), rowIndexed);
        assumeTrue(CudaToolchain.nvccProblem().isEmpty(), "nvcc is not on the PATH: the CUDA compile part is skipped");
        String log = NvccTogether.compile(folder, sources);
        assertTrue(!log.contains("warning"), "nvcc warned:\n" + log);
    }

    private static String source(Kernel kernel, int columns, List<CudaSource> sources) {
        KernelGraph graph = Pipeline.compile(kernel);
        CudaSource source = new CudaBackend(CudaBackend.DEFAULT_ARCH).source(new Variant(graph,
                SchedulePlanner.plan(graph, lockDataflow().persistent().columnsPerLane(columns)), Optional.of(LockMechanism.TINY_LOCK)),
                new int[] {512, 512});
        sources.add(source);
        return source.text();
    }
}
