package com.example.kernels;

import dev.finegrain.dsl.KernelLibrary;
import dev.finegrain.dsl.LibraryKernel;

import java.util.List;

/** This project's kernels, for the finegrain CLI and Maven plugin; listed in META-INF/services. */
public final class MyKernels implements KernelLibrary {

    @Override
    public List<LibraryKernel> kernels() {
        return List.of(EditDistance.entry(), LongScan.entry(), SkewedStencil.entry());
    }
}
