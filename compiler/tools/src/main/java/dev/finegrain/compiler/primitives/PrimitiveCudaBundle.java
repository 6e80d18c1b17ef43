package dev.finegrain.compiler.primitives;

import dev.finegrain.compiler.backend.gpu.cuda.CudaSource;
import dev.finegrain.compiler.backend.gpu.cuda.CudaToolchain;
import dev.finegrain.compiler.backend.gpu.primitive.PrimitiveCuda;
import dev.finegrain.compiler.backend.gpu.primitive.SyncPrimitive;
import dev.finegrain.compiler.compare.AtomicFiles;
import dev.finegrain.compiler.compare.UsageException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * A folder that runs the primitives on a GPU machine with nothing but nvcc: {@code primitives.cu}, the prelude it
 * includes for its barriers ({@code finegrain.cuh}) and {@code run.sh},
 * which builds it for the GPU it finds and writes {@code primitives-cuda.csv} beside itself.
 */
public final class PrimitiveCudaBundle {

    private PrimitiveCudaBundle() {
    }

    public static void write(Path folder, List<SyncPrimitive> primitives, List<Integer> initials, int ops, int checkOps,
                             int accesses) {
        try {
            Files.createDirectories(folder);
        } catch (IOException problem) {
            throw new UsageException("cannot create " + folder + ": " + problem.getMessage());
        }
        AtomicFiles.replace(folder.resolve("primitives.cu"), PrimitiveCuda.source(primitives, initials, ops, checkOps,
                accesses));
        AtomicFiles.replace(folder.resolve(CudaSource.PRELUDE), CudaToolchain.prelude());
        Path script = folder.resolve("run.sh");
        AtomicFiles.replace(script, """
                #!/usr/bin/env bash
                # Builds primitives.cu for this machine's GPU (ARCH=sm_90 ... to choose) and writes primitives-cuda.csv.
                set -euo pipefail
                cd "$(dirname "$0")"
                nvcc -O3 -arch="${ARCH:-native}" -o primitives primitives.cu
                # rows are flushed one by one, so a run stopped by the time limit keeps what it measured
                status=0
                timeout "${LIMIT:-540}" ./primitives > primitives-cuda.csv || status=$?
                echo "written: $(pwd)/primitives-cuda.csv (exit $status)"
                exit "$status"
                """);
        try {
            Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (IOException | UnsupportedOperationException ignored) {
            // run it with bash where the file system has no execute bit
        }
    }
}
