package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;

/**
 * How many rows a band edge holds at once when the kernel folds its storage: a ring, so that the edge takes
 * bands x columns x ring rows of device memory rather than bands x columns x rows, and a run's memory grows with the
 * sequences, not with their product.
 *
 * <p>A band writes row r into the slot of row r - R only once the band to its right has copied that row into its
 * window, as that band's free counter says. The ring must be long enough that this never closes a cycle of waits:
 * <ul>
 *   <li>Within bands that run at once: a band at chunk b has published rows up to b - 32 (less a token group), so the band
 *       to its right has copied every window up to chunk b - 64 and freed the rows below b - 32 - lookback; a band
 *       writes at most row b + 31 in its chunk, so a ring of at least 3 x 32 + lookback + group rows never stops it
 *       while the band to its right is still moving; a counter published every {@link #FREE_EVERY_CHUNKS} chunks lags
 *       by up to that many chunks less one, which the slack adds.</li>
 *   <li>Across rounds: with W resident warps, band kW waits to start until warp 0 has finished band (k - 1)W, which
 *       (through the chain of free counters) needs band kW - 1 to have run ahead of band kW, which has not started, by up
 *       to a ring, and each band to the left a ring further: W rings must cover the rows, with each hop's slack.</li>
 * </ul>
 * The ring is therefore rows / W plus that slack, rounded up to a power of two of token groups (so that a token's slot
 * is a mask), and at least {@link #MIN_ROWS}, which keeps a band's checks of the counter to one in several chunks.
 * {@code EdgeRingProtocolTest} runs these waits chunk by chunk for random rows, bands, resident warps, token groups and
 * reach, several rounds of bands included.
 */
public final class EdgeRing {

    /**
     * The fewest rows a ring holds: a band reads the counter of the band to its right only when its rows would run into
     * the ones that band has not freed, and publishes its own only every {@link #FREE_EVERY_CHUNKS} chunks, and both
     * cost the warp a wait on memory. On an H200 (folded sequence bands at 65536², every row verified) a ring of 2048
     * rows with the counter published every 16 chunks ran needleman-wunsch-seq with eight columns a lane in 7.95 ms
     * against 8.11 with 512 rows and every 4 chunks, and smith-waterman-seq with four in 9.04 against 9.44 (2048 rows
     * every 4 chunks: 8.03 and 9.15; 4096 every 32: 8.05 and 9.28).
     */
    static final int MIN_ROWS = 2048;

    /**
     * A band publishes its free counter in every sixteenth chunk (and its last): the release that publishes it waits for
     * the warp's memory operations, about 800 cycles measured on an H200, a tenth of a chunk of four-column lanes. The
     * counter then lags the rows copied by up to fifteen chunks more, which the ring's slack covers.
     */
    public static final int FREE_EVERY_CHUNKS = 16;

    private EdgeRing() {}

    /**
     * The rows a ring needs beyond the rows over the resident warps: two chunks in flight and the next one's, the
     * window's reach and a token group, and the chunks by which a free counter published every {@link #FREE_EVERY_CHUNKS}
     * chunks may lag.
     */
    static long slack(int lookbackRows, int groupRows) {
        return (3L + FREE_EVERY_CHUNKS - 1) * GpuTarget.WARP + lookbackRows + groupRows;
    }

    /**
     * The ring's rows, or 0 where a ring would hold every row anyway.
     *
     * @param lookbackRows  rows above a chunk's first step where its edge window starts
     * @param residentWarps warps of the launch, all resident
     */
    static int rows(int rows, int groupRows, int lookbackRows, int residentWarps) {
        long slack = slack(lookbackRows, groupRows);
        long needed = Math.max(MIN_ROWS, Math.ceilDiv(rows, residentWarps) + slack);
        long tokens = Long.highestOneBit(Math.ceilDiv(needed, groupRows) - 1) * 2;   // the power of two at or above
        long ring = Math.max(1, tokens) * groupRows;
        return ring < rows ? (int) ring : 0;
    }
}
