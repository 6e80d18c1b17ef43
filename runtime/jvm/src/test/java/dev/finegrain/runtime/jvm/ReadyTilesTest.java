package dev.finegrain.runtime.jvm;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ReadyTilesTest {

    private static final List<IntFunction<ReadyStructure>> STRUCTURES = List.of(workers -> new LockedReadyQueue(),
            workers -> new MichaelScottQueue(), WorkStealingDeques::new);

    @Test
    void everyTileRunsOnceAndOnlyAfterEveryNeighbourBelowIt() {
        for (int[] extents : List.of(new int[] {1}, new int[] {9}, new int[] {5, 7}, new int[] {3, 1, 4}, new int[] {4, 4, 4})) {
            for (IntFunction<ReadyStructure> structure : STRUCTURES) {
                for (int workers = 1; workers <= 3; workers++) {
                    runGrid(extents, structure.apply(workers), workers);
                }
            }
        }
    }

    private static void runGrid(int[] extents, ReadyStructure structure, int workers) {
        ReadyTiles tiles = new ReadyTiles(extents, structure);
        AtomicIntegerArray ran = new AtomicIntegerArray(tiles.tiles());
        AtomicInteger violations = new AtomicInteger();
        Watchdog watchdog = Concurrently.watchdog();
        Runnable[] team = new Runnable[workers];
        for (int w = 0; w < workers; w++) {
            int worker = w;
            team[w] = () -> {
                for (int t = tiles.next(worker, watchdog); t < tiles.tiles(); t += tiles.next(worker, watchdog) - t) {
                    for (int below : below(t, extents)) {
                        if (ran.get(below) != 1) {
                            violations.incrementAndGet();
                        }
                    }
                    ran.incrementAndGet(t);
                    tiles.done(worker, t);
                }
            };
        }
        Concurrently.run(team);
        for (int t = 0; t < tiles.tiles(); t++) {
            assertEquals(1, ran.get(t), "tile " + t + " ran once");
        }
        assertEquals(0, violations.get(), "tiles ran before a neighbour below them");
    }

    /** The tiles one step below {@code t} along any nonempty set of dimensions (row-major numbering). */
    private static List<Integer> below(int t, int[] extents) {
        int[] at = new int[extents.length];
        for (int d = extents.length - 1, rest = t; d >= 0; d--) {
            at[d] = rest % extents[d];
            rest /= extents[d];
        }
        List<Integer> out = new java.util.ArrayList<>();
        for (int step = 1; step < 1 << extents.length; step++) {
            int linear = 0;
            boolean inside = true;
            for (int d = 0; d < extents.length; d++) {
                int moved = at[d] - (step >> d & 1);
                inside &= moved >= 0;
                linear = linear * extents[d] + moved;
            }
            if (inside) {
                out.add(linear);
            }
        }
        return out;
    }

    @Test
    void aTileWhoseNeighbourNeverFinishesStallsNamingTheWaitInsteadOfHanging() {
        Watchdog watchdog = new Watchdog(java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(100),
                (channel, worker, other) -> "worker " + worker + " waits for a ready tile", WaitPolicy.ADAPTIVE);
        ReadyTiles tiles = new ReadyTiles(new int[] {2, 2}, new LockedReadyQueue());
        assertEquals(0, tiles.next(0, watchdog));
        // tile 0 never reports done: nothing else can become ready
        StallException stall = assertThrows(StallException.class, () -> tiles.next(0, watchdog));
        assertEquals(true, stall.getMessage().contains("waits for a ready tile"), stall.getMessage());
    }

    @Test
    void aGridOfNoTilesOrOfFourDimensionsIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ReadyTiles(new int[] {4, 0}, new LockedReadyQueue()));
        assertThrows(IllegalArgumentException.class, () -> new ReadyTiles(new int[] {2, 2, 2, 2}, new LockedReadyQueue()));
    }
}
