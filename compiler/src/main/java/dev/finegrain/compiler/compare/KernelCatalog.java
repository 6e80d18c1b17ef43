package dev.finegrain.compiler.compare;

import dev.finegrain.dsl.KernelLibrary;
import dev.finegrain.dsl.LibraryKernel;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/** Every kernel of every {@link KernelLibrary} service on the class path, in library order. */
public final class KernelCatalog {

    private final List<LibraryKernel> kernels;

    private KernelCatalog(List<LibraryKernel> kernels) {
        this.kernels = List.copyOf(kernels);
    }

    public static KernelCatalog load() {
        List<LibraryKernel> kernels = new ArrayList<>();
        for (KernelLibrary library : ServiceLoader.load(KernelLibrary.class)) {
            kernels.addAll(library.kernels());
        }
        return new KernelCatalog(kernels);
    }

    public static KernelCatalog of(List<LibraryKernel> kernels) {
        return new KernelCatalog(kernels);
    }

    public List<LibraryKernel> kernels() {
        return kernels;
    }

    public Optional<LibraryKernel> find(String name) {
        return kernels.stream().filter(k -> k.name().equals(name)).findFirst();
    }

    public List<String> names() {
        return kernels.stream().map(LibraryKernel::name).toList();
    }
}
