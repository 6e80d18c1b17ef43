package dev.finegrain.gpu.nodes.memory;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import dev.finegrain.gpu.runtime.SimtCostModel;
import dev.finegrain.gpu.runtime.SimtWarp;

/** Costs of a warp's global accesses: coalesced per line for volatile accesses, one per lane for atomics. */
final class SimtGlobalLines {
    private SimtGlobalLines() {
    }

    /** Cycles until the slowest line of a coalesced volatile access completes. */
    @TruffleBoundary
    static int volatileCycles(SimtWarp warp, int[] addresses, int count) {
        if (count == 0) {
            return warp.machine().profile().aluLatency();
        }
        SimtCostModel costs = warp.machine().costs();
        int lineBytes = warp.machine().profile().globalLineBytes();
        long now = warp.machine().cycle();
        long slowest = 0;
        for (int i = 0; i < count; i++) {
            if (isFirstOnLine(addresses, i, lineBytes)) {
                slowest = Math.max(slowest, costs.globalAccess(now, addresses[i], false));
            }
        }
        return (int) Math.min(Integer.MAX_VALUE, slowest);
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
