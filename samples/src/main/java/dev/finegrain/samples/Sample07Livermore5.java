package dev.finegrain.samples;

import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LibraryKernel;

import java.util.List;
import java.util.SplittableRandom;

import static dev.finegrain.dsl.Finegrain.DOUBLE;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.param;

/**
 * Sample 7, Livermore loop 5, tri-diagonal elimination below the diagonal: {@code x[i] = z[i] * (y[i] - x[i-1])}.
 *
 * <p>What it shows: the worst case for parallel schedules, a chain with no independent work at all; every
 * schedule's critical path equals the domain size, and only synchronisation cost differs. The boundary
 * {@code x[-1]} is a double param.
 *
 * <p>Run it: {@code ./finegrain compare livermore-5}.
 */
public final class Sample07Livermore5 {

    public static final String NAME = "livermore-5";
    public static final double X0 = 0.5;

    private Sample07Livermore5() {}

    public static Kernel definition() {
        return kernel(NAME)
                .domain(dim("i", "n"))
                .param("x0", DOUBLE)
                .input("y", DOUBLE)
                .input("z", DOUBLE)
                .state("x", DOUBLE, boundary(param("x0")))
                .actor("eliminate", "x", a -> a.read("z", 0).times(a.read("y", 0).minus(a.read("x", -1))))
                .build();
    }

    public static Invocation inputs(Kernel kernel, int[] sizes, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double[] y = SampleInputs.uniform(random, sizes[0], -1.0, 1.0);
        double[] z = SampleInputs.uniform(random, sizes[0], -0.9, 0.9);
        return kernel.invocation().sizes(sizes).param("x0", X0).input("y", y).input("z", z).build();
    }

    public static LibraryKernel entry() {
        return new LibraryKernel(definition(), "Livermore loop 5: tri-diagonal elimination x[i] = z[i]*(y[i] - x[i-1])",
                "A pure recurrence in doubles: each element needs the previous one and does one subtract and one "
                        + "multiply. There is no parallelism to find, so it isolates what each schedule pays to "
                        + "synchronise a chain.",
                Sample07Livermore5::inputs, List.of(new int[] {1024}, new int[] {4096}));
    }
}
