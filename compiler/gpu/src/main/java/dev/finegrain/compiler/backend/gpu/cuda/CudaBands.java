package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.gpu.BandMapping;
import dev.finegrain.compiler.backend.gpu.BandMapping.BandEdge;
import dev.finegrain.compiler.backend.gpu.BandMapping.BandRead;
import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.TableSpec;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Spells a {@link BandMapping} as one persistent CUDA kernel: each warp walks its bands chunk by chunk (32 steps),
 * waiting at the start of a chunk for the left band's edge and copying it into its window in shared memory; in each
 * step every lane shuffles in what its reads need from the lanes to its left, and the lanes whose row is in the
 * domain compute their point, store it, and publish what the band to the right waits for. What the edge tokens are
 * and how they are waited for is the mechanism's {@link CudaSync} band protocol.
 */
final class CudaBands {

    private static final String FULL = "0xffffffffu";
    private static final int WARP = GpuTarget.WARP;

    private final BandMapping mapping;
    private final KernelGraph graph;
    private final CudaFields fields;
    private final CudaWriter out;
    private final CudaSync sync;
    private final CudaBandContext cx;
    private final BandEdge edge;

    private CudaBands(BandMapping mapping, CudaFields fields, CudaWriter out) {
        this.mapping = mapping;
        this.graph = mapping.graph();
        this.fields = fields;
        this.out = out;
        this.sync = CudaSyncs.of(mapping.mechanism().id());
        this.cx = new CudaBandContext(out, mapping, fields);
        this.edge = mapping.edge();
    }

    /**
     * Writes the kernel; returns the host code that launches it: cooperatively, so that the launch fails with a clear
     * error rather than hangs when the blocks cannot all be resident, as band b's wait for band b - 1 needs.
     */
    static String emit(BandMapping mapping, CudaFields fields, CudaWriter out) {
        new CudaBands(mapping, fields, out).kernel();
        int bytes = mapping.dynamicSharedBytes();
        return String.join("\n    ",
                "// one persistent launch; its rings take " + bytes + " bytes of dynamic shared memory per block",
                "cudaError_t status = cudaFuncSetAttribute(lock_dataflow_bands, cudaFuncAttributeMaxDynamicSharedMemorySize, " + bytes + ");",
                "if (status != cudaSuccess) return status;",
                "char* scratch_bytes = (char*) scratch;",
                "void* arguments[] = {(void*) &f, (void*) &p, (void*) &scratch_bytes, (void*) &error};",
                "status = cudaLaunchCooperativeKernel((const void*) lock_dataflow_bands, dim3(" + mapping.blocks() + "), dim3("
                        + mapping.threadsPerBlock() + "), arguments, " + bytes + ", stream);",
                "if (status != cudaSuccess) return status;");
    }

