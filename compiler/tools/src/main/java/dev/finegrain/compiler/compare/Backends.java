package dev.finegrain.compiler.compare;

import dev.finegrain.compiler.backend.Backend;
import dev.finegrain.compiler.backend.gpu.cuda.CudaBackend;
import dev.finegrain.compiler.backend.gpu.model.GpuModelBackend;
import dev.finegrain.compiler.backend.jvm.JvmBackend;
import dev.finegrain.compiler.backend.reference.ReferenceBackend;
import dev.finegrain.gpu.SimUserException;
import dev.finegrain.gpu.runtime.SimtProfile;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The backends this build offers, by command-line name. {@code reference} and {@code jvm} are the default set;
 * {@code gpu-model:<profile>} runs on the GPU model with a built-in profile or a profile file, and is asked for by
 * name because a simulated sweep takes minutes where the others take seconds.
 */
public final class Backends {

    /** The prefix of a gpu-model backend's name. */
    public static final String GPU_MODEL_PREFIX = GpuModelBackend.PREFIX;

    private static final List<Backend> AVAILABLE = List.of(new ReferenceBackend(), new JvmBackend());

    private Backends() {}

    public static List<Backend> available() {
        return AVAILABLE;
    }

    public static Optional<Backend> byName(String name) {
        if (name.equals(CudaBackend.PREFIX) || name.startsWith(CudaBackend.PREFIX + ":")) {
            String arch = name.equals(CudaBackend.PREFIX) ? CudaBackend.DEFAULT_ARCH : name.substring(CudaBackend.PREFIX.length() + 1);
            try {
                return Optional.of(new CudaBackend(arch));
            } catch (IllegalArgumentException badArch) {
                throw new UsageException("backend '" + name + "': " + badArch.getMessage());
            }
        }
        if (name.startsWith(GpuModelBackend.PREFIX)) {
            try {
                return Optional.of(new GpuModelBackend(name.substring(GpuModelBackend.PREFIX.length())));
            } catch (SimUserException unknownProfile) {
                throw new UsageException("backend '" + name + "': " + unknownProfile.getMessage());
            }
        }
        return AVAILABLE.stream().filter(b -> b.name().equals(name)).findFirst();
    }

    /**
     * The profile keys a gpu-model backend's name sets ({@code gpu-model:fermi-gtx570@sm.lockBits=2048}), by key, in
     * the order given; none for any other backend.
     */
    public static Map<String, String> profileSettings(String backendName) {
        Map<String, String> settings = new LinkedHashMap<>();
        if (backendName.startsWith(GPU_MODEL_PREFIX)) {
            String[] parts = backendName.split(SimtProfile.SETTING);
            for (int p = 1; p < parts.length; p++) {
                int equals = parts[p].indexOf('=');
                settings.put(parts[p].substring(0, equals), parts[p].substring(equals + 1));
            }
        }
        return settings;
    }

    public static List<String> names() {
        List<String> names = new ArrayList<>(AVAILABLE.stream().map(Backend::name).toList());
        names.add(GpuModelBackend.PREFIX + "<profile>[@KEY=V...] (" + String.join(", ", SimtProfile.BUILT_IN) + ")");
        names.add(CudaBackend.PREFIX + "[:<arch>] (default " + CudaBackend.DEFAULT_ARCH + ")");
        return names;
    }
}
