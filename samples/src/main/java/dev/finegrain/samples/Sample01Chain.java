package dev.finegrain.samples;

import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LibraryKernel;

import java.util.List;

import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.index;
import static dev.finegrain.dsl.Finegrain.iterate;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.kernel;

/**
 * Sample 1, the chain: seed 001's validation kernel (Listing 10), {@code A[i+32] = A[i] + f(i)}, mapped to 16
 * warps. Each element waits for the one a warp earlier, so every channel crosses warps and a whole warp's 32
 * actors are ready together: the kernel that measures raw synchronisation cost (seed 001 Table 2).
 *
 * <p>What it shows: a 1D dependence at distance 32, a param-controlled independent computation ({@code work}
 * rounds of an integer hash, or just i when work is 0, as in the paper), and a boundary given by an expression.
 *
 * <p>Run it: {@code ./finegrain compare chain}.
 */
public final class Sample01Chain {

    public static final String NAME = "chain";
    /** The dependence distance: one warp. */
    public static final int DISTANCE = 32;

    private Sample01Chain() {}

    public static Kernel definition() {
        return kernel(NAME)
                .domain(dim("i", "n"))
                .param("work", INT)
                .state("a", INT, boundary(index("i").negate()))
                .actor("link", "a", a -> a.read("a", -DISTANCE).plus(
                        iterate(a.param("work"), a.index("i"), x -> x.times(1664525).plus(1013904223))))
                .build();
    }

    /** The paper's setting: work = 0, so f(i) = i. */
    public static Invocation inputs(Kernel kernel, int[] sizes, long seed) {
        return kernel.invocation().sizes(sizes).param("work", 0).build();
    }

    public static LibraryKernel entry() {
        return new LibraryKernel(definition(), "Li et al.'s tiny-lock validation chain A[i+32] = A[i] + f(i) over 16 warps",
                "The validation kernel of the tiny-lock paper (Listing 10): element i waits for element i-32, one warp "
                        + "earlier, then adds an independent computation of i (work rounds of a hash; work = 0 gives the "
                        + "paper's f(i) = i). At n = 512 it is 16 warps in a chain, the setting of Li et al.'s Tables 1 and 2, "
                        + "where each mechanism's cost per synchronisation shows directly.",
                Sample01Chain::inputs, List.of(new int[] {512}, new int[] {4096}));
    }
}
