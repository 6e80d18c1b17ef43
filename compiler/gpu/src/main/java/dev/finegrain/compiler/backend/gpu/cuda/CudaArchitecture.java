package dev.finegrain.compiler.backend.gpu.cuda;

import java.util.List;
import java.util.stream.Collectors;

/**
 * What the CUDA backend knows of one compute capability: the per-SM limits that decide how many blocks of a persistent
 * launch are resident at once (from the CUDA C++ Programming Guide's "Technical Specifications per Compute Capability")
 * and the SM count of one named part. The SM count is a fact of the part, not of the capability (an H100 PCIe has 114
 * SMs, an H100 SXM 132): a persistent launch planned for more SMs than the GPU it runs on fails at its cooperative
 * launch with CUDA's error, never hangs. An architecture missing here is refused by name rather than guessed.
 *
 * @param version                  the compute capability as nvcc spells it after {@code sm_}: 90 for 9.0
 * @param archSpecific             whether nvcc builds an {@code sm_XXa} form (the generation's own instructions)
 * @param part                     the GPU whose SM count this is
 * @param smCount                  that part's streaming multiprocessors
 * @param maxThreadsPerSm          resident threads per SM
 * @param maxBlocksPerSm           resident blocks per SM
 * @param sharedBytesPerSm         shared memory of one SM
 * @param sharedBytesPerBlockOptIn the most one block may claim when it asks
 * @param reservedSharedBytesPerBlock shared memory the hardware keeps for itself in every resident block (1 KB from
 *                                 compute capability 8.0 on)
 */
public record CudaArchitecture(int version, boolean archSpecific, String part, int smCount, int maxThreadsPerSm, int maxBlocksPerSm,
                               int sharedBytesPerSm, int sharedBytesPerBlockOptIn, int reservedSharedBytesPerBlock) {

    private static final int KB = 1024;
    /** The oldest compute capability nvcc 13 builds for (Turing). */
    public static final int OLDEST = 75;

    /** Every architecture nvcc 13 builds for that the backend has the limits of, oldest first. */
    public static final List<CudaArchitecture> KNOWN = List.of(
            new CudaArchitecture(75, false, "a Tesla T4", 40, 1024, 16, 64 * KB, 64 * KB, 0),
            new CudaArchitecture(80, false, "an A100", 108, 2048, 32, 164 * KB, 163 * KB, KB),
            new CudaArchitecture(86, false, "an A10", 72, 1536, 16, 100 * KB, 99 * KB, KB),
            new CudaArchitecture(87, false, "a Jetson AGX Orin 64GB", 16, 1536, 16, 164 * KB, 163 * KB, KB),
            new CudaArchitecture(89, false, "a GeForce RTX 4090", 128, 1536, 24, 100 * KB, 99 * KB, KB),
            new CudaArchitecture(90, true, "an H100 SXM or H200", 132, 2048, 32, 228 * KB, 227 * KB, KB),
            new CudaArchitecture(100, true, "a B200", 148, 2048, 32, 228 * KB, 227 * KB, KB),
            new CudaArchitecture(120, true, "a GeForce RTX 5090", 170, 1536, 32, 100 * KB, 99 * KB, KB));

    /**
     * The architecture nvcc calls {@code arch} ({@code sm_90}, {@code sm_90a}).
     *
     * @throws IllegalArgumentException in one line saying what to use, for a name that is not an architecture, one
     *                                  older than nvcc 13 builds for, one whose limits are not known here, or an
     *                                  {@code a} form nvcc does not build
     */
    public static CudaArchitecture of(String arch) {
        if (!arch.matches("sm_[1-9][0-9]{1,2}a?")) {
            throw new IllegalArgumentException("'" + arch + "' is not a CUDA architecture; use sm_90 (Hopper), sm_80, ...");
        }
        int version = Integer.parseInt(arch.substring("sm_".length()).replace("a", ""));
        if (version < OLDEST) {
            throw new IllegalArgumentException("'" + arch + "' is older than nvcc 13 builds for; use sm_" + OLDEST
                    + " or newer (sm_90 for Hopper)");
        }
        CudaArchitecture known = KNOWN.stream().filter(candidate -> candidate.version == version).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("'" + arch + "' is an architecture whose SM limits Finegrain"
                        + " does not know; use one of " + names()));
        if (arch.endsWith("a") && !known.archSpecific) {
            throw new IllegalArgumentException("'" + arch + "' is not an architecture nvcc builds (only sm_90a, sm_100a and"
                    + " sm_120a have an a form); use " + known.arch());
        }
        return known;
    }

    /** The architectures a user may name, for a message: {@code sm_75, sm_80, ...}. */
    public static String names() {
        return KNOWN.stream().map(CudaArchitecture::arch).collect(Collectors.joining(", "));
    }

    public String arch() {
        return "sm_" + version;
    }
}
