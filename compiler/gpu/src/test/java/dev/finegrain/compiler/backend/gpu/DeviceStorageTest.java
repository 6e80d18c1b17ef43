package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.backend.gpu.cuda.CudaLowering;
import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;
import dev.finegrain.dsl.Storage;
import dev.finegrain.gpu.runtime.SimtProfile;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.index;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static dev.finegrain.dsl.Finegrain.max;
import static dev.finegrain.dsl.Finegrain.param;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A byte input's place in device memory: packed on every CUDA target, a word on the model; a band's byte ring. */
class DeviceStorageTest {

    private static final GpuTarget H200_MODEL = GpuTarget.of(SimtProfile.load("hopper-h200"));

    private static Kernel nw(Storage storage) {
        return kernel("nw-" + storage.name().toLowerCase(java.util.Locale.ROOT))
                .domain(dim("i", "rows"), dim("j", "cols"))
                .param("penalty", INT)
                .input("reference", INT, storage)
                .state("score", INT, boundary(index("i").plus(index("j")).plus(2).times(param("penalty")).negate()))
                .actor("cell", "score", a -> max(
                        a.read("score", -1, -1).plus(a.read("reference", 0, 0)),
                        a.read("score", -1, 0).minus(a.param("penalty")),
                        a.read("score", 0, -1).minus(a.param("penalty"))))
                .build();
    }

    private static BandMapping bands(Kernel kernel, GpuTarget target, int columns, int... sizes) {
        KernelGraph graph = Pipeline.compile(kernel);
        Schedule.LockDataflow schedule = lockDataflow().persistent().columnsPerLane(columns);
        return (BandMapping) GpuMapper.map(SchedulePlanner.plan(graph, schedule), Optional.of(LockMechanism.TINY_LOCK), target, sizes);
    }

    @Test
    void everyCudaTargetPacksAByteInputAndTheModelKeepsItAWord() {
        KernelGraph graph = Pipeline.compile(nw(Storage.BYTE));
        for (String arch : new String[] {"sm_75", "sm_80", "sm_90", "sm_120"}) {
            GpuTarget cuda = CudaLowering.target(arch);
            assertTrue(DeviceStorage.packsBytes(graph, graph.field("reference"), cuda), arch);
            assertEquals(1, DeviceStorage.elementBytes(graph, graph.field("reference"), cuda), arch);
            assertEquals(4, DeviceStorage.elementBytes(graph, graph.field("score"), cuda), arch);
        }
        assertFalse(DeviceStorage.packsBytes(graph, graph.field("reference"), H200_MODEL));
        assertEquals(4, DeviceStorage.elementBytes(graph, graph.field("reference"), H200_MODEL));
        KernelGraph natural = Pipeline.compile(nw(Storage.NATURAL));
        assertFalse(DeviceStorage.packsBytes(natural, natural.field("reference"), CudaLowering.target("sm_90")));
    }

    @Test
    void aBandCopiesAByteInputIntoARingOfBytesOnCudaAndOfWordsOnTheModel() {
        BandMapping cuda = bands(nw(Storage.BYTE), CudaLowering.target("sm_90"), 4, 300, 301);
        BandMapping.Ring ring = cuda.inputRings().getFirst();
        assertTrue(ring.packsBytes());
        assertEquals(BandMapping.byteRingStride(4), ring.stride());
        assertEquals(BandMapping.HELPER_INPUT_RING_ROWS * 136, ring.bytes(), "the helper warps' ring of bytes");
        assertTrue(cuda.describe().contains("a byte each, in whole words"), cuda.describe());
        BandMapping model = bands(nw(Storage.BYTE), H200_MODEL, 4, 300, 301);
        assertFalse(model.inputRings().getFirst().packsBytes());
        assertEquals(bands(nw(Storage.NATURAL), H200_MODEL, 4, 300, 301).warpSharedBytes(), model.warpSharedBytes());
    }

    /**
     * The stride keeps the lanes (each on its own row, at its own shift in a word) within three to a bank (two for 1, 4,
     * 8 and 16 columns; no stride of up to 8 more words does better for any), and holds the band with the word its first
     * column may be shifted into.
     */
    @Test
    void aByteRingsStrideSpreadsTheLanesRowsOverTheBanks() {
        for (int columns : new int[] {1, 2, 4, 6, 8, 16}) {
            int stride = BandMapping.byteRingStride(columns);
            assertEquals(0, stride % 4, "whole words");
            assertTrue(stride >= 32 * columns + 4, "the band and a word");
            for (int extentMod4 = 0; extentMod4 < 4; extentMod4++) {
                int chosen = worstConflict(columns, stride / 4, extentMod4);
                assertTrue(chosen <= 3, columns + " columns, extent mod 4 = " + extentMod4 + ": " + chosen + " lanes on one bank");
            }
        }
        assertEquals(1, worstConflict(4, BandMapping.byteRingStride(4) / 4, 0), "4 columns, rows of whole words: no conflict");
        assertEquals(32, worstConflict(4, 33, 0), "the band and one word would put every lane on one bank");
    }

    /** The most distinct words any bank serves when the 32 lanes read column c of their rows s - l, over a few steps. */
    private static int worstConflict(int columns, int strideWords, int extentMod4) {
        int worst = 0;
        for (int s = 64; s < 72; s++) {
            for (int c = 0; c < columns; c++) {
                Map<Integer, Set<Integer>> banks = new HashMap<>();
                for (int lane = 0; lane < 32; lane++) {
                    int row = s - lane;
                    int shift = ((row + 1) * extentMod4 + 1) & 3;
                    int word = ((row & 127) * strideWords * 4 + shift + lane * columns + c) / 4;
                    banks.computeIfAbsent(word % 32, b -> new HashSet<>()).add(word);
                }
                for (Set<Integer> words : banks.values()) {
                    worst = Math.max(worst, words.size());
                }
            }
        }
        return worst;
    }

    /**
     * The shift is the band's first column's place in its word: for every extent mod 4, halo and band, the shift of a row
     * (the halo's negative rows included) is the padded index's low two bits, and the spelling uses the same terms.
     */
    @Test
    void theShiftOfARowIsItsFirstColumnsPlaceInAWord() {
        for (long extent : new long[] {64, 65, 66, 67, 16385}) {
            for (int haloRows = 0; haloRows <= 2; haloRows++) {
                for (int haloColumns = 0; haloColumns <= 5; haloColumns++) {
                    BandMapping.ByteShift shift = BandMapping.ByteShift.of(haloRows, extent, haloColumns);
                    for (int band = 0; band < 4; band++) {
                        for (int row = -haloRows; row < 40; row++) {
                            long first = (row + haloRows) * extent + band * 128L + haloColumns;
                            assertEquals(first & 3, shift.at(row), "extent " + extent + ", halos " + haloRows + "/" + haloColumns
                                    + ", row " + row);
                        }
                    }
                }
            }
        }
        assertEquals("1", BandMapping.ByteShift.of(1, 64, 1).spell("r"));
        assertEquals("((r) + 2) & 3", BandMapping.ByteShift.of(1, 16385, 1).spell("r"));
        assertEquals("((r) * 3) & 3", BandMapping.ByteShift.of(1, 71, 1).spell("r"));
    }
}
