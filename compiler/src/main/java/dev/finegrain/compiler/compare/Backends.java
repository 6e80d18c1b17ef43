package dev.finegrain.compiler.compare;

import dev.finegrain.compiler.backend.Backend;
import dev.finegrain.compiler.backend.jvm.JvmBackend;
import dev.finegrain.compiler.backend.reference.ReferenceBackend;

import java.util.List;
import java.util.Optional;

/** The backends this build offers, by command-line name. */
public final class Backends {

    private static final List<Backend> AVAILABLE = List.of(new ReferenceBackend(), new JvmBackend());

    private Backends() {}

    public static List<Backend> available() {
        return AVAILABLE;
    }

    public static Optional<Backend> byName(String name) {
        return AVAILABLE.stream().filter(b -> b.name().equals(name)).findFirst();
    }

    public static List<String> names() {
        return AVAILABLE.stream().map(Backend::name).toList();
    }
}
