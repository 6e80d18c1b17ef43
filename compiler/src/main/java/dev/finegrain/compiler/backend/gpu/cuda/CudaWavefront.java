package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.gpu.WavefrontMapping;
import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.internal.DependenceMath;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Spells a {@link WavefrontMapping} as one CUDA launch over global memory: the hyperplane steps (anti-diagonals in 2D,
 * runs of {@code stride} points in 1D), the threads of the grid dealt each step's points in turn, and a barrier between
 * steps: {@code __syncthreads} for one block, Stuart and Owens' atomic inter-block barrier for persistent blocks.
 */
final class CudaWavefront {

    private CudaWavefront() {}

    /** Writes the kernel {@code wavefront} and returns how the host launches it. */
    static String emit(WavefrontMapping mapping, CudaFields fields, CudaWriter out) {
        KernelGraph graph = mapping.graph();
        int[] sizes = fields.sizes();
        int grid = mapping.threadsPerBlock() * mapping.blocks();
        out.comment("wavefront: " + mapping.launchPlan());
        out.open("__global__ void __launch_bounds__(" + mapping.threadsPerBlock() + ") wavefront(const Fields f, const Params p,"
                + " int* const error, unsigned* const barrier)");
        out.line("const int first = (int) (blockIdx.x * blockDim.x + threadIdx.x);");
        out.open("for (int step = 0; step < " + mapping.steps() + "; step++)");
        String[] point;
        if (graph.rank() == 2) {
            out.comment("rows max(0, step - (cols - 1)) .. min(rows - 1, step) of anti-diagonal step");
            out.line("const int low = max(0, step - " + (sizes[1] - 1) + ");");
            out.line("const int count = min(step, " + (sizes[0] - 1) + ") - low + 1;");
            out.open("for (int k = first; k < count; k += " + grid + ")");
            out.line("const int i = low + k;");
            out.line("const int j = step - i;");
            point = new String[] {"i", "j"};
        } else {
            out.comment("points step * stride .. min(n, step * stride + stride) - 1");
            out.line("const int low = step * " + mapping.stride() + ";");
            out.line("const int count = min(" + sizes[0] + " - low, " + mapping.stride() + ");");
            out.open("for (int k = first; k < count; k += " + grid + ")");
            out.line("const int i = low + k;");
            point = new String[] {"i"};
        }
        out.line("const long long g = " + fields.index(point) + ";");
        Map<Integer, String> produced = new LinkedHashMap<>();
        CudaExpressions expressions = new CudaExpressions(out, graph, new CudaExpressions.Operands() {
            @Override
            public String index(int dimension) {
                return point[dimension];
            }

            @Override
            public String load(IrExpr.Load load) {
                if (DependenceMath.isZero(load.offset()) && produced.containsKey(load.field())) {
                    return produced.get(load.field());
                }
                long offset = fields.offset(load.offset());
                return "f." + CudaNames.member(graph.field(load.field()).name()) + "[g"
                        + (offset == 0 ? "" : offset < 0 ? " - " + -offset : " + " + offset) + "]";
            }
        }, sizes, "error");
        expressions.lowerActors(produced, (actor, value) ->
                out.line("f." + CudaNames.member(graph.field(actor.writes()).name()) + "[g] = " + value + ";"));
        out.close();
        if (mapping.interBlockBarrier()) {
            out.line("fg::grid_barrier(barrier, (unsigned) (step + 1) * " + mapping.blocks() + "u);");
        } else {
            out.line("__syncthreads();");
        }
        out.close();
        out.close();
        out.blank();
        return "wavefront<<<" + mapping.blocks() + ", " + mapping.threadsPerBlock() + ", 0, stream>>>(f, p, error, barrier);";
    }
}
