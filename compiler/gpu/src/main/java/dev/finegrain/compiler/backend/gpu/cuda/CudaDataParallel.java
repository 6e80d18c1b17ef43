package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.gpu.CopyBox;
import dev.finegrain.compiler.backend.gpu.DataParallelMapping;
import dev.finegrain.compiler.backend.gpu.GlobalReads;
import dev.finegrain.compiler.backend.gpu.TileGeometry;
import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.internal.DependenceMath;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Spells a {@link DataParallelMapping} as a CUDA kernel, the way Rodinia's needle is written: one block per tile, one
 * launch per block-diagonal; the block copies the tile and its halo of every field into shared memory (beside
 * programmatic launches only the words the tile reads before it writes them, a loop per box), then sweeps
 * the tile's anti-diagonals with {@code __syncthreads} after each (thread t computes row t), storing every point to
 * shared and global memory as it computes it. In 1D a block sweeps its tile in steps of {@code lanes} points; in 3D
 * thread t owns a line (a, b) of the tile and the block sweeps the planes a + b + c = s.
 */
final class CudaDataParallel {

    private final DataParallelMapping mapping;
    private final KernelGraph graph;
    private final CudaFields fields;
    private final CudaWriter out;
    private final TileGeometry tile;

    CudaDataParallel(DataParallelMapping mapping, CudaFields fields, CudaWriter out) {
        this.mapping = mapping;
        this.graph = mapping.graph();
        this.fields = fields;
        this.out = out;
        this.tile = mapping.tile();
    }

    /** Writes the kernel {@code data_parallel} and returns how the host launches it. */
    static String emit(DataParallelMapping mapping, CudaFields fields, CudaWriter out) {
        new CudaDataParallel(mapping, fields, out).emitKernel();
        return CudaTiles.launchPerDiagonal(mapping.tile(), "data_parallel", mapping.lanes(), mapping.programmaticLaunches());
    }

    private String tileArray(int field) {
        return "s_" + CudaNames.member(graph.field(field).name());
    }

    private void emitKernel() {
        int[] interior = tile.interior();
        if (mapping.programmaticLaunches()) {
            // griddepcontrol exists from sm_90 on: built for an older GPU, the unit would drop its waits but keep the
            // host's programmatic launches
            out.line("#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900");
            out.line("#error \"this unit's launches are programmatic dependent launches (sm_90 on); generate it with --arch for"
                    + " the GPU it is built for\"");
            out.line("#endif");
        }
        out.comment("data-parallel: " + mapping.launchPlan());
        out.open("__global__ void __launch_bounds__(" + mapping.lanes() + ") data_parallel(const Fields f, const Params p,"
                + " const int diagonal, int* const error)");
        emitSharedCopies();
        out.line("const int t = threadIdx.x;");
        if (tile.rank() == 3) {
            CudaTiles.emitTileOrigin3d(out, tile);
        } else if (tile.rank() == 2) {
            out.line("const int tileRow = max(0, diagonal - " + (tile.tiles(1) - 1) + ") + (int) blockIdx.x;");
            out.line("const int i0 = tileRow * " + interior[0] + ";");
            out.line("const int j0 = (diagonal - tileRow) * " + interior[1] + ";");
        } else {
            out.line("const int i0 = diagonal * " + interior[0] + ";");
        }
        emitTile(false);
        out.close();
        out.blank();
    }

    /** Each field's tile copy in shared memory. */
    void emitSharedCopies() {
        for (IrField field : GlobalReads.stagedFields(graph)) {
            out.line("__shared__ " + CudaExpressions.type(field.type()) + " " + tileArray(field.id()) + "[" + tile.words() + "];");
        }
    }

