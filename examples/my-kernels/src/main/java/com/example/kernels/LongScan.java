package com.example.kernels;

import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LibraryKernel;

import java.util.List;
import java.util.Random;

import static dev.finegrain.dsl.Finegrain.LONG;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.kernel;

/**
 * A long recurrence in 64-bit integers, {@code h[i] = 31 * h[i-1] + x[i]} (a polynomial hash of every prefix): one
 * chain, so only the wavefront of single points and lock-dataflow apply; the int literal 31 takes the type long.
 */
public final class LongScan {

    public static final String NAME = "prefix-hash";

    private LongScan() {}

    public static Kernel definition() {
        return kernel(NAME)
                .domain(dim("i", "n"))
                .input("x", LONG)
                .state("h", LONG, boundary(constant(7)))
                .actor("step", "h", a -> a.read("h", -1).times(31).plus(a.read("x", 0)))
                .build();
    }

    public static Invocation inputs(Kernel kernel, int[] sizes, long seed) {
        return kernel.invocation().sizes(sizes).input("x", new Random(seed).longs(sizes[0], 0, 1L << 40).toArray()).build();
    }

    public static LibraryKernel entry() {
        return new LibraryKernel(definition(), "a polynomial hash of every prefix, in longs",
                "Each element multiplies its predecessor by 31 and adds its input: a serial chain of 64-bit arithmetic.",
                LongScan::inputs, List.of(new int[] {1024}, new int[] {4096}));
    }
}
