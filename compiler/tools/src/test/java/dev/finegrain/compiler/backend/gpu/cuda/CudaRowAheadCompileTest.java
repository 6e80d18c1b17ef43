package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.gpu.GpuGoldenCatalog;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.Keep;
import dev.finegrain.dsl.LockMechanism;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.along;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.index;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static dev.finegrain.dsl.Finegrain.max;
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
        String rowIndexed = source(rowIndexed(), 4, sources);
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

    /** The sequence form of Needleman-Wunsch with a table row that names the row index too (and takes it away again). */
    private static Kernel rowIndexed() {
        return kernel("row-indexed")
                .domain(dim("i", "rows"), dim("j", "cols"))
                .input("a", INT, along("i"))
                .input("b", INT, along("j"))
                .table("sub", INT, 24, 24)
                .state("score", INT, boundary(index("i").plus(index("j")).negate()))
                .actor("cell", "score", c -> max(
                        c.read("score", -1, -1).plus(c.lookup("sub", c.read("a", 0).plus(index("i")).minus(index("i")), c.read("b", 0))),
                        c.read("score", -1, 0).minus(1),
                        c.read("score", 0, -1).minus(1)))
                .keep("score", Keep.FINAL)
                .build();
    }
}
