package dev.finegrain.samples;

import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LibraryKernel;

import java.util.List;
import java.util.SplittableRandom;

import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.iterate;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.max;
import static dev.finegrain.dsl.Finegrain.select;

/**
 * Sample 8, an irregular recurrence: {@code s(i,j) = max(s(i-1,j), s(i,j-1)) + (hot(i,j) > 0 ? mix(hot(i,j)) : 1)}
 * where {@code mix(n)} is n rounds of an integer hash. The input marks a few 16 x 16 regions hot, at random, with
 * {@code heat} rounds per point; every other point costs one add.
 *
 * <p>What it shows: work that a select over an input decides. A static schedule waits at each step for its slowest
 * part (data-parallel: every block-diagonal lasts as long as its hottest tile), while dynamic dataflow runs a tile as
 * soon as its neighbours below have run, so cold tiles flow past the hot ones.
 *
 * <p>Run it: {@code ./finegrain compare hotspots --schedules data-parallel,dynamic-dataflow}.
 */
public final class Sample08Hotspots {

    public static final String NAME = "hotspots";
    /** Rounds of the hash at a hot point. */
    public static final int DEFAULT_HEAT = 64;
    /** One region in this many is hot. */
    public static final int ONE_IN = 8;
    /** The side of a hot region, the default tile of the tiled schedules. */
    public static final int REGION = 16;

    private Sample08Hotspots() {}

    public static Kernel definition() {
        return kernel(NAME)
                .domain(dim("i", "rows"), dim("j", "cols"))
                .input("hot", INT)
                .state("s", INT, boundary(constant(0)))
                .actor("cell", "s", a -> max(a.read("s", -1, 0), a.read("s", 0, -1)).plus(select(
                        a.read("hot", 0, 0).greaterThan(0),
                        iterate(a.read("hot", 0, 0), a.read("hot", 0, 0),
                                mix -> mix.times(1103515245).plus(12345).shiftRightUnsigned(7).and(0xffff)),
                        constant(1))))
                .build();
    }

    /** One {@link #REGION}-square region in {@link #ONE_IN} is hot, with {@link #DEFAULT_HEAT} rounds a point. */
    public static Invocation inputs(Kernel kernel, int[] sizes, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int rows = sizes[0];
        int columns = sizes[1];
        int[] hot = new int[rows * columns];
        for (int regionRow = 0; regionRow < rows; regionRow += REGION) {
            for (int regionColumn = 0; regionColumn < columns; regionColumn += REGION) {
                if (random.nextInt(ONE_IN) != 0) {
                    continue;
                }
                for (int i = regionRow; i < Math.min(rows, regionRow + REGION); i++) {
                    for (int j = regionColumn; j < Math.min(columns, regionColumn + REGION); j++) {
                        hot[i * columns + j] = DEFAULT_HEAT;
                    }
                }
            }
        }
        return kernel.invocation().sizes(sizes).input("hot", hot).build();
    }

    public static LibraryKernel entry() {
        return new LibraryKernel(definition(), "an irregular recurrence: a few hot regions cost 64 rounds a point",
                "The max-plus recurrence of the alignment samples, plus a cost a select over an input decides: one "
                        + "16 x 16 region in 8, at random, runs 64 rounds of an integer hash per point, the rest one add. "
                        + "Static schedules wait for the hottest part of each step; dynamic dataflow runs each tile as "
                        + "soon as its neighbours below have run.",
                Sample08Hotspots::inputs, List.of(new int[] {64, 64}, new int[] {256, 256}));
    }
}
