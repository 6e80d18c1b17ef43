package dev.finegrain.gpu.nodes.memory;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import dev.finegrain.gpu.runtime.SimtCostModel;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * Costs of a warp's global accesses: coalesced per line for volatile accesses, one per lane for atomics; loads and
 * stores also pass their 32-byte sectors through the SM's memory port ({@link SimtCostModel#sectorPort}).
 */
final class SimtGlobalLines {
    private SimtGlobalLines() {
    }

    /** The bytes of a sector, the unit in which an SM's memory port moves data. */
    private static final int SECTOR_BYTES = 32;
    private static final int WORDS_PER_SECTOR = SECTOR_BYTES / 4;

    /** Cycles until the slowest line of a coalesced volatile load completes, its sectors through the SM's port. */
    @TruffleBoundary
    static int loadCycles(SimtWarp warp, int[] addresses, int count) {
        if (count == 0) {
            return warp.machine().profile().aluLatency();
        }
        SimtCostModel costs = warp.machine().costs();
        long port = costs.hasSectorPort() ? costs.sectorPort(warp.block().sm(), warp.machine().cycle(),
                distinctSectors(addresses, count), 0) : 0;
        return (int) Math.min(Integer.MAX_VALUE, port + lineCycles(warp, addresses, count));
    }

    /**
     * A store: its lines are busy as for a volatile access and its sectors pass the SM's port, a sector written only
     * in part at the partial-store rate; the warp does not wait for either.
     */
    @TruffleBoundary
    static void store(SimtWarp warp, int[] addresses, int count, boolean wide) {
        if (count == 0) {
            return;
        }
        lineCycles(warp, addresses, count);
        if (!warp.machine().costs().hasSectorPort()) {
            return;
        }
        int sectors = 0;
        int partial = 0;
        long firstWords = firstWords(addresses, count);
        for (int i = 0; i < count; i++) {
            if (isFirstInSector(addresses, i)) {
                sectors++;
                if (wordsInSector(addresses, count, i, wide, firstWords) < WORDS_PER_SECTOR) {
                    partial++;
                }
            }
        }
        warp.machine().costs().sectorPort(warp.block().sm(), warp.machine().cycle(), sectors, partial);
    }

    /** Cycles until the slowest line of a coalesced volatile access completes. */
    private static long lineCycles(SimtWarp warp, int[] addresses, int count) {
        SimtCostModel costs = warp.machine().costs();
        int lineBytes = warp.machine().profile().globalLineBytes();
        long now = warp.machine().cycle();
        long slowest = 0;
        for (int i = 0; i < count; i++) {
            if (isFirstOnLine(addresses, i, lineBytes)) {
                slowest = Math.max(slowest, costs.globalAccess(now, addresses[i], false));
            }
        }
        return slowest;
    }

    /** Cycles until the last of the lanes' atomics completes; each lane is its own access to its line. */
    @TruffleBoundary
    static int atomicCycles(SimtWarp warp, int[] addresses, int count) {
        if (count == 0) {
            return warp.machine().profile().aluLatency();
        }
        SimtCostModel costs = warp.machine().costs();
        long now = warp.machine().cycle();
        long slowest = 0;
        for (int i = 0; i < count; i++) {
            slowest = Math.max(slowest, costs.globalAccess(now, addresses[i], true));
        }
        return (int) Math.min(Integer.MAX_VALUE, slowest);
    }

    private static int distinctSectors(int[] addresses, int count) {
        int sectors = 0;
        for (int i = 0; i < count; i++) {
            if (isFirstInSector(addresses, i)) {
                sectors++;
            }
        }
        return sectors;
    }

    private static boolean isFirstInSector(int[] addresses, int index) {
        return isFirstOnLine(addresses, index, SECTOR_BYTES);
    }

    /**
     * The distinct words the lanes write into the sector of lane {@code index} (two per lane when wide), given
     * {@code firstWords}, the lanes that are the first to write their word: a store costs count² steps, not count³.
     */
    private static int wordsInSector(int[] addresses, int count, int index, boolean wide, long firstWords) {
        int sector = Integer.divideUnsigned(addresses[index], SECTOR_BYTES);
        int words = 0;
        for (int k = 0; k < count; k++) {
            if ((firstWords >>> k & 1) != 0 && Integer.divideUnsigned(addresses[k], SECTOR_BYTES) == sector) {
                words += wide ? 2 : 1;
            }
        }
        return words;
    }

    /** A bit per lane (at most a warp's 32) that is the first of the lanes to write its word. */
    private static long firstWords(int[] addresses, int count) {
        long first = 0;
        for (int index = 0; index < count; index++) {
            boolean seen = false;
            for (int k = 0; k < index && !seen; k++) {
                seen = addresses[k] >>> 2 == addresses[index] >>> 2;
            }
            if (!seen) {
                first |= 1L << index;
            }
        }
        return first;
    }

    private static boolean isFirstOnLine(int[] addresses, int index, int lineBytes) {
        int line = Integer.divideUnsigned(addresses[index], lineBytes);
        for (int k = 0; k < index; k++) {
            if (Integer.divideUnsigned(addresses[k], lineBytes) == line) {
                return false;
            }
        }
        return true;
    }
}
