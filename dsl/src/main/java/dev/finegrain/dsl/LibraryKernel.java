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
            throw new KernelDefinitionException("kernel '" + kernel.name() + "': a library kernel needs at least one default"
                    + " size; give e.g. List.of(new int[] {" + String.join(", ", java.util.Collections.nCopies(kernel.rank(), "64")) + "})");
        }
        for (int[] size : defaultSizes) {
            if (size.length != kernel.rank() || java.util.Arrays.stream(size).anyMatch(extent -> extent < 1)) {
                throw new KernelDefinitionException("kernel '" + kernel.name() + "': default size " + java.util.Arrays.toString(size)
                        + " does not fit a domain of " + kernel.rank() + " dimensions; give " + kernel.rank()
                        + " positive extents per size");
            }
        }
    }

    public String name() {
        return kernel.name();
    }
}
