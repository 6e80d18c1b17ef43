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

/** A typo: the actor reads 'scor', a field the kernel never declares; build() rejects it as the library loads. */
public final class BadLibrary implements KernelLibrary {

    private static final Kernel TYPO = kernel("typo")
            .domain(dim("i", "n"))
            .state("score", INT, boundary(constant(0)))
            .actor("cell", "score", a -> a.read("scor", -1).plus(1))
            .build();

    @Override
    public List<LibraryKernel> kernels() {
        return List.of(new LibraryKernel(TYPO, "typo", "Never builds.",
                (k, sizes, seed) -> k.invocation().sizes(sizes).build(), List.of(new int[] {8})));
    }
}
