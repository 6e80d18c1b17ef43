package dev.finegrain.compiler.compare;

import dev.finegrain.dsl.LibraryKernel;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;

import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.kernel;

/** The smallest catalog entry the CLI and report tests compare: a one-dimensional running sum of random inputs. */
public final class PrefixSumEntry {

    public static final Kernel KERNEL = kernel("prefix-sum")
            .domain(dim("i", "n"))
            .input("x", INT)
            .state("total", INT, boundary(constant(0)))
            .actor("add", "total", a -> a.read("total", -1).plus(a.read("x", 0)))
            .build();

    public static final LibraryKernel ENTRY = new LibraryKernel(KERNEL, "running sum of a random vector",
            "A one-dimensional chain: each total adds one input to the previous total.",
            PrefixSumEntry::inputs, List.of(new int[] {32}));

    private PrefixSumEntry() {}

    private static Invocation inputs(Kernel kernel, int[] sizes, long seed) {
        Random random = new Random(seed);
        int[] x = new int[sizes[0]];
        Arrays.setAll(x, k -> random.nextInt(100));
        return kernel.invocation().sizes(sizes).input("x", x).build();
    }
}
