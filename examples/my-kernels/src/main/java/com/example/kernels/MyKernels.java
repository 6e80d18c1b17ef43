package com.example.kernels;

import dev.finegrain.dsl.KernelLibrary;
import dev.finegrain.dsl.LibraryKernel;

import java.util.List;

/**
 * How the finegrain command line and the Maven plugin find this project's kernels: a {@link KernelLibrary} service,
 * listed in src/main/resources/META-INF/services/dev.finegrain.dsl.KernelLibrary.
 */
public final class MyKernels implements KernelLibrary {

    @Override
    public List<LibraryKernel> kernels() {
        return List.of(EditDistance.entry(), LongScan.entry(), SkewedStencil.entry());
    }
}
