package com.example.kernels;

import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.KernelLibrary;
import dev.finegrain.dsl.LibraryKernel;

import java.util.List;

import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.kernel;

/** One kernel: each cell sums its upper and left neighbours and its own weight. */
public final class GridLibrary implements KernelLibrary {

    static Kernel gridSum() {
        return kernel("grid-sum")
                .domain(dim("i", "rows"), dim("j", "cols"))
                .input("weight", INT)
                .state("total", INT, boundary(constant(0)))
                .actor("cell", "total", a -> a.read("total", -1, 0).plus(a.read("total", 0, -1)).plus(a.read("weight", 0, 0)))
                .build();
    }

    @Override
    public List<LibraryKernel> kernels() {
        return List.of(new LibraryKernel(gridSum(), "grid sum", "Sums of weights over the rectangle above-left of each cell.",
                (k, sizes, seed) -> k.invocation().sizes(sizes).input("weight", new int[sizes[0] * sizes[1]]).build(),
                List.of(new int[] {8, 8})));
    }
}
