package com.example.kernels;

import dev.finegrain.dsl.Expr;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LibraryKernel;

import java.util.List;
import java.util.Random;

import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.index;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.min;
import static dev.finegrain.dsl.Finegrain.select;

/**
 * Levenshtein distance with a traceback: actor {@code distance} fills the edit-distance matrix of two strings, and
 * actor {@code move} records, at the same point, which neighbour the distance came from (0 diagonal, 1 north,
 * 2 west), so the alignment can be read back from the corner. {@code move} reads {@code dist} at its own point: a
 * zero-distance channel, so the compiler fires {@code distance} first at every point.
 */
public final class EditDistance {

    public static final String NAME = "edit-traceback";

    private EditDistance() {}

    public static Kernel definition() {
        return kernel(NAME)
                .domain(dim("i", "rows"), dim("j", "cols"))
                .input("cost", INT)
                .state("dist", INT, boundary(index("i").plus(index("j")).plus(2)))
                .state("move", INT, boundary(constant(0)))
                .actor("distance", "dist", a -> min(
                        diagonal(a.read("dist", -1, -1), a.read("cost", 0, 0)),
                        a.read("dist", -1, 0).plus(1),
                        a.read("dist", 0, -1).plus(1)))
                .actor("move", "move", a -> select(
                        a.read("dist", 0, 0).isEqualTo(diagonal(a.read("dist", -1, -1), a.read("cost", 0, 0))), constant(0),
                        select(a.read("dist", 0, 0).isEqualTo(a.read("dist", -1, 0).plus(1)), constant(1), constant(2))))
                .build();
    }

    private static Expr diagonal(Expr northWest, Expr cost) {
        return northWest.plus(cost);
    }

    /** Two random strings over {@code A C G T}; cost(i, j) is 0 where their letters agree, else 1. */
    public static Invocation inputs(Kernel kernel, int[] sizes, long seed) {
        Random random = new Random(seed);
        int[] a = random.ints(sizes[0], 0, 4).toArray();
        int[] b = random.ints(sizes[1], 0, 4).toArray();
        int[] cost = new int[sizes[0] * sizes[1]];
        for (int i = 0; i < sizes[0]; i++) {
            for (int j = 0; j < sizes[1]; j++) {
                cost[i * sizes[1] + j] = a[i] == b[j] ? 0 : 1;
            }
        }
        return kernel.invocation().sizes(sizes).input("cost", cost).build();
    }

    public static LibraryKernel entry() {
        return new LibraryKernel(definition(), "edit distance of two DNA strings, with a traceback field",
                "Two actors per cell: the Levenshtein distance from the north-west, north and west neighbours, and the move "
                        + "(0 diagonal, 1 north, 2 west) that produced it, for reading the alignment back.",
                EditDistance::inputs, List.of(new int[] {64, 64}, new int[] {256, 256}));
    }
}
