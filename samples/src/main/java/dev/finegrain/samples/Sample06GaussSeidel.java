package dev.finegrain.samples;

import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LibraryKernel;

import java.util.List;
import java.util.SplittableRandom;

import static dev.finegrain.dsl.Finegrain.DOUBLE;
import static dev.finegrain.dsl.Finegrain.boundaryFrom;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.kernel;

/**
 * Sample 6, one in-place Gauss-Seidel sweep of the 2D Laplace stencil:
 * {@code u(i,j) = (u(i-1,j) + u(i,j-1) + grid(i+1,j) + grid(i,j+1)) * 0.25}, in doubles.
 *
 * <p>What it shows: in-place updates as dataflow. The new north and west values come from the state field (two
 * channels); the old south and east values come from the input grid, which carries a halo of 1, and the state
 * field takes its boundary from that same grid.
 *
 * <p>Run it: {@code ./finegrain compare gauss-seidel-2d}.
 */
public final class Sample06GaussSeidel {

    public static final String NAME = "gauss-seidel-2d";

    private Sample06GaussSeidel() {}

    public static Kernel definition() {
        return kernel(NAME)
                .domain(dim("i", "rows"), dim("j", "cols"))
                .input("grid", DOUBLE, 1)
                .state("u", DOUBLE, boundaryFrom("grid"))
                .actor("relax", "u", a -> a.read("u", -1, 0).plus(a.read("u", 0, -1))
                        .plus(a.read("grid", 1, 0)).plus(a.read("grid", 0, 1)).times(0.25))
                .build();
    }

    /** A grid with random interior values and a hot top edge, padded by one cell on every side. */
    public static Invocation inputs(Kernel kernel, int[] sizes, long seed) {
        int rows = sizes[0] + 2;
        int cols = sizes[1] + 2;
        double[] grid = SampleInputs.uniform(new SplittableRandom(seed), rows * cols, 0.0, 1.0);
        for (int j = 0; j < cols; j++) {
            grid[j] = 100.0;
        }
        return kernel.invocation().sizes(sizes).input("grid", grid).build();
    }

    public static LibraryKernel entry() {
        return new LibraryKernel(definition(), "one in-place Gauss-Seidel sweep of the 2D Laplace stencil, in doubles",
                "Each point becomes the mean of its four neighbours, taking the already-updated north and west values and "
                        + "the old south and east ones, exactly as an in-place sweep does. Written as dataflow, the new "
                        + "values are channels and the old ones are reads of the padded input grid.",
                Sample06GaussSeidel::inputs, List.of(new int[] {64, 64}, new int[] {256, 256}));
    }
}
