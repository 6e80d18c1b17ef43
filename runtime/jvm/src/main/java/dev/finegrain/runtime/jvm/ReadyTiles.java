package dev.finegrain.runtime.jvm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The run-time half of dynamic dataflow over a grid of tiles: a join counter per tile of the neighbours below it it
 * still waits for (tile t waits for t - s, s in {0,1}^rank without 0, those inside the grid), and a
 * {@link ReadyStructure} of the tiles whose counter reached zero. The generated kernel loops
 * {@code for (t = next(w); t < tiles(); t += next(w) - t) { run tile t; done(w, t); }}.
 *
 * <p>Ordering: a finishing worker's {@link #done} decrements each neighbour above with a volatile read-modify-write
 * after the tile's writes; the decrement that reaches zero reads every earlier one, and its worker puts the tile into
 * the ready structure, whose put and take are a release and an acquire (a lock, a CAS, or a volatile store and load).
 * So the worker that takes a tile sees every write of every tile it waited for.
 *
 * <p>Waiting: a worker that finds nothing ready pauses as the run's wait policy has it (checking the watchdog), and
 * returns {@link #tiles()} once every tile has finished. Its wait starts afresh whenever another tile finished, so the
 * watchdog reports a stall only when no tile finished for its whole timeout (a worker failed, a neighbour below never
 * finishes), never a long run whose tiles one worker happens to take.
 */
public final class ReadyTiles {
    private static final VarHandle WAITING = MethodHandles.arrayElementVarHandle(int[].class);
    private static final VarHandle FINISHED;
    /** The channel a wait for a ready tile reports to its watchdog's describer. */
    public static final int WAIT_CHANNEL = -4;

    static {
        try {
            FINISHED = MethodHandles.lookup().findVarHandle(ReadyTiles.class, "finished", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int[] extents;
    private final int tiles;
    private final int[] waiting;
    private final ReadyStructure ready;
    @SuppressWarnings("unused") // through FINISHED
    private volatile int finished;

    /** A grid of {@code extents} tiles (one count per dimension) whose ready tiles wait in {@code ready}. */
    public ReadyTiles(int[] extents, ReadyStructure ready) {
        if (extents.length < 1 || extents.length > 3) {
            throw new IllegalArgumentException("a grid of 1 to 3 dimensions, was " + extents.length);
        }
        int count = 1;
        for (int extent : extents) {
            if (extent < 1) {
                throw new IllegalArgumentException("every dimension holds a tile at least, was " + extent);
            }
            count = Math.multiplyExact(count, extent);
        }
        this.extents = extents.clone();
        this.tiles = count;
        this.waiting = new int[count];
        this.ready = ready;
        for (int t = 0; t < count; t++) {
            int below = 0;
            for (int step = 1; step < 1 << extents.length; step++) {
                if (inside(t, step, -1)) {
                    below++;
                }
            }
            waiting[t] = below;
        }
        ready.put(0, 0);   // the origin waits for nothing: every other tile has a neighbour below it
    }

    /** How many tiles the grid holds; what {@link #next} returns once all have finished. */
    public int tiles() {
        return tiles;
    }

    /** A ready tile for {@code worker}, waiting as the watchdog's policy has it; {@link #tiles()} when all finished. */
    public int next(int worker, Watchdog watchdog) {
        long start = Watchdog.CLOCK_NOT_STARTED;
        int finishedBefore = -1;
        for (long attempt = 0; ; attempt++) {
            int tile = ready.take(worker);
            if (tile != ReadyStructure.EMPTY) {
                return tile;
            }
            int finished = (int) FINISHED.getVolatile(this);
            if (finished == tiles) {
                return tiles;
            }
            if (finished != finishedBefore) {
                // the run moves: the wait starts afresh, so a stall means no tile finished for the whole timeout
                finishedBefore = finished;
                attempt = 0;
                start = Watchdog.CLOCK_NOT_STARTED;
            }
            start = watchdog.waitPolicy().pause(attempt, start, watchdog, WAIT_CHANNEL, worker, -1);
        }
    }

    /** Tile {@code tile} has run: counts it off its neighbours above and puts those it made ready. */
    public void done(int worker, int tile) {
        for (int step = 1; step < 1 << extents.length; step++) {
            if (inside(tile, step, 1)) {
                int above = tile;
                int stride = 1;
                for (int d = extents.length - 1; d >= 0; d--) {
                    above += (step >> d & 1) * stride;
                    stride *= extents[d];
                }
                if ((int) WAITING.getAndAdd(waiting, above, -1) == 1) {
                    ready.put(worker, above);
                }
            }
        }
        FINISHED.getAndAdd(this, 1);
    }

    /**
     * Whether tile {@code t} (row-major, the last dimension fastest, as the generated kernel numbers tiles) moved by
     * {@code direction} along the dimensions of {@code step}'s bits stays in the grid.
     */
    private boolean inside(int t, int step, int direction) {
        for (int d = extents.length - 1; d >= 0; d--) {
            int moved = t % extents[d] + direction * (step >> d & 1);
            if (moved < 0 || moved >= extents[d]) {
                return false;
            }
            t /= extents[d];
        }
        return true;
    }
}
