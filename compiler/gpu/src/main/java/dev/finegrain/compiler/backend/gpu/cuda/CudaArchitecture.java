package dev.finegrain.compiler.backend.gpu.cuda;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What the CUDA backend knows of one compute capability: the per-SM limits that decide how many blocks of a persistent
 * launch are resident at once (from the CUDA C++ Programming Guide's "Technical Specifications per Compute Capability")
 * and the SM count of one named part. The SM count is a fact of the part, not of the capability (an H100 PCIe has 114
 * SMs, an H100 SXM 132): a persistent launch planned for more SMs than the GPU it runs on fails at its cooperative
 * launch with CUDA's error, never hangs. An architecture missing here is refused by name rather than guessed.
 *
 * @param version                  the compute capability as nvcc spells it after {@code sm_}: 90 for 9.0
 * @param part                     the GPU whose SM count this is
 * @param smCount                  that part's streaming multiprocessors
 * @param maxThreadsPerSm          resident threads per SM
 * @param maxBlocksPerSm           resident blocks per SM
 * @param sharedBytesPerSm         shared memory of one SM
 * @param sharedBytesPerBlockOptIn the most one block may claim when it asks
 * @param reservedSharedBytesPerBlock shared memory the hardware keeps for itself in every resident block (1 KB from
 *                                 compute capability 8.0 on)
 */
public record CudaArchitecture(int version, String part, int smCount, int maxThreadsPerSm, int maxBlocksPerSm,
                               int sharedBytesPerSm, int sharedBytesPerBlockOptIn, int reservedSharedBytesPerBlock) {

    private static final int KB = 1024;

    /** Every architecture nvcc 13 builds for that the backend has the limits of, oldest first. */
    public static final List<CudaArchitecture> KNOWN = List.of(
            new CudaArchitecture(75, "a Tesla T4", 40, 1024, 16, 64 * KB, 64 * KB, 0),
            new CudaArchitecture(80, "an A100", 108, 2048, 32, 164 * KB, 163 * KB, KB),
            new CudaArchitecture(86, "an A10", 72, 1536, 16, 100 * KB, 99 * KB, KB),
            new CudaArchitecture(87, "a Jetson AGX Orin", 16, 1536, 16, 164 * KB, 163 * KB, KB),
            new CudaArchitecture(89, "a GeForce RTX 4090", 128, 1536, 24, 100 * KB, 99 * KB, KB),
            new CudaArchitecture(90, "an H100 SXM or H200", 132, 2048, 32, 228 * KB, 227 * KB, KB),
            new CudaArchitecture(100, "a B200", 148, 2048, 32, 228 * KB, 227 * KB, KB),
            new CudaArchitecture(120, "a GeForce RTX 5090", 170, 1536, 32, 100 * KB, 99 * KB, KB));

    /** The architecture {@code sm_XX} (no {@code a} suffix), if the backend knows its limits. */
    public static Optional<CudaArchitecture> of(int version) {
        return KNOWN.stream().filter(known -> known.version == version).findFirst();
    }

    /** The architectures a user may name, for a message: {@code sm_75, sm_80, ...}. */
    public static String names() {
        return KNOWN.stream().map(CudaArchitecture::arch).collect(Collectors.joining(", "));
    }

    public String arch() {
        return "sm_" + version;
    }
}