    private void kernel() {
        out.comment("lock-dataflow:persistent: " + mapping.launchPlan());
        out.open("__global__ void __launch_bounds__(" + mapping.threadsPerBlock() + ") lock_dataflow_bands(const Fields f,"
                + " const Params p, char* const scratch, int* const error)");
        if (edge.crossed()) {
            out.comment("per warp: the left band's edge columns for the rows one chunk of steps reads");
            for (IrField field : edge.fields()) {
                out.line("__shared__ " + cx.type(field) + " " + window(field) + "[" + mapping.warpsPerBlock() + "][" + edge.columns()
                        + "][" + edge.windowRows() + "];");
            }
            out.line(sync.bandTokenType() + "* const " + CudaBandContext.TOKENS + " = (" + sync.bandTokenType() + "*) (scratch + "
                    + BandMapping.TOKEN_BASE_BYTES + ");");
        }
        stageTables();
        out.line("const int lane = threadIdx.x % 32;");
        out.line("const int warp = threadIdx.x / 32;");
        declareRings();
        out.open("for (int band = blockIdx.x * " + mapping.warpsPerBlock() + " + warp; band < " + mapping.bands()
                + "; band += gridDim.x * " + mapping.warpsPerBlock() + ")");
        out.line("const int j = band * 32 + lane;   // my column");
        for (IrField field : mapping.laneSequences()) {
            out.line("const " + cx.type(field) + " " + laneSequence(field) + " = j < " + mapping.columns() + " ? __ldg(&f."
                    + CudaNames.member(field.name()) + "[j]) : 0;   // sequence '" + field.name() + "' at my column, for every step");
        }
        declareHistory();
        if (edge.crossed() && !edge.readyWords()) {
            out.line("int seen = 0;   // tokens of the band to the left already waited for");
        }
        if (!mapping.inputRings().isEmpty()) {
            out.comment("the first chunk's input rows");
            for (BandMapping.Ring ring : mapping.inputRings()) {
                stage(ring, "-31 - " + ring.highestRowBack(), "31 - " + ring.lowestRowBack());
            }
            out.line("fg::cp_async_commit();");
        }
        out.open("for (int base = 0; base < " + mapping.stepsPerBand() + "; base += 32)");
        if (!mapping.inputRings().isEmpty()) {
            out.line("fg::cp_async_wait_all();   // this chunk's input rows have landed (each lane copies and reads its own column)");
            out.comment("the next chunk's new input rows, copied while this chunk computes");
            for (BandMapping.Ring ring : mapping.inputRings()) {
                stage(ring, "base + 32 - " + ring.lowestRowBack(), "base + 63 - " + ring.lowestRowBack());
            }
            out.line("fg::cp_async_commit();");
        }
        if (edge.crossed()) {
            copyEdge();
        }
        // a chunk whose every lane has a row of the domain in every step, in a band of full width, needs no checks
        out.open("if (base >= 32 && base + 31 < " + mapping.rows() + " && band < " + (mapping.columns() / WARP) + ")");
        out.line("#pragma unroll 8   // lets the compiler start a step's shared loads under the last step's shuffles");
        out.open("for (int k = 0; k < 32; k++)");
        step(true);
        out.close();
        out.reopen("else");
        out.open("for (int k = 0; k < 32; k++)");
        step(false);
        out.close();
        out.close();
        writeFinishedRows();
        out.close();
        out.close();
        out.close();
    }

    /** Each lookup table copied into the block's shared memory, before any band runs (the mapping's decision). */
    private void stageTables() {
        if (!mapping.stagesTables()) {
            return;
        }
        out.comment("the lookup tables, copied into shared memory once per block");
        for (int t = 0; t < graph.kernel().tables().size(); t++) {
            TableSpec table = graph.kernel().tables().get(t);
            out.line("__shared__ " + CudaExpressions.type(table.type()) + " " + stagedTable(t) + "[" + table.length() + "];");
            out.line("for (int w = threadIdx.x; w < " + table.length() + "; w += blockDim.x) " + stagedTable(t) + "[w] = f."
                    + CudaNames.member(table.name()) + "[w];");
        }
        out.line("__syncthreads();");
    }

    private String stagedTable(int table) {
        return "s_table_" + CudaNames.member(graph.kernel().tables().get(table).name());
    }

    private static String laneSequence(IrField field) {
        return "q_" + CudaNames.member(field.name());
    }

    private static String ring(IrField field, String kind) {
        return kind + "_" + CudaNames.member(field.name());
    }

    /** Each warp's rings in dynamic shared memory: rows of the band's 32 columns, row r at r mod the ring's rows. */
    private void declareRings() {
        if (mapping.inputRings().isEmpty() && mapping.outputRings().isEmpty()) {
            return;
        }
        out.line("extern __shared__ __align__(16) unsigned char fg_smem[];");
        out.line("unsigned char* const my_smem = fg_smem + warp * " + mapping.warpSharedBytes() + ";");
        for (BandMapping.Ring ring : mapping.inputRings()) {
            out.line(cx.type(ring.field()) + "* const " + ring(ring.field(), "in") + " = (" + cx.type(ring.field()) + "*) (my_smem + "
                    + ring.offsetBytes() + ");   // [" + ring.rows() + "][32] input '" + ring.field().name() + "', my band's columns");
        }
        for (BandMapping.Ring ring : mapping.outputRings()) {
            out.line(cx.type(ring.field()) + "* const " + ring(ring.field(), "out") + " = (" + cx.type(ring.field()) + "*) (my_smem + "
                    + ring.offsetBytes() + ");   // [" + ring.rows() + "][32] my band's values of '" + ring.field().name() + "'");
        }
    }

