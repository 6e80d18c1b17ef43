package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.gpu.BandFolding;
import dev.finegrain.compiler.backend.gpu.BandMapping;
import dev.finegrain.compiler.backend.gpu.CommonHaloArrays;
import dev.finegrain.compiler.backend.gpu.GpuGoldenCatalog;
import dev.finegrain.compiler.backend.reference.SequentialOracle;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.LockMechanism;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The files a folded CUDA run reads and writes, without a GPU: a folded field's halo frame is its padded array's halo
 * above and left of the domain, and the oracle's kept values and reductions, written as a bundle's expected outputs and
 * read back as a run's outputs, are the oracle's outputs again (positions included), beside a field kept whole.
 */
class CudaFoldedFilesTest {

    private static final int[] SIZES = {37, 70};

    @Test
    void theOraclesKeptValuesAndReductionsComeBackWhole(@TempDir Path folder) throws Exception {
        KernelGraph graph = Pipeline.compile(GpuGoldenCatalog.foldMix());
        Invocation invocation = graph.kernel().invocation().sizes(SIZES).build();
        KernelOutputs oracle = SequentialOracle.run(graph, invocation);
        BandMapping bands = (BandMapping) new CudaBackend(CudaBackend.DEFAULT_ARCH).map(new Variant(graph,
                SchedulePlanner.plan(graph, lockDataflow().persistent()), Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG)), SIZES);
        BandFolding folding = bands.folding();
        assertEquals(List.of("t", "w"), folding.fields().stream().map(IrField::name).toList());
        assertEquals(List.of("min(t)", "sum(t)", "max(w)", "sum(w)"), folding.reductions().stream().map(r -> r.name()).toList());
        assertFalse(folding.foldsEveryStateField(), "u is kept whole");

        CudaFiles.writeFolded(folder, graph, SIZES, oracle);
        CudaFiles.writeDomains(folder, graph, SequentialOracle.wholeFields(graph, invocation));
        KernelOutputs back = CudaFiles.readOutputs(folder, graph, SIZES, folding);

        assertEquals(Optional.empty(), oracle.firstDifference(graph, SIZES, back));
        assertEquals(oracle.reductions(), back.reductions());
        assertFalse(oracle.reduction("max(w)").orElseThrow().position().isEmpty(), "max(w) has its point");
    }

    /**
     * A folded field whose frame is empty (no read leaves the point, so the common halo is 0) is still folded for the
     * harness: it reads an empty frame file, not a padded array the bundle never writes.
     */
    @Test
    void aFoldedFieldWithAnEmptyFrameIsStillFolded(@TempDir Path folder) throws Exception {
        dev.finegrain.dsl.Kernel pointwise = dev.finegrain.dsl.Finegrain.kernel("pointwise")
                .domain(dev.finegrain.dsl.Finegrain.dim("i", "rows"), dev.finegrain.dsl.Finegrain.dim("j", "cols"))
                .state("s", dev.finegrain.dsl.Finegrain.INT)
                .actor("s", "s", a -> a.index("i").times(3).minus(a.index("j")))
                .keep("s", dev.finegrain.dsl.Keep.FINAL)
                .build();
        KernelGraph graph = Pipeline.compile(pointwise);
        CudaSource source = new CudaBackend(CudaBackend.DEFAULT_ARCH).source(new Variant(graph,
                SchedulePlanner.plan(graph, lockDataflow().persistent()), Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG)), SIZES);
        assertTrue(source.text().contains("{\"s\", 4, 1, 2, {37, 70, 1}, {0, 0, 0}, {37, 70, 1}, 0, 1},"), source.text());
        Invocation invocation = graph.kernel().invocation().sizes(SIZES).build();
        CudaFiles.writeInputs(folder, graph, invocation, false);
        assertEquals(0, Files.size(folder.resolve("s.frame.bin")));
    }

    @Test
    void aFoldedFieldsFrameIsItsHaloAboveAndLeftOfTheDomain(@TempDir Path folder) throws Exception {
        KernelGraph graph = Pipeline.compile(GpuGoldenCatalog.foldMix());
        Invocation invocation = graph.kernel().invocation().sizes(SIZES).build();
        CudaFiles.writeInputs(folder, graph, invocation, false);
        assertFalse(Files.exists(folder.resolve("t.bin")), "a state field's padded array is left for a row that needs it");

        CudaFields layout = CudaFields.of(graph, SIZES);
        long[] padded = (long[]) CommonHaloArrays.of(graph, invocation)[graph.field("t").id()];
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(folder.resolve("t.frame.bin"))).order(ByteOrder.LITTLE_ENDIAN);
        long[] frame = new long[Math.toIntExact(layout.frameElements())];
        bytes.asLongBuffer().get(frame);
        assertEquals(frame.length * 8L, Files.size(folder.resolve("t.frame.bin")));
        long extent = layout.extent(1);
        int top = layout.halo().low()[0];
        int left = layout.halo().low()[1];
        for (int row = -top; row < SIZES[0]; row++) {
            for (int column = -left; column < (row < 0 ? SIZES[1] : 0); column++) {
                long inPadded = padded[Math.toIntExact((row + top) * extent + column + left)];
                long inFrame = frame[Math.toIntExact(row < 0 ? (row + top) * extent + column + left
                        : top * extent + (long) row * left + column + left)];
                assertEquals(inPadded, inFrame, "t[" + row + ", " + column + "]");
            }
        }
        assertTrue(java.util.Arrays.stream(frame).anyMatch(v -> v != 0), "the boundary is not all zero");
    }
}
