package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.gpu.DynamicDataflowMapping;
import dev.finegrain.compiler.backend.gpu.GpuWaits;
import dev.finegrain.compiler.backend.gpu.TileGeometry;

/**
 * Spells a {@link DynamicDataflowMapping} as one CUDA kernel of persistent blocks: thread 0 takes a ready tile from the
 * prelude's ring ({@code fg::ring_take}) and tells its block through shared memory; the block runs the tile exactly as
 * {@link CudaDataParallel} does (its copy loading state past L1: another SM may have written those lines since this
 * one last read them); then thread 0 fences and counts the tile off its neighbours above ({@code fg::ring_arrive}), which puts
 * each one that is complete into the ring. A block ends when it draws a slot past the last tile.
 */
final class CudaDynamicDataflow {

    private CudaDynamicDataflow() {}

    /** Writes the kernel {@code dynamic_dataflow} and returns how the host launches it. */
    static String emit(DynamicDataflowMapping mapping, CudaFields fields, CudaWriter out) {
        TileGeometry tile = mapping.tiles().tile();
        int rank = tile.rank();
        int count = mapping.tileCount();
        int lanes = mapping.threadsPerBlock();
        CudaDataParallel body = new CudaDataParallel(mapping.tiles(), fields, out);
        out.comment(mapping.launchPlan());
        out.open("__global__ void __launch_bounds__(" + lanes + ") dynamic_dataflow(const Fields f, const Params p,"
                + " unsigned* const ring, int* const error)");
        body.emitSharedCopies();
        out.line("__shared__ int s_next;   // the tile thread 0 took, for the whole block");
        out.line("const int t = threadIdx.x;");
        out.open("for (;;)");
        String naps = GpuWaits.naps(mapping.waitPolicy()) ? ", " + GpuWaits.firstNapNs(mapping.waitPolicy()) + "u, "
                + GpuWaits.mostNapNs(mapping.waitPolicy()) + "u" : "";
        out.line("if (t == 0) s_next = fg::ring_take(ring, " + count + "u" + naps + ");");
        out.line("__syncthreads();");
        out.line("const int tile = s_next;");
        out.line("if (tile < 0) return;   // every tile is taken");
        String[] coordinate = {"I", "J", "K"};
        String[] origin = {"i0", "j0", "k0"};
        for (int d = 0; d < rank; d++) {
            String index = "tile" + (tile.tileStride(d) == 1 ? "" : " / " + tile.tileStride(d)) + (d == 0 ? "" : " % " + tile.tiles(d));
            out.line("const int " + coordinate[d] + " = " + index + ";");
            out.line("const int " + origin[d] + " = " + coordinate[d] + " * " + tile.interior()[d] + ";");
        }
        body.emitTile(true);
        out.comment("count the tile off its neighbours above; each one it completes goes into the ring");
        out.open("if (t == 0)");
        out.line("__threadfence();   // the tile's stores happen before any neighbour is taken");
        StringBuilder below = new StringBuilder();
        for (int d = 0; d < rank; d++) {
            below.append(d == 0 ? "" : " + ").append("(").append(coordinate[d]).append(" > 0)");
        }
        out.line("const unsigned below = " + below + ";   // this tile's neighbours below");
        for (int d = 0; d < rank; d++) {
            out.line("if (" + coordinate[d] + " + 1 < " + tile.tiles(d) + ") fg::ring_arrive(ring, " + count + "u, tile + "
                    + tile.tileStride(d) + ", below - (" + coordinate[d] + " > 0) + 1u);");
        }
        out.close();
        out.close();
        out.close();
        out.blank();
        return "dynamic_dataflow<<<" + mapping.blocks() + ", " + lanes + ", 0, stream>>>(f, p, barrier + 1, error);"
                + "   // the ring's words follow the barrier counter";
    }
}
