package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.gpu.GpuWaits;
import dev.finegrain.compiler.backend.gpu.WavefrontDiagonals;
import dev.finegrain.compiler.backend.gpu.WavefrontMapping;
import dev.finegrain.compiler.backend.gpu.WavefrontPlanes;
import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.GridBarrier;
import dev.finegrain.dsl.internal.DependenceMath;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Spells a {@link WavefrontMapping} as one CUDA launch over global memory: the hyperplane steps (planes of candidates
 * in 3D, anti-diagonals or a steeper plane's diagonals in 2D, runs of {@code stride} points in 1D), the threads of the grid dealt each step's points
 * in turn, and a barrier between steps: {@code __syncthreads} for one block, and for persistent blocks the mapping's
 * inter-block barrier: Stuart and Owens' atomic one, Xiao and Feng's XF barrier, or a cooperative launch's
 * {@code grid.sync()}; or, for a relaunch, one step per launch and the host's loop over the steps.
 */
final class CudaWavefront {

    private CudaWavefront() {}

    /**
     * Opens the loop over a 3D step's candidates ({@link WavefrontPlanes}) and declares their coordinates
     * {@code i, j, k}; the derived one may fall outside the domain.
     */
    private static String[] emitPlaneStep(WavefrontPlanes planes, int grid, CudaWriter out) {
        String[] names = {"i", "j", "k"};
        int row = planes.rowDimension();
        int column = planes.columnDimension();
        int rowLast = planes.sizes()[row] - 1;
        if (planes.onPlane(row)) {
            out.comment("rows max(0, step - " + planes.rowReach() + ") .. min(" + rowLast + ", step) of the plane's box, "
                    + planes.columns() + " columns each");
            out.line("const int low = max(0, step - " + planes.rowReach() + ");");
            out.line("const int count = (min(step, " + rowLast + ") - low + 1) * " + planes.columns() + ";");
        } else {
            out.comment("every row of the box (the plane does not constrain " + names[row] + "), " + planes.columns()
                    + " columns each");
            out.line("const int low = 0;");
            out.line("const int count = " + (rowLast + 1) * planes.columns() + ";");
        }
        out.open("for (int c = first; c < count; c += " + grid + ")");
        out.line("const int " + names[row] + " = low + c / " + planes.columns() + ";");
        out.line("const int " + names[column] + " = c % " + planes.columns() + ";");
        out.line("const int " + names[planes.derived()] + " = step" + (planes.onPlane(row) ? " - " + names[row] : "")
                + (planes.onPlane(column) ? " - " + names[column] : "") + ";");
        return names;
    }

    /**
     * Opens the loop over the points of a 2D step ({@link WavefrontDiagonals}): rows low to high of the row dimension,
     * the derived coordinate step - c * row (the anti-diagonals: c = 1).
     */
    private static String[] emitDiagonalStep(WavefrontDiagonals diagonals, int grid, CudaWriter out) {
        String[] names = {"i", "j"};
        String row = names[diagonals.row()];
        int c = diagonals.slope();
        out.comment(diagonals.antiDiagonals() ? "rows max(0, step - (cols - 1)) .. min(rows - 1, step) of anti-diagonal step"
                : "the points of step " + DependenceMath.format(diagonals.hyperplane()) + ".p = step: " + row + " from "
                + (c == 0 ? "0" : "ceil((step - " + (diagonals.sizes()[diagonals.derived()] - 1) + ") / " + c + ")") + " to "
                + (c == 0 ? String.valueOf(diagonals.sizes()[diagonals.row()] - 1) : "step / " + c) + ", within the domain");
        out.line("const int low = " + low(diagonals) + ";");
        out.line("const int count = " + high(diagonals) + " - low + 1;");
        out.open("for (int k = first; k < count; k += " + grid + ")");
        out.line("const int " + row + " = low + k;");
        out.line("const int " + names[diagonals.derived()] + " = step" + (c == 0 ? "" : " - " + (c == 1 ? "" : c + " * ") + row) + ";");
        return names;
    }

    /** A 2D step's first row (a steeper plane's integer division rounds towards zero: below 0 it gives 0 at most). */
    private static String low(WavefrontDiagonals diagonals) {
        int c = diagonals.slope();
        int last = diagonals.sizes()[diagonals.derived()] - 1;
        return c == 0 ? "0" : c == 1 ? "max(0, step - " + last + ")" : "max(0, (step - " + last + " + " + (c - 1) + ") / " + c + ")";
    }

    private static String high(WavefrontDiagonals diagonals) {
        int c = diagonals.slope();
        int last = diagonals.sizes()[diagonals.row()] - 1;
        return c == 0 ? String.valueOf(last) : "min(step" + (c == 1 ? "" : " / " + c) + ", " + last + ")";
    }

    /** How many points (in 3D candidates) step {@code step} holds, as the host computes it: {@code pointsAt}. */
    private static String hostCount(WavefrontMapping mapping) {
        int[] sizes = mapping.sizes();
        if (mapping.graph().rank() == 3) {
            WavefrontPlanes planes = mapping.planes();
            int rowLast = sizes[planes.rowDimension()] - 1;
            return planes.onPlane(planes.rowDimension())
                    ? "(min(step, " + rowLast + ") - max(0, step - " + planes.rowReach() + ") + 1) * " + planes.columns()
                    : String.valueOf((rowLast + 1) * planes.columns());
        }
        if (mapping.graph().rank() == 2) {
            return high(mapping.diagonals()) + " - " + low(mapping.diagonals()) + " + 1";
        }
        return "min(" + sizes[0] + " - step * " + mapping.stride() + ", " + mapping.stride() + ")";
    }

    /**
     * Blocks of a relaunched step: as many as its points need, and one for a step of a steeper plane that holds none
     * (the derived dimension narrower than the slope), since CUDA refuses a launch of no blocks.
     */
    private static String launchBlocks(WavefrontMapping mapping) {
        String blocks = "(count + " + (mapping.threadsPerBlock() - 1) + ") / " + mapping.threadsPerBlock();
        boolean mayBeEmpty = mapping.graph().rank() == 2 && mapping.diagonals().slope() > 1;
        return mayBeEmpty ? "max(1, " + blocks + ")" : blocks;
    }

    /** The barrier's nap arguments under the mapping's wait policy ({@link GpuWaits}): none for a spinning wait. */
    private static String naps(WavefrontMapping mapping) {
        dev.finegrain.dsl.WaitPolicy policy = mapping.waitPolicy();
        return GpuWaits.naps(policy) ? ", " + GpuWaits.firstNapNs(policy) + "u, " + GpuWaits.mostNapNs(policy) + "u" : "";
    }

    /** Writes the kernel {@code wavefront} and returns how the host launches it. */
    static String emit(WavefrontMapping mapping, CudaFields fields, CudaWriter out) {
        KernelGraph graph = mapping.graph();
        int[] sizes = fields.sizes();
        int grid = mapping.threadsPerBlock() * mapping.blocks();
        out.comment("wavefront: " + mapping.launchPlan());
        boolean relaunch = mapping.relaunch();
        out.open("__global__ void __launch_bounds__(" + mapping.threadsPerBlock() + ") wavefront(const Fields f, const Params p,"
                + " int* const error, unsigned* const barrier" + (relaunch ? ", const int step" : "") + ")");
        out.line("const int first = (int) (blockIdx.x * blockDim.x + threadIdx.x);");
        if (relaunch) {
            out.comment("a launch per step, the host's loop passing it: the kernel boundary is the barrier");
            out.open("if (step < " + mapping.steps() + ")");
        } else {
            out.open("for (int step = 0; step < " + mapping.steps() + "; step++)");
        }
        String[] point;
        if (graph.rank() == 3) {
            point = emitPlaneStep(mapping.planes(), grid, out);
        } else if (graph.rank() == 2) {
            point = emitDiagonalStep(mapping.diagonals(), grid, out);
        } else {
            out.comment("points step * stride .. min(n, step * stride + stride) - 1");
            out.line("const int low = step * " + mapping.stride() + ";");
            out.line("const int count = min(" + sizes[0] + " - low, " + mapping.stride() + ");");
            out.open("for (int k = first; k < count; k += " + grid + ")");
            out.line("const int i = low + k;");
            point = new String[] {"i"};
        }
        if (graph.rank() == 3) {
            WavefrontPlanes planes = mapping.planes();
            String derived = point[planes.derived()];
            out.open("if (" + derived + " < 0 || " + derived + " >= " + sizes[planes.derived()] + ")");
            out.line("continue;   // a candidate whose derived coordinate leaves the domain computes nothing");
            out.close();
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
        }, sizes, "error", mapping.target());
        expressions.lowerActors(produced, (actor, value) ->
                out.line("f." + CudaNames.member(graph.field(actor.writes()).name()) + "[g] = " + value + ";"));
        out.close();
        if (relaunch) {
            // the step ends with the launch
        } else if (!mapping.interBlockBarrier()) {
            out.line("__syncthreads();");
        } else {
            out.line(switch (mapping.barrier()) {
                case ATOMIC -> "fg::grid_barrier(barrier, (unsigned) (step + 1) * " + mapping.blocks() + "u" + naps(mapping) + ");";
                case XF -> "fg::xf_grid_barrier(barrier + 1, " + mapping.blocks() + "u, (unsigned) step + 1u" + naps(mapping) + ");";
                case COOPERATIVE -> "cooperative_groups::this_grid().sync();";
                case RELAUNCH, DISSEMINATION -> throw new IllegalStateException("no " + mapping.barrier()
                        + " barrier inside a GPU launch");
            });
        }
        out.close();
        out.close();
        out.blank();
        if (mapping.interBlockBarrier() && mapping.barrier() == GridBarrier.COOPERATIVE) {
            return "void* args[] = {(void*) &f, (void*) &p, (void*) &error, (void*) &barrier};\n"
                    + "    const cudaError_t launched = cudaLaunchCooperativeKernel((const void*) wavefront, "
                    + mapping.blocks() + ", " + mapping.threadsPerBlock() + ", args, 0, stream);\n"
                    + "    if (launched != cudaSuccess) return launched;";
        }
        if (relaunch) {
            return "for (int step = 0; step < " + mapping.steps() + "; step++) {\n"
                    + "        const int count = " + hostCount(mapping) + ";   // the step's" + (graph.rank() == 3 ? " candidates"
                    : " points") + "\n"
                    + "        wavefront<<<" + launchBlocks(mapping) + ", " + mapping.threadsPerBlock()
                    + ", 0, stream>>>(f, p, error, barrier, step);\n    }";
        }
        return "wavefront<<<" + mapping.blocks() + ", " + mapping.threadsPerBlock() + ", 0, stream>>>(f, p, error, barrier);";
    }
}
