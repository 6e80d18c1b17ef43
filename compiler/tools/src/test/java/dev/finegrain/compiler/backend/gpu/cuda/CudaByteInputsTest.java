package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.gpu.CommonHaloArrays;
import dev.finegrain.compiler.backend.gpu.GpuGoldenCatalog;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.KernelDefinitionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A byte input on CUDA: the files hold it a byte an element, the harness is told so, the roofline counts 1 byte. */
class CudaByteInputsTest {

    private static final int[] SIZES = {9, 7};

    private static KernelGraph nwByte() {
        return Pipeline.compile(GpuGoldenCatalog.CATALOG.find("nw-byte").orElseThrow().kernel());
    }

    private static Invocation invocation(KernelGraph graph, int[] reference) {
        return graph.kernel().invocation().sizes(SIZES).param("penalty", 10).input("reference", reference).build();
    }

    @Test
    void aByteInputsFileHoldsItsPaddedValuesAByteEach(@TempDir Path folder) throws Exception {
        KernelGraph graph = nwByte();
        int[] reference = new SplittableRandom(7).ints(SIZES[0] * SIZES[1], -128, 128).toArray();
        Invocation invocation = invocation(graph, reference);
        CudaFiles.writeInputs(folder, graph, invocation, true);
        int[] padded = (int[]) CommonHaloArrays.of(graph, invocation, true)[graph.field("reference").id()];
        byte[] written = Files.readAllBytes(folder.resolve("reference.bin"));
        assertEquals(padded.length, written.length);
        for (int k = 0; k < padded.length; k++) {
            assertEquals(padded[k], written[k], "element " + k);
        }
        assertEquals(4L * padded.length, Files.size(folder.resolve("score.bin")), "the state field stays ints, in the same padded layout");
    }

    @Test
    void aValueThatNoLongerFitsAByteIsRefusedNotWrapped(@TempDir Path folder) {
        KernelGraph graph = nwByte();
        int[] reference = new int[SIZES[0] * SIZES[1]];
        Invocation invocation = invocation(graph, reference);
        reference[10] = 200;   // the array is shared with the caller, who wrote it after build()
        KernelDefinitionException refused = assertThrows(KernelDefinitionException.class,
                () -> CudaFiles.writeInputs(folder, graph, invocation, true));
        assertTrue(refused.getMessage().contains("reference") && refused.getMessage().contains("200"), refused.getMessage());
    }

    /** Every form of the byte ring (1 to 8 columns a lane, a row whose band starts at each byte of a word) compiles with nvcc. */
    @Test
    void everyByteRingCompilesWithNvcc(@TempDir Path folder) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(CudaToolchain.nvccProblem().isEmpty(),
                "nvcc is not on the PATH: the CUDA compile test is skipped");
        KernelGraph graph = nwByte();
        CudaBackend backend = new CudaBackend(CudaBackend.DEFAULT_ARCH);
        List<CudaSource> sources = new java.util.ArrayList<>();
        for (int columns : new int[] {1, 2, 4, 8}) {
            for (int[] sizes : List.of(new int[] {300, 301}, new int[] {100, 66})) {
                CudaSource source = backend.source(new dev.finegrain.compiler.backend.Variant(graph,
                        dev.finegrain.compiler.plan.SchedulePlanner.plan(graph, dev.finegrain.dsl.Finegrain.lockDataflow()
                                .persistent().columnsPerLane(columns)), java.util.Optional.of(dev.finegrain.dsl.LockMechanism.TINY_LOCK)), sizes);
                assertTrue(source.text().contains("a byte each, row r's first column"), source.text());
                sources.add(source);
            }
        }
        String log = NvccTogether.compile(folder, sources);
        assertTrue(!log.contains("error"), "nvcc failed:\n" + log);
    }

    @Test
    void theHarnessAndTheRooflineCountAByteAnElement() {
        KernelGraph graph = nwByte();
        CudaSource source = CudaLowering.lower("v", "nw-byte", "finegrain show nw-byte --cuda", dev.finegrain.compiler.plan.SchedulePlanner.plan(graph,
                dev.finegrain.dsl.Finegrain.dataParallel(16)), java.util.Optional.empty(), CudaLowering.target("sm_90"), new int[] {64, 64});
        assertTrue(source.text().contains("{\"reference\", 1, 0, 2,"), source.text());
        assertTrue(source.text().contains("const signed char* reference;"), source.text());
        assertEquals(5, CudaMemoryBound.bytesPerPoint(graph));
        assertEquals(5, CudaMemoryBound.bytesPerPoint(graph, List.of()));
    }
}
