package dev.finegrain.dsl;

import java.util.List;
import java.util.Objects;

/**
 * A kernel as a library offers it to tools: the spec, a one-line summary and a paragraph for
 * {@code finegrain list}, how to make inputs for a size and seed, and the sizes a comparison uses by default.
 */
public record LibraryKernel(Kernel kernel, String summary, String description, InputGenerator inputs, List<int[]> defaultSizes) {

    /** Makes a valid invocation of the kernel for the given sizes, deterministically from the seed. */
    @FunctionalInterface
    public interface InputGenerator {
        Invocation generate(Kernel kernel, int[] sizes, long seed);
    }

    public LibraryKernel {
        Objects.requireNonNull(kernel, "kernel");
        Objects.requireNonNull(inputs, "inputs");
        defaultSizes = defaultSizes.stream().map(int[]::clone).toList();
        if (defaultSizes.isEmpty()) {
            throw new IllegalArgumentException("kernel '" + kernel.name() + "' needs at least one default size");
        }
    }

    public String name() {
        return kernel.name();
    }
}
