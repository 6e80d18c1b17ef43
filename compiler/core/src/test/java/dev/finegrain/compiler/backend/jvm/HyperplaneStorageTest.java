package dev.finegrain.compiler.backend.jvm;

import dev.finegrain.compiler.backend.jvm.lanes.StripMapping;
import dev.finegrain.compiler.backend.jvm.layout.HyperplaneStorage;
import dev.finegrain.compiler.backend.reference.PaddedFields;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.GoldenKernels;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.runtime.jvm.HyperplaneLayout;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Array;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Storage along hyperplanes: every padded element at the place the runtime's layout gives it, and the state back. */
class HyperplaneStorageTest {

    @Test
    void everyElementLiesWhereTheClassLooksForItAndTheStateComesBack() {
        java.util.Set<Integer> seenSkews = new java.util.TreeSet<>();
        // int fields with a halo (Needleman-Wunsch, skew 1), long fields with an index in the body, a skew of 2, and none
        for (var kernel : java.util.List.of(GoldenKernels.needlemanWunsch(), LaneStripsTest.longsWithIndices(), LaneStripsTest.reachesAndIndices(),
                LaneStripsTest.unskewed())) {
            KernelGraph graph = Pipeline.compile(kernel);
            int skew = StripMapping.of(graph).mapping().orElseThrow().skew();
            seenSkews.add(skew);
            for (int[] sizes : new int[][] {{1, 1}, {3, 17}, {37, 5}}) {
                Object[] padded = PaddedFields.prepare(graph, LaneStripsTest.inputs(kernel, sizes));
                HyperplaneStorage storage = HyperplaneStorage.of(graph, sizes, skew);
                assertArrayEquals(sizes, storage.frame(), "the frame is the sizes alone");
                Object[] laidOut = storage.align(padded);
                for (IrField field : graph.fields()) {
                    int rows = sizes[0] + field.haloLow()[0] + field.haloHigh()[0];
                    int columns = sizes[1] + field.haloLow()[1] + field.haloHigh()[1];
                    int[] origins = HyperplaneLayout.origins(rows, columns, skew);
                    for (int r = 0; r < rows; r++) {
                        for (int c = 0; c < columns; c++) {
                            assertEquals(Array.get(padded[field.id()], r * columns + c), Array.get(laidOut[field.id()], origins[skew * r + c] + r),
                                    kernel.name() + " " + field.name() + " (" + r + ", " + c + ") at " + sizes[0] + "x" + sizes[1]);
                        }
                    }
                }
                Object[] back = storage.padded(laidOut);
                for (IrField field : graph.fields()) {
                    if (field.isState()) {
                        assertTrue(java.util.Objects.deepEquals(padded[field.id()], back[field.id()]), field.name() + " comes back as the reference lays it out");
                    } else {
                        assertTrue(back[field.id()] == laidOut[field.id()], "the inputs are not copied back");
                    }
                }
            }
        }
        assertEquals(java.util.Set.of(0, 1, 2), seenSkews, "skews 0, 1 and 2");
    }
}
