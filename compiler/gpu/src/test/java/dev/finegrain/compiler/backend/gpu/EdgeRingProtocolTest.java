package dev.finegrain.compiler.backend.gpu;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ring's waits, chunk by chunk, as {@code CudaBands} spells them, on a machine with any number of resident warps:
 * a ring as long as {@link EdgeRing} makes it never closes a cycle of waits, also where warps walk several bands in turn
 * (band kW waits for warp 0 to finish band (k - 1)W), which an H200 with sequences of 65536 never does and so never
 * tests; a ring far shorter does close one, which shows the simulation can tell.
 */
class EdgeRingProtocolTest {

    private static final int WARP = 32;

    /**
     * Runs every band's chunks, warp w taking bands w, w + W, ... in turn, until none can move; true when all finished.
     * A chunk at step {@code base} first waits for the left band's edge up to row min(base + 31, rows - 1) (published
     * per group of rows, the last group when its last row is done), then, in every FREE_EVERY_CHUNKS-th chunk and its last, frees the rows before its
     * next window ({@code base + 32 - lookback}), then waits for room: the right band's free counter at least base + 32 - ring.
     * After the chunk the band's last lane has finished row base, and every whole group up to it is published.
     * Waits only ever see counters grow, so the order in which warps move does not change where they stop.
     */
    private static boolean finishes(int rows, int bands, int warps, int group, int lookback, int ring) {
        int chunks = Math.ceilDiv(rows + WARP - 1, WARP);
        int[] published = new int[bands];   // rows of each band's edge published: rows 0 .. published - 1
        int[] freed = new int[bands];        // the free counter: rows of the left band's edge never read again
        int[] nextChunk = new int[bands];
        int[] round = new int[warps];        // the band a warp is on: w + round * warps
        boolean moved = true;
        while (moved) {
            moved = false;
            for (int w = 0; w < warps; w++) {
                int band = w + round[w] * warps;
                while (band < bands) {
                    int base = nextChunk[band] * WARP;
                    if (band > 0 && published[band - 1] < Math.min(base + WARP, rows)) {
                        break;   // the window's rows are not all published yet
                    }
                    if (band > 0 && (nextChunk[band] % EdgeRing.FREE_EVERY_CHUNKS == EdgeRing.FREE_EVERY_CHUNKS - 1
                            || nextChunk[band] == chunks - 1)) {
                        freed[band] = Math.max(freed[band], base + WARP - lookback);
                    }
                    if (band < bands - 1 && freed[band + 1] < base + WARP - ring) {
                        break;   // no room: the right band has not copied the rows a lap before
                    }
                    int done = Math.min(base, rows - 1) + 1;   // rows 0 .. base finished by the last lane
                    published[band] = done == rows ? rows : done / group * group;
                    moved = true;
                    if (++nextChunk[band] == chunks) {
                        round[w]++;
                        band = w + round[w] * warps;
                    }
                }
            }
        }
        for (int band = 0; band < bands; band++) {
            if (nextChunk[band] < chunks) {
                return false;
            }
        }
        return true;
    }

    /** A random machine: its warps, the bands they walk, the rows, the rows a token covers and the window's reach. */
    private record Machine(int warps, int bands, int rows, int group, int lookback) {
        static Machine random(SplittableRandom random) {
            int warps = 1 + random.nextInt(48);
            return new Machine(warps, 1 + random.nextInt(3 * warps + 2), 513 + random.nextInt(6000),
                    new int[] {1, 1, 2, 3, 8, 32}[random.nextInt(6)], new int[] {0, 1, 2, 17, 46}[random.nextInt(5)]);
        }

        boolean finishes(int ring) {
            return EdgeRingProtocolTest.finishes(rows, bands, warps, group, lookback, ring);
        }
    }

    @Test
    void theRingsThatEdgeRingMakesNeverCloseACycleOfWaits() {
        SplittableRandom random = new SplittableRandom(40);
        int checked = 0;
        for (int trial = 0; trial < 400; trial++) {
            Machine m = Machine.random(random);
            int ring = EdgeRing.rows(m.rows, m.group, m.lookback, m.warps);
            if (ring == 0) {
                continue;   // the edge holds every row: no wait for room at all
            }
            checked++;
            assertTrue(m.finishes(ring), m + ": a ring of " + ring + " rows closed a cycle of waits");
        }
        assertTrue(checked > 200, "only " + checked + " configurations had a ring");
    }

    @Test
    void aRingFarShorterThanTheRuleClosesOne() {
        // eight warps walk 40 bands of 4000 rows: band 8 starts only when warp 0 has finished band 0, which needs the
        // bands to its right to have run ahead of band 8 by more than 64-row rings allow
        assertFalse(finishes(4000, 40, 8, 1, 1, 64));
        int ring = EdgeRing.rows(4000, 1, 1, 8);
        assertTrue(ring > 4000 / 8, "the rule's ring: " + ring);
        assertTrue(finishes(4000, 40, 8, 1, 1, ring));
        // and within one round the slack alone: a ring shorter than two chunks and the lookback stalls even there
        assertFalse(finishes(4000, 8, 8, 1, 1, 32));
    }

    /**
     * The slack on its own, without the rule's floor and power-of-two rounding, which hide it: rings of exactly the rows
     * over the warps plus the slack (in whole token groups) finish, and the same rings without the chunks a counter
     * published every {@link EdgeRing#FREE_EVERY_CHUNKS} chunks may lag close a cycle in some machines.
     */
    @Test
    void theSlackForACounterPublishedEveryFewChunksIsNeeded() {
        SplittableRandom random = new SplittableRandom(41);
        int shortFailed = 0;
        for (int trial = 0; trial < 400; trial++) {
            Machine m = Machine.random(random);
            long exact = Math.ceilDiv(m.rows, m.warps) + EdgeRing.slack(m.lookback, m.group);
            int ring = (int) (Math.ceilDiv(exact, m.group) * m.group);
            if (ring >= m.rows) {
                continue;
            }
            assertTrue(m.finishes(ring), m + ": a ring of exactly " + ring + " rows closed a cycle of waits");
            int without = ring - (EdgeRing.FREE_EVERY_CHUNKS - 1) * WARP / m.group * m.group;
            if (!m.finishes(without)) {
                shortFailed++;
            }
        }
        assertTrue(shortFailed > 0, "rings without the counter's lag never stalled: the test cannot tell the slack is needed");
    }
}