    /** Starts the copies of rows {@code from} to {@code to} (clamped to the padded field) of an input ring. */
    private void stage(BandMapping.Ring ring, String from, String to) {
        int low = -fields.halo().low()[0];
        int high = mapping.rows() - 1 + fields.halo().high()[0];
        out.open("if (j < " + mapping.columns() + ")");
        out.open("for (int r = max(" + from + ", " + low + "); r <= min(" + to + ", " + high + "); r++)");
        out.line("fg::cp_async(&" + ring(ring.field(), "in") + "[(r & " + (ring.rows() - 1) + ") * 32 + lane], &f."
                + CudaNames.member(ring.field().name()) + "[" + fields.index(new String[] {"r", "j"}) + "], "
                + GpuTarget.elementBytes(ring.field().type()) + ");");
        out.close();
        out.close();
    }

    /**
     * After a chunk: the rows whose last lane finished in it go to global memory whole, one coalesced row at a time;
     * each lane writes its own column, which only it wrote into the ring, so no lane waits for another.
     */
    private void writeFinishedRows() {
        out.open("if (j < " + mapping.columns() + ")");
        out.open("for (int r = max(base - 31, 0); r <= min(base, " + (mapping.rows() - 1) + "); r++)");
        for (BandMapping.Ring ring : mapping.outputRings()) {
            out.line("f." + CudaNames.member(ring.field().name()) + "[" + fields.index(new String[] {"r", "j"}) + "] = "
                    + ring(ring.field(), "out") + "[(r & " + (ring.rows() - 1) + ") * 32 + lane];");
        }
        out.close();
        out.close();
    }

    private static String window(IrField field) {
        return "s_edge_" + CudaNames.member(field.name());
    }

    private static String history(IrField field, int back) {
        return "h_" + CudaNames.member(field.name()) + "_" + back;
    }

    /**
     * A lane's last values of each state field its band reads back; before the band's first step they are what the
     * lane would have held above the domain: the halo rows, -1 - k - lane for k steps back (0 beyond the halo).
     */
    private void declareHistory() {
        int haloRows = fields.halo().low()[0];
        for (IrField field : graph.fields()) {
            int depth = mapping.history()[field.id()];
            if (depth == 0) {
                continue;
            }
            out.comment("my values of " + field.name() + " 1 to " + depth + " step(s) back; before the first step, the halo rows above");
            for (int back = 0; back < depth; back++) {
                String row = "-" + (back + 1) + " - lane";
                out.line(cx.type(field) + " " + history(field, back) + " = " + row + " >= " + (-haloRows) + " && j < "
                        + mapping.columns() + " ? f." + CudaNames.member(field.name()) + "[" + fields.index(new String[] {row, "j"})
                        + "] : 0;");
            }
        }
    }

    /**
     * At a chunk's start: the edge window, the left band's edge columns for the rows the chunk reads. Rows above the
     * domain and, for band 0, the columns left of it are the fields' halo (the boundary); the rest waits for the left
     * band's tokens.
     */
    private void copyEdge() {
        int haloRows = fields.halo().low()[0];
        out.line("const int wb = base - " + (edge.columns() - 1 + edge.rowsBack()) + ";   // the window's first row");
        out.line("__syncwarp();   // every lane has read the last chunk's window before it is overwritten");
        out.line("const int last = min(base + 31, " + (mapping.rows() - 1) + ");   // the last row this chunk reads");
        if (!edge.readyWords()) {
            out.open("if (band > 0)");
            sync.bandWait(cx, "last", "seen");
            out.close();
        }
        int cells = edge.columns() * edge.windowRows();
        out.open("for (int x = lane; x < " + cells + "; x += 32)");
        out.line("const int slot = x / " + edge.windowRows() + ";");
        out.line("const int row = wb + x % " + edge.windowRows() + ";");
        out.open("if (row >= " + (-haloRows) + " && row <= last)");
        for (IrField field : edge.fields()) {
            String target = window(field) + "[warp][slot][x % " + edge.windowRows() + "]";
            out.open("if (band == 0 || row < 0)");
            out.line(target + " = " + cx.fieldElement(field, "row", "32 * band - " + edge.columns() + " + slot") + ";   // the halo");
            out.reopen("else");
            sync.bandLoadEdge(cx, field, "row", "slot", target);
            out.close();
        }
        out.close();
        out.close();
        out.line("__syncwarp();   // the window is complete before any lane reads it");
    }

