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

    /**
     * The frame, made row by row without the field's domain, holds what the padded array holds above and left of the
     * domain, for a field whose own halo is the common one (fold-mix's t) and for one whose halo is narrower than the
     * common halo (r reads a row back only; s reads two columns back), whose other words stay zero.
     */
    @Test
    void aFoldedFieldsFrameIsItsHaloAboveAndLeftOfTheDomain(@TempDir Path folder) throws Exception {
        dev.finegrain.dsl.Kernel narrow = dev.finegrain.dsl.Finegrain.kernel("narrow")
                .domain(dev.finegrain.dsl.Finegrain.dim("i", "rows"), dev.finegrain.dsl.Finegrain.dim("j", "cols"))
                .state("s", dev.finegrain.dsl.Finegrain.INT, dev.finegrain.dsl.Finegrain.boundary(
                        dev.finegrain.dsl.Finegrain.index("i").times(7).minus(dev.finegrain.dsl.Finegrain.index("j"))))
                .state("r", dev.finegrain.dsl.Finegrain.LONG, dev.finegrain.dsl.Finegrain.boundary(
                        dev.finegrain.dsl.Finegrain.index("j").times(5).plus(dev.finegrain.dsl.Finegrain.index("i")).castTo(
                                dev.finegrain.dsl.Type.LONG)))
                .actor("s", "s", a -> a.read("s", 0, -2).plus(a.read("s", -1, 0)))
                .actor("r", "r", a -> a.read("r", -1, 0).plus(a.read("s", 0, 0).castTo(dev.finegrain.dsl.Type.LONG)))
                .keep("s", dev.finegrain.dsl.Keep.LAST_ROW)
                .keep("r", dev.finegrain.dsl.Keep.FINAL)
                .build();
        for (dev.finegrain.dsl.Kernel kernel : List.of(GpuGoldenCatalog.foldMix(), narrow)) {
            KernelGraph graph = Pipeline.compile(kernel);
            Invocation invocation = graph.kernel().invocation().sizes(SIZES).build();
            Path inputs = folder.resolve(kernel.name());
            CudaFiles.writeInputs(inputs, graph, invocation, false);
            CudaFields layout = CudaFields.of(graph, SIZES);
            Object[] padded = CommonHaloArrays.of(graph, invocation);
            for (IrField field : BandFolding.foldedFields(graph)) {
                assertFalse(Files.exists(inputs.resolve(field.name() + ".bin")), "a state field's padded array is left for a row that needs it");
                ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(inputs.resolve(field.name() + ".frame.bin"))).order(ByteOrder.LITTLE_ENDIAN);
                long[] frame = new long[Math.toIntExact(layout.frameElements())];
                boolean isLong = field.type() == dev.finegrain.dsl.Type.LONG;
                for (int k = 0; k < frame.length; k++) {
                    frame[k] = isLong ? bytes.getLong() : bytes.getInt();
                }
                assertFalse(bytes.hasRemaining(), field.name() + ": the frame's size");
                long extent = layout.extent(1);
                int top = layout.halo().low()[0];
                int left = layout.halo().low()[1];
                for (int row = -top; row < SIZES[0]; row++) {
                    for (int column = -left; column < (row < 0 ? SIZES[1] : 0); column++) {
                        int at = Math.toIntExact((row + top) * extent + column + left);
                        long inPadded = isLong ? ((long[]) padded[field.id()])[at] : ((int[]) padded[field.id()])[at];
                        long inFrame = frame[Math.toIntExact(row < 0 ? (row + top) * extent + column + left
                                : top * extent + (long) row * left + column + left)];
                        assertEquals(inPadded, inFrame, kernel.name() + ": " + field.name() + "[" + row + ", " + column + "]");
                    }
                }
                assertTrue(java.util.Arrays.stream(frame).anyMatch(v -> v != 0), field.name() + ": the boundary is not all zero");
            }
        }
    }
}
