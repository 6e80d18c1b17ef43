package dev.finegrain.compiler.backend.jvm;

import dev.finegrain.compiler.backend.jvm.code.JClass;
import dev.finegrain.compiler.backend.reference.PaddedFields;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.GoldenKernels;
import dev.finegrain.compiler.pass.Pipeline;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The row layout of aligned storage: pitches, fronts, the frame the class reads, and copies there and back. */
class AlignedStorageTest {

    /** The header HotSpot puts before an int[]'s elements (16 bytes, or 12 with compact object headers). */
    private static final int INT_BASE = intBase();

    @Test
    void alignedRowsPutEveryLaneOfABlockOnOneLine() {
        KernelGraph nw = Pipeline.compile(GoldenKernels.needlemanWunsch());
        for (int[] sizes : new int[][] {{37, 53}, {64, 64}, {100, 4096}}) {
            Object[] padded = PaddedFields.prepare(nw, LaneStripsTest.inputs(GoldenKernels.needlemanWunsch(), sizes));
            AlignedStorage storage = AlignedStorage.of(nw, sizes, new JClass.RowAlignment(1, 16), padded, bytes -> true);
            int[] frame = storage.frame();
            assertArrayEquals(sizes, java.util.Arrays.copyOf(frame, 2));
            assertEquals(16, frame[AlignedStorage.blockAlignmentIndex(2, nw.fields().size())], "blocks start on a line");
            for (int f = 0; f < nw.fields().size(); f++) {
                int[] halo = nw.field(f).haloLow();
                int width = sizes[1] + halo[1] + nw.field(f).haloHigh()[1];
                int pitch = frame[AlignedStorage.pitchIndex(2, f)];
                int front = frame[AlignedStorage.frontIndex(2, f)];
                assertTrue(pitch >= width && pitch < width + 16 && Math.floorMod(pitch, 16) == 1, "pitch " + pitch + " for rows of " + width);
                // the first point, and so (pitch = skew modulo 16) lane r of any block at the right column, starts a line
                int first = front + halo[0] * pitch + halo[1];
                assertEquals(0, (INT_BASE + 4 * first) % 64, nw.field(f).name() + "'s first point starts a line");
            }
            Object[] aligned = storage.align(padded);
            Object[] back = storage.padded(aligned);
            for (int f = 0; f < padded.length; f++) {
                if (nw.field(f).isState()) {
                    assertArrayEquals((int[]) padded[f], (int[]) back[f], "the state comes back as the reference lays it out");
                } else {
                    assertTrue(back[f] == aligned[f], "the inputs are not copied back");
                }
            }
        }
    }

    @Test
    void arraysThatDoNotStartOnALineKeepDenseRows() {
        KernelGraph nw = Pipeline.compile(GoldenKernels.needlemanWunsch());
        int[] sizes = {37, 53};
        Object[] padded = PaddedFields.prepare(nw, LaneStripsTest.inputs(GoldenKernels.needlemanWunsch(), sizes));
        AlignedStorage storage = AlignedStorage.of(nw, sizes, new JClass.RowAlignment(1, 16), padded, bytes -> false);
        Object[] dense = storage.align(padded);
        assertEquals(1, storage.frame()[AlignedStorage.blockAlignmentIndex(2, nw.fields().size())], "blocks start where they would anyway");
        for (int f = 0; f < padded.length; f++) {
            int width = sizes[1] + nw.field(f).haloLow()[1] + nw.field(f).haloHigh()[1];
            assertEquals(width, storage.frame()[AlignedStorage.pitchIndex(2, f)]);
            assertEquals(0, storage.frame()[AlignedStorage.frontIndex(2, f)]);
            assertArrayEquals((int[]) padded[f], (int[]) dense[f]);
        }
    }

    private static int intBase() {
        try {
            return Class.forName("sun.misc.Unsafe").getField("ARRAY_INT_BASE_OFFSET").getInt(null);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
