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
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.max;
import static dev.finegrain.dsl.Finegrain.select;

/**
 * Sample 4, longest common subsequence:
 * {@code L(i,j) = same(i,j) ? L(i-1,j-1) + 1 : max(L(i-1,j), L(i,j-1))}, boundary 0.
 *
 * <p>What it shows: a select whose branches read different neighbours. A channel exists for every read in
 * either branch, because the schedule cannot know which branch a cell will take.
 *
 * <p>Run it: {@code ./finegrain compare lcs}.
 */
public final class Sample04LongestCommonSubsequence {

    public static final String NAME = "lcs";

    private Sample04LongestCommonSubsequence() {}

    public static Kernel definition() {
        return kernel(NAME)
                .domain(dim("i", "rows"), dim("j", "cols"))
                .input("same", INT)
                .state("length", INT, boundary(constant(0)))
                .actor("cell", "length", a -> select(
                        a.read("same", 0, 0).isEqualTo(constant(1)),
                        a.read("length", -1, -1).plus(1),
                        max(a.read("length", -1, 0), a.read("length", 0, -1))))
                .build();
    }

    /** Two random strings over a 4-letter alphabet; same(i,j) is 1 where letters agree. */
    public static Invocation inputs(Kernel kernel, int[] sizes, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int[] a = SampleInputs.residues(random, sizes[0], 0, 3);
        int[] b = SampleInputs.residues(random, sizes[1], 0, 3);
        int[] same = new int[sizes[0] * sizes[1]];
        for (int i = 0; i < sizes[0]; i++) {
            for (int j = 0; j < sizes[1]; j++) {
                same[i * sizes[1] + j] = a[i] == b[j] ? 1 : 0;
            }
        }
        return kernel.invocation().sizes(sizes).input("same", same).build();
    }

    public static LibraryKernel entry() {
        return new LibraryKernel(definition(), "longest common subsequence of two random strings",
                "The classic dynamic programme: where the letters agree, extend the diagonal; elsewhere take the longer of "
                        + "north and west. A select picks the branch per cell, so every read of both branches becomes a "
                        + "channel; the diagonal one is again implied by north then west.",
                Sample04LongestCommonSubsequence::inputs, List.of(new int[] {64, 64}, new int[] {256, 256}));
    }
}
