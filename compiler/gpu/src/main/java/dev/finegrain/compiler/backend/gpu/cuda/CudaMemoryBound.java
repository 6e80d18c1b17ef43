package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.MemoryBound;
import dev.finegrain.compiler.ir.KernelGraph;

import java.util.Map;

/**
 * A CUDA row's memory bound ({@link MemoryBound}): the least bytes a point moves in the GPU targets' storage (4 bytes,
 * 8 for long and double, 1 for a byte input; none for a field the row's mapping folds) against the copy bandwidth the harness timed in the same run ({@code copy_gbps}). For rows
 * run here and for rows an exported bundle's harness wrote, which the merge annotates.
 */
public final class CudaMemoryBound {

    /** The harness's member holding the copy bandwidth it timed, in GB/s (0 when the GPU had no room for the copy). */
    public static final String COPY_GBPS = "copy_gbps";

    private CudaMemoryBound() {}

    public static long bytesPerPoint(KernelGraph graph) {
        return MemoryBound.bytesPerPoint(graph, field -> CudaFields.elementBytes(graph, field));
    }

    /** The same where the fields named {@code folded} are folded: they move no bytes per point. */
    public static long bytesPerPoint(KernelGraph graph, java.util.Collection<String> folded) {
        return MemoryBound.bytesPerPoint(graph, field -> folded.contains(field.name()) ? 0 : CudaFields.elementBytes(graph, field));
    }

    /**
     * The bound's details for a row of {@code cellsPerSecond} whose harness timed {@code copyGbps}, the fields named
     * {@code folded} moving no bytes; none without a copy or bytes (a run whose every field folds has no memory bound).
     */
    public static Map<String, Object> details(KernelGraph graph, java.util.Collection<String> folded, Object copyGbps,
                                              double cellsPerSecond) {
        return details(bytesPerPoint(graph, folded), copyGbps, cellsPerSecond);
    }

    private static Map<String, Object> details(long bytes, Object copyGbps, double cellsPerSecond) {
        if (!(copyGbps instanceof Number gbps) || !(gbps.doubleValue() > 0) || bytes == 0) {
            return Map.of();
        }
        return new MemoryBound(bytes, gbps.doubleValue() * 1e9).details(cellsPerSecond);
    }
}
