package dev.finegrain.dsl;

import java.util.List;

/**
 * How tools find a project's kernels: a {@link java.util.ServiceLoader} service. List the implementation in
 * {@code META-INF/services/dev.finegrain.dsl.KernelLibrary}; the CLI and the Maven plugin load every library on
 * their class path.
 */
public interface KernelLibrary {

    List<LibraryKernel> kernels();
}
