package dev.finegrain.gpu.runtime;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An SM's read-only data cache ({@code cache.readOnlyLines} lines of {@code global.lineBytes}, least recently used
 * out), which serves {@code LDG.CONSTANT}, CUDA's {@code __ldg}: data no kernel writes while it runs, such as a
 * kernel's inputs, read again within a short while (a band's sequence values, step after step). A load whose every line
 * is held costs {@code latency.readOnlyHit}; any other goes to the L2 as a plain load does and brings its lines in.
 * Plain loads neither use nor fill it, as the model has no L1 for them.
 */
public final class SimtReadOnlyCache {

    private final int lineBytes;
    private final Map<Integer, Boolean> lines;

    SimtReadOnlyCache(int capacityLines, int lineBytes) {
        this.lineBytes = lineBytes;
        this.lines = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Integer, Boolean> eldest) {
                return size() > capacityLines;
            }
        };
    }

    /**
     * Whether every line of the {@code count} byte addresses is held; either way each is then held, the most recently
     * used.
     */
    @TruffleBoundary
    public boolean access(int[] byteAddresses, int count) {
        boolean all = true;
        for (int i = 0; i < count; i++) {
            int line = Integer.divideUnsigned(byteAddresses[i], lineBytes);
            if (lines.get(line) == null) {
                all = false;
                lines.put(line, Boolean.TRUE);
            }
        }
        return all;
    }
}