    /**
     * One tile, its first point at {@code i0} (and {@code j0}, {@code k0}) and {@code t} the thread: the copy into
     * shared memory, then the sweep with a block barrier after each step. {@code pastL1} loads the state fields' copy
     * through L2 only ({@code __ldcg}): a persistent block must not read a line its SM's L1 kept from before another
     * SM wrote it (inputs never change, so they keep L1).
     */
    void emitTile(boolean pastL1) {
        int[] low = tile.haloLow();
        int[] interior = tile.interior();
        int lanes = mapping.lanes();
        String[] point = point(tile.rank());
        int[] sizes = fields.sizes();
        boolean async = mapping.asyncCopy();   // never where pastL1: dynamic dataflow's mapping copies with loads
        if (mapping.programmaticLaunches()) {
            // every thread of every block waits before its first global access: so a launch also comes after every
            // launch before the one it waits for (that one's blocks waited before they exited)
            out.line("fg::wait_for_previous_launch();   // the launch before this one has ended, its stores visible");
        }
        boolean whole = GlobalReads.stagedFields(graph).stream().allMatch(mapping::copiesWhole);
        out.comment((whole ? "copy the tile and its halo of every field" : "copy the words of each field the tile reads before"
                + " it writes them") + " into shared memory" + (async ? ", by asynchronous copies: every word of a thread in"
                + " flight at once" : ""));
        emitCopy(point, pastL1);
        if (async) {
            out.line("fg::cp_async_wait_all();   // every copy of this thread has landed; the barrier makes them every thread's");
        }
        out.line("__syncthreads();");
        out.comment("sweep: " + mapping.steps() + " steps, a block barrier after each");
        out.open("for (int s = 0; s < " + mapping.steps() + "; s++)");
        String test;
        String word;
        if (tile.rank() == 3) {
            out.comment("thread t computes point c = s - a - b of its line a = t / " + interior[1] + ", b = t % " + interior[1]);
            out.line("const int a = t / " + interior[1] + ";");
            out.line("const int b = t % " + interior[1] + ";");
            out.line("const int c = s - a - b;");
            out.line("const int i = i0 + a;");
            out.line("const int j = j0 + b;");
            out.line("const int k = k0 + c;");
            test = "c >= 0 && c < " + interior[2] + " && i < " + sizes[0] + " && j < " + sizes[1] + " && k < " + sizes[2];
            word = "((a + " + low[0] + ") * " + tile.rows() + " + b + " + low[1] + ") * " + tile.width() + " + c + " + low[2];
        } else if (tile.rank() == 2) {
            out.comment("thread t computes row t, column s - t");
            out.line("const int column = s - t;");
            out.line("const int i = i0 + t;");
            out.line("const int j = j0 + column;");
            test = "column >= 0 && column < " + interior[1] + " && i < " + fields.sizes()[0] + " && j < " + fields.sizes()[1];
            word = "(t + " + low[0] + ") * " + tile.width() + " + column + " + low[1];
        } else {
            out.comment("thread t computes point s * " + lanes + " + t of the tile");
            out.line("const int k = s * " + lanes + " + t;");
            out.line("const int i = i0 + k;");
            test = "k < " + interior[0] + " && i < " + fields.sizes()[0];
            word = "k + " + low[0];
        }
        out.open("if (" + test + ")");
        out.line("const int w = " + word + ";");
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
                return tileArray(load.field()) + "[w" + CudaTiles.wordOffset(load.offset(), tile) + "]";
            }
        }, fields.sizes(), "error", mapping.target());
        expressions.lowerActors(produced, (actor, value) -> {
            out.line(tileArray(actor.writes()) + "[w] = " + value + ";");
            out.line("f." + CudaNames.member(graph.field(actor.writes()).name()) + "[g] = " + value + ";");
        });
        out.close();
        out.line("__syncthreads();");
        out.close();
        if (mapping.programmaticLaunches()) {
            out.line("fg::let_next_launch_in();   // this block has swept its tile");
        }
    }

    /** The names of a point's coordinates, for a rank. */
    private static String[] point(int rank) {
        return switch (rank) {
            case 1 -> new String[] {"i"};
            case 2 -> new String[] {"i", "j"};
            default -> new String[] {"i", "j", "k"};
        };
    }

    /**
     * The copy of each staged field: the fields a block fetches whole in one loop over the copy's words, each lane
     * copying every lanes-th word; a field fetched in part in a loop over each of its boxes.
     */
    private void emitCopy(String[] point, boolean pastL1) {
        List<IrField> whole = GlobalReads.stagedFields(graph).stream().filter(mapping::copiesWhole).toList();
        if (!whole.isEmpty()) {
            out.open("for (int w = t; w < " + tile.words() + "; w += " + mapping.lanes() + ")");
            emitWordCopy(point, pastL1, whole);
            out.close();
        }
        for (IrField field : GlobalReads.stagedFields(graph)) {
            if (mapping.copiesWhole(field)) {
                continue;
            }
            for (CopyBox box : mapping.copies().get(field.id())) {
                out.open("for (int m = t; m < " + box.words() + "; m += " + mapping.lanes() + ")");
                out.comment("'" + field.name() + "': words " + box + " of the copy");
                out.line("const int w = " + wordOfBox(box) + ";");
                emitWordCopy(point, pastL1, List.of(field));
                out.close();
            }
        }
    }

    /** The copy word of the box's m-th word (row-major in the box), terms that are 0 left out. */
    private String wordOfBox(CopyBox box) {
        int rank = tile.rank();
        String word = "";
        int inner = box.words();
        for (int d = 0; d < rank; d++) {
            int extent = box.extent()[d];
            inner /= extent;
            String coordinate = sum(coordinateInBox(d, extent, inner, box.words()), box.start()[d]);
            String above = word.isEmpty() ? "" : "(" + word + ") * " + tile.copyExtent(d);
            word = above.isEmpty() ? coordinate : coordinate.isEmpty() ? above : above + " + " + coordinate;
        }
        return word.isEmpty() ? "0" : word;
    }

    /**
     * The coordinate along d of the box's m-th word, whose dimensions after d span {@code inner} words: m / inner, taken
     * modulo the extent unless d is the outermost dimension or the only one longer than a word; empty where the box is
     * one word thick along d.
     */
    private static String coordinateInBox(int d, int extent, int inner, int words) {
        if (extent == 1) {
            return "";
        }
        String quotient = inner == 1 ? "m" : "m / " + inner;
        if (d == 0 || extent == words) {
            return quotient;
        }
        return inner == 1 ? "m % " + extent : "(" + quotient + ") % " + extent;
    }

    /** {@code term + constant}, either left out where it is empty or 0. */
    private static String sum(String term, int constant) {
        return constant == 0 ? term : term.isEmpty() ? String.valueOf(constant) : term + " + " + constant;
    }

    /** One copy word {@code w}: its point in the padded fields, and each of {@code copied}'s words fetched or zeroed. */
    private void emitWordCopy(String[] point, boolean pastL1, List<IrField> copied) {
        int[] low = tile.haloLow();
        int[] sizes = fields.sizes();
        if (tile.rank() == 3) {
            out.line("const int i = i0 + w / " + (tile.rows() * tile.width()) + " - " + low[0] + ";");
            out.line("const int j = j0 + w / " + tile.width() + " % " + tile.rows() + " - " + low[1] + ";");
            out.line("const int k = k0 + w % " + tile.width() + " - " + low[2] + ";");
            out.line("const bool inside = i < " + (sizes[0] + tile.haloHigh()[0]) + " && j < " + (sizes[1] + tile.haloHigh()[1])
                    + " && k < " + (sizes[2] + tile.haloHigh()[2]) + ";");
        } else if (tile.rank() == 2) {
            out.line("const int i = i0 + w / " + tile.width() + " - " + low[0] + ";");
            out.line("const int j = j0 + w % " + tile.width() + " - " + low[1] + ";");
            out.line("const bool inside = i < " + (sizes[0] + tile.haloHigh()[0]) + " && j < "
                    + (sizes[1] + tile.haloHigh()[1]) + ";");
        } else {
            out.line("const int i = i0 + w - " + low[0] + ";");
            out.line("const bool inside = i < " + (sizes[0] + tile.haloHigh()[0]) + ";");
        }
        out.line("const long long g = " + fields.index(point) + ";");
        for (IrField field : copied) {
            String member = "f." + CudaNames.member(field.name()) + "[g]";
            if (mapping.asyncCopy()) {
                out.line("fg::cp_async_or_zero(&" + tileArray(field.id()) + "[w], &f." + CudaNames.member(field.name())
                        + "[inside ? g : 0], inside);");
            } else {
                out.line(tileArray(field.id()) + "[w] = inside ? " + (pastL1 && field.isState() ? "__ldcg(&" + member + ")" : member)
                        + " : " + (field.type() == dev.finegrain.dsl.Type.DOUBLE ? "0.0" : "0") + ";");
            }
        }
    }
}
