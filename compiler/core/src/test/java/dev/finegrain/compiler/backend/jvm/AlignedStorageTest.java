package dev.finegrain.compiler.backend.jvm;

import dev.finegrain.compiler.backend.jvm.code.JClass;
import dev.finegrain.compiler.backend.jvm.layout.AlignedStorage;
import dev.finegrain.compiler.backend.reference.PaddedFields;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.GoldenKernels;
import dev.finegrain.compiler.pass.Pipeline;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Array;

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
            AlignedStorage storage = AlignedStorage.of(nw, sizes, new JClass.RowAlignment(1, 16), padded, 1, bytes -> true);
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
        AlignedStorage storage = AlignedStorage.of(nw, sizes, new JClass.RowAlignment(1, 16), padded, 1, bytes -> false);
        Object[] dense = storage.align(padded);
        assertEquals(1, storage.frame()[AlignedStorage.blockAlignmentIndex(2, nw.fields().size())], "blocks start where they would anyway");
        for (int f = 0; f < padded.length; f++) {
            int width = sizes[1] + nw.field(f).haloLow()[1] + nw.field(f).haloHigh()[1];
            assertEquals(width, storage.frame()[AlignedStorage.pitchIndex(2, f)]);
            assertEquals(0, storage.frame()[AlignedStorage.frontIndex(2, f)]);
            assertArrayEquals((int[]) padded[f], (int[]) dense[f]);
        }
    }

    /**
     * Band blocks for 3 workers of bands of whole groups of 8: each band's columns, with the halo column west of it, in
     * a block of rows of its own whose first point starts a line; every point of the reference's layout at its place in
     * the block of the band that holds it, and the state back as the reference lays it out, halo columns included.
     */
    @Test
    void bandBlocksHoldEachBandsColumnsAndTheirHalo() {
        KernelGraph nw = Pipeline.compile(GoldenKernels.needlemanWunsch());
        int[] sizes = {37, 53};
        Object[] padded = PaddedFields.prepare(nw, LaneStripsTest.inputs(GoldenKernels.needlemanWunsch(), sizes));
        for (boolean lineStart : new boolean[] {true, false}) {
            AlignedStorage storage = AlignedStorage.of(nw, sizes, new JClass.RowAlignment(0, 16, 8, 0), padded, 3, bytes -> lineStart);
            int[] frame = storage.frame();
            int band = AlignedStorage.bandWidth(53, 3, 8);
            assertEquals(24, band, "ceil(53 / 3) = 18 columns, rounded up to whole groups of 8");
            Object[] blocks = storage.align(padded);
            for (int f = 0; f < padded.length; f++) {
                int haloLow = nw.field(f).haloLow()[1];
                int width = sizes[1] + haloLow + nw.field(f).haloHigh()[1];
                int pitch = frame[AlignedStorage.pitchIndex(2, f)];
                int front = frame[AlignedStorage.frontIndex(2, f)];
                int stride = frame[AlignedStorage.blockStrideIndex(2, nw.fields().size(), f)];
                int span = band + width - sizes[1];
                assertEquals(lineStart ? span + Math.floorMod(-span, 16) : span, pitch, "a block's rows hold its band and the halo columns");
                int rows = 37 + nw.field(f).haloLow()[0] + nw.field(f).haloHigh()[0];
                assertEquals(rows * pitch, stride);
                for (int b = 0; b < 3 && lineStart; b++) {
                    int first = front + b * stride + nw.field(f).haloLow()[0] * pitch + haloLow;
                    assertEquals(0, (INT_BASE + 4 * first) % 64, nw.field(f).name() + "'s first point of band " + b + " starts a line");
                }
                for (int row = 0; row < rows; row++) {
                    for (int column = 0; column < width; column++) {
                        for (int b = 0; b < 3; b++) {
                            if (column >= b * band && column < Math.min(width, b * band + span)) {
                                assertEquals(((int[]) padded[f])[row * width + column], ((int[]) blocks[f])[front + b * stride + row * pitch + column - b * band],
                                        nw.field(f).name() + " row " + row + " column " + column + " in block " + b);
                            }
                        }
                    }
                }
                if (nw.field(f).isState()) {
                    assertArrayEquals((int[]) padded[f], (int[]) storage.padded(blocks)[f], "the state comes back as the reference lays it out");
                }
            }
        }
    }

    /**
     * Column blocks of 16 for a 48 x 64 domain: four blocks whose rows are dense (the band and its halo columns, on a
     * machine that would align rows too), the same layout for every team size; every point of the reference's layout at
     * its place in each block that holds it, and the state back as the reference lays it out.
     */
    @Test
    void columnBlocksAreDenseAndTheSameForEveryTeam() {
        KernelGraph nw = Pipeline.compile(GoldenKernels.needlemanWunsch());
        int[] sizes = {48, 64};
        Object[] padded = PaddedFields.prepare(nw, LaneStripsTest.inputs(GoldenKernels.needlemanWunsch(), sizes));
        JClass.RowAlignment columns = new JClass.RowAlignment(0, 16, 0, 16);
        AlignedStorage storage = AlignedStorage.of(nw, sizes, columns, padded, 1, bytes -> true);
        assertArrayEquals(storage.frame(), AlignedStorage.of(nw, sizes, columns, padded, 3, bytes -> true).frame(),
                "the blocks are a tile's width, whatever the team");
        int[] frame = storage.frame();
        Object[] blocks = storage.align(padded);
        for (int f = 0; f < padded.length; f++) {
            int width = sizes[1] + nw.field(f).haloLow()[1] + nw.field(f).haloHigh()[1];
            int span = 16 + width - sizes[1];
            int pitch = frame[AlignedStorage.pitchIndex(2, f)];
            int stride = frame[AlignedStorage.blockStrideIndex(2, nw.fields().size(), f)];
            int rows = 48 + nw.field(f).haloLow()[0] + nw.field(f).haloHigh()[0];
            assertEquals(span, pitch, nw.field(f).name() + "'s block rows are dense: the tile's columns and the halo");
            assertEquals(0, frame[AlignedStorage.frontIndex(2, f)]);
            assertEquals(rows * pitch, stride);
            assertEquals(4 * stride, Array.getLength(blocks[f]));
            for (int row = 0; row < rows; row++) {
                for (int column = 0; column < width; column++) {
                    for (int b = 0; b < 4; b++) {
                        if (column >= b * 16 && column < b * 16 + span) {
                            assertEquals(((int[]) padded[f])[row * width + column], ((int[]) blocks[f])[b * stride + row * pitch + column - b * 16],
                                    nw.field(f).name() + " row " + row + " column " + column + " in block " + b);
                        }
                    }
                }
            }
            if (nw.field(f).isState()) {
                assertArrayEquals((int[]) padded[f], (int[]) storage.padded(blocks)[f], "the state comes back as the reference lays it out");
            }
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