    /** One step; a steady one knows that every lane computes a point of the domain. */
    private void step(boolean steady) {
        out.line("const int s = base + k;");
        out.line("const int i = s - lane;   // my row in this step");
        if (!steady) {
            out.line("const bool computes = i >= 0 && i < " + mapping.rows() + " && j < " + mapping.columns() + ";");
        }
        Map<BandRead, String> shuffled = new HashMap<>();
        List<BandRead> reads = mapping.reads();
        for (BandRead read : reads) {
            if (read.columnsBack() > 0) {
                String name = out.temporary("u");
                out.line("const " + cx.type(read.field()) + " " + name + " = __shfl_up_sync(" + FULL + ", "
                        + history(read.field(), read.stepsBack() - 1) + ", " + read.columnsBack() + ");   // "
                        + text(read) + " from lane l-" + read.columnsBack());
                shuffled.put(read, name);
            }
        }
        // every read resolved by every lane without a branch: the boundary rows come through the history (lanes above
        // the domain hold its halo there) and the boundary columns through band 0's edge window
        Map<BandRead, String> resolved = new HashMap<>();
        for (BandRead read : reads) {
            if (!read.samePoint()) {
                resolved.put(read, resolve(read, shuffled.get(read)));
            }
        }
        // the staged inputs, loaded by every lane before anything waits on them (the ring index is always valid)
        Map<String, String> stagedInputs = new HashMap<>();
        for (BandMapping.Ring ring : mapping.inputRings()) {
            for (int back = ring.lowestRowBack(); back <= ring.highestRowBack(); back++) {
                String name = out.temporary("in");
                out.line("const " + cx.type(ring.field()) + " " + name + " = " + ring(ring.field(), "in") + "[((i - " + back + ") & "
                        + (ring.rows() - 1) + ") * 32 + lane];   // " + ring.field().name() + "[i-" + back + ", j]");
                stagedInputs.put(ring.field().name() + "@" + back, name);
            }
        }
        for (IrField field : stateFieldsWithHistory()) {
            out.line(cx.type(field) + " o_" + CudaNames.member(field.name()) + " = 0;   // my value of " + field.name()
                    + " in this step");
        }
        if (!steady) {
            out.open("if (computes)");
        }
        out.line("[[maybe_unused]] const long long g = " + fields.index(new String[] {"i", "j"}) + ";   // my point in every field");
        Map<Integer, String> produced = new HashMap<>();
        CudaExpressions expressions = new CudaExpressions(out, graph, operands(resolved, produced, stagedInputs), fields.sizes(),
                "error");
        expressions.lowerActors(produced, (actor, value) -> {
            IrField field = graph.field(actor.writes());
            out.line(ring(field, "out") + "[(i & " + (BandMapping.OUTPUT_RING_ROWS - 1) + ") * 32 + lane] = " + value + ";");
            if (edge.crossed() && !edge.readyWords() && edge.fields().contains(field)) {
                out.line("if (lane >= " + (WARP - edge.columns()) + ") f." + CudaNames.member(field.name()) + "[g] = " + value
                        + ";   // the edge, which the band to the right reads after the token");
            }
            if (mapping.history()[field.id()] > 0) {
                out.line("o_" + CudaNames.member(field.name()) + " = " + value + ";");
            }
            if (edge.readyWords() && edge.fields().contains(field)) {
                out.open("if (lane >= " + (WARP - edge.columns()) + " && band < " + (mapping.bands() - 1) + ")");
                sync.bandPublishValue(cx, field, "lane - " + (WARP - edge.columns()), value);
                out.close();
            }
        });
        List<IrField> withHistory = stateFieldsWithHistory();
        if (!steady && !withHistory.isEmpty()) {
            out.reopen("else if (i < 0 && i >= " + (-fields.halo().low()[0]) + " && j < " + mapping.columns() + ")");
            out.comment("above the domain: the halo row, which the lanes below and to the right read as my history");
            for (IrField field : withHistory) {
                out.line("o_" + CudaNames.member(field.name()) + " = f." + CudaNames.member(field.name()) + "["
                        + fields.index(new String[] {"i", "j"}) + "];");
            }
        }
        if (!steady) {
            out.close();
        }
        shiftHistory();
        if (edge.crossed() && !edge.readyWords()) {
            publishToken();
        }
    }

