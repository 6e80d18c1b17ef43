package dev.finegrain.compiler.backend.gpu.cuda;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Compiles translation units together, as one unit that includes them all with the prelude, so that a test pays
 * nvcc's start-up once; returns nvcc's log (a failed compile throws with it).
 */
final class NvccTogether {

    private NvccTogether() {}

    static String compile(Path folder, List<CudaSource> sources) throws IOException {
        List<String> includes = new ArrayList<>();
        for (CudaSource source : sources) {
            Files.writeString(folder.resolve(source.id() + ".cu"), source.text());
            includes.add("#include \"" + source.id() + ".cu\"");
        }
        Files.writeString(folder.resolve(CudaSource.PRELUDE), CudaToolchain.prelude());
        Files.writeString(folder.resolve("all.cu"), String.join("\n", includes) + "\n");
        return CudaToolchain.compileObject(folder, "all.cu", CudaBackend.DEFAULT_ARCH);
    }
}
