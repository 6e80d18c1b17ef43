package com.example.kernels;

import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.KernelLibrary;
import dev.finegrain.dsl.LibraryKernel;

import java.util.List;

import static dev.finegrain.dsl.Finegrain.LONG;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.kernel;

/** One kernel with long state: running totals along a row, which tiny-lock cannot pack beside its ready bit. */
public final class LongLibrary implements KernelLibrary {

    static Kernel longTotal() {
        return kernel("long-total")
                .domain(dim("i", "n"))
                .state("total", LONG, boundary(constant(0L)))
                .actor("add", "total", a -> a.read("total", -1).plus(constant(3L)))
                .build();
    }

    @Override
    public List<LibraryKernel> kernels() {
        return List.of(new LibraryKernel(longTotal(), "long totals", "Each cell adds three to its west neighbour.",
                (k, sizes, seed) -> k.invocation().sizes(sizes).build(), List.of(new int[] {64})));
    }
}