    private List<IrField> stateFieldsWithHistory() {
        return graph.fields().stream().filter(field -> mapping.history()[field.id()] > 0).toList();
    }

    private static String text(BandRead read) {
        return read.field().name() + "[i-" + read.rowsBack() + ", j-" + read.columnsBack() + "]";
    }

    /**
     * Where a read's value comes from at this lane: its own history (same column), the lane the read reaches (a
     * shuffle), or, for the lanes left of that reach, the edge window; every lane loads the window, at a clamped
     * index, and keeps what its lane needs, so that the step has no branch.
     */
    private String resolve(BandRead read, String shuffledName) {
        String name = out.temporary("r");
        String type = cx.type(read.field());
        if (read.columnsBack() == 0) {
            out.line("const " + type + " " + name + " = " + history(read.field(), read.rowsBack() - 1) + ";   // " + text(read));
            return name;
        }
        String slot = "min(lane + " + (edge.columns() - read.columnsBack()) + ", " + (edge.columns() - 1) + ")";
        String row = "min(max(i - " + read.rowsBack() + " - wb, 0), " + (edge.windowRows() - 1) + ")";
        String fromEdge = out.temporary("e");
        out.line("const " + type + " " + fromEdge + " = " + window(read.field()) + "[warp][" + slot + "][" + row + "];");
        out.line("const " + type + " " + name + " = lane < " + read.columnsBack() + " ? " + fromEdge + " : " + shuffledName
                + ";   // " + text(read) + ": the left band's edge, or lane l-" + read.columnsBack());
        return name;
    }

    private CudaExpressions.Operands operands(Map<BandRead, String> resolved, Map<Integer, String> produced,
                                              Map<String, String> stagedInputs) {
        return new CudaExpressions.Operands() {
            @Override
            public String index(int dimension) {
                return dimension == 0 ? "i" : "j";
            }

            @Override
            public String load(IrExpr.Load load) {
                IrField field = graph.field(load.field());
                if (field.isState()) {
                    BandRead read = new BandRead(field, -load.offset()[0], -load.offset()[1]);
                    return read.samePoint() ? produced.get(field.id()) : resolved.get(read);
                }
                if (mapping.staged(field)) {
                    return stagedInputs.get(field.name() + "@" + (-load.offset()[0]));
                }
                return "f." + CudaNames.member(field.name()) + "[g + " + fields.offset(load.offset()) + "]";
            }

            @Override
            public java.util.Optional<String> laneSequence(IrExpr.Load load) {
                IrField field = graph.field(load.field());
                return mapping.laneSequences().contains(field) && load.offset()[1] == 0
                        ? java.util.Optional.of(CudaBands.laneSequence(field)) : java.util.Optional.empty();
            }

            @Override
            public java.util.Optional<String> stagedTable(int table) {
                return mapping.stagesTables() ? java.util.Optional.of(CudaBands.this.stagedTable(table)) : java.util.Optional.empty();
            }
        };
    }

    private void shiftHistory() {
        for (IrField field : stateFieldsWithHistory()) {
            int depth = mapping.history()[field.id()];
            for (int back = depth - 1; back > 0; back--) {
                out.line(history(field, back) + " = " + history(field, back - 1) + ";");
            }
            out.line(history(field, 0) + " = o_" + CudaNames.member(field.name()) + ";");
        }
    }

    /** Token words: after lane 31 finished the last row of a group, the warp meets and lane 31 publishes it. */
    private void publishToken() {
        int group = edge.groupRows();
        int rows = mapping.rows();
        out.line("const int r31 = s - 31;   // the row lane 31, the band's last column, finished in this step");
        out.open("if (band < " + (mapping.bands() - 1) + " && r31 >= 0 && r31 < " + rows
                + (group == 1 ? "" : " && ((r31 + 1) % " + group + " == 0 || r31 == " + (rows - 1) + ")") + ")");
        out.line("__syncwarp();   // every lane's stores before the token");
        out.open("if (lane == 31)");
        sync.bandPublishToken(cx, group == 1 ? "r31" : "r31 / " + group);
        out.close();
        out.close();
    }
}
