package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.gpu.BandFolding;
import dev.finegrain.compiler.backend.gpu.BandMapping;
import dev.finegrain.compiler.backend.gpu.BandMapping.BandEdge;
import dev.finegrain.compiler.backend.gpu.GuardedSteps;
import dev.finegrain.compiler.backend.gpu.LaneProfile;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.ReductionSpec;
import dev.finegrain.dsl.TableSpec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Spells a {@link BandMapping} as one persistent CUDA kernel: each warp walks its bands chunk by chunk (32 steps),
 * waiting at the start of a chunk for the left band's edge and copying it into its window in shared memory; in each
 * step every lane shuffles in what its reads need from the lanes to its left, and the lanes whose row is in the
 * domain compute their point, store it, and publish what the band to the right waits for ({@link CudaBandStep}). What
 * the edge tokens are and how they are waited for is the mechanism's {@link CudaSync} band protocol.
 */
final class CudaBands {

    /**
     * A warp alone on its scheduler copies a chunk's rows between steps, so each copy's latency is on the band's chain
     * unless several are in flight at once: unrolled, lanes of 2 to 8 columns ran 8192^2 needleman-wunsch 13 to 20 %
     * faster on an H200 than rolled in an earlier invocation; one-column lanes, which copy a value per row, ran 14 %
     * slower, and are left rolled.
     */
    static final String UNROLL_COPIES = "#pragma unroll 8   // several rows' copies in flight at once";

    private final BandMapping mapping;
    private final KernelGraph graph;
    private final CudaFields fields;
    private final CudaWriter out;
    private final CudaSync sync;
    private final CudaBandContext cx;
    private final BandEdge edge;
    private final CudaBandStep step;
    private final CudaRowAhead rowAhead;
    private final CudaBandEdge chunkEdge;
    private final CudaInputRings inputs;
    private final CudaBandHelpers helpers;
    private final CudaBandFoldedStores foldedStores;
    /** Columns per lane; at 1 the names and indices are the one-column forms. */
    private final int lanes;
    private final int width;

    private CudaBands(BandMapping mapping, CudaFields fields, CudaWriter out) {
        this.mapping = mapping;
        this.graph = mapping.graph();
        this.fields = fields;
        this.out = out;
        this.sync = CudaSyncs.of(mapping.mechanism().id());
        this.cx = new CudaBandContext(out, mapping, fields);
        this.edge = mapping.edge();
        this.lanes = mapping.laneColumns();
        this.width = mapping.bandWidth();
        this.rowAhead = new CudaRowAhead(cx);
        this.step = new CudaBandStep(cx, fields, sync, rowAhead);
        this.chunkEdge = new CudaBandEdge(cx, fields, sync);
        this.inputs = new CudaInputRings(cx, fields);
        this.helpers = new CudaBandHelpers(cx, chunkEdge, inputs);
        this.foldedStores = new CudaBandFoldedStores(cx);
    }

    /**
     * Writes the kernel; returns the host code that launches it: cooperatively, so that the launch fails with a clear
     * error rather than hangs when the blocks cannot all be resident, as band b's wait for band b - 1 needs.
     */
    static String emit(BandMapping mapping, CudaFields fields, CudaWriter out) {
        CudaBands bands = new CudaBands(mapping, fields, out);
        bands.kernel();
        int bytes = mapping.dynamicSharedBytes();
        String combine = "";
        if (!mapping.folding().reductions().isEmpty()) {
            out.blank();
            bands.combineKernel();
            combine = String.join("\n    ", "",
                    "combine_reductions<<<1, 32, 0, stream>>>(scratch_bytes);   // the bands' partial reductions, combined",
                    "status = cudaGetLastError();",
                    "if (status != cudaSuccess) return status;");
        }
        return String.join("\n    ",
                "// one persistent launch; its rings take " + bytes + " bytes of dynamic shared memory per block",
                "cudaError_t status = cudaFuncSetAttribute(lock_dataflow_bands, cudaFuncAttributeMaxDynamicSharedMemorySize, " + bytes + ");",
                "if (status != cudaSuccess) return status;",
                "char* scratch_bytes = (char*) scratch;",
                "void* arguments[] = {(void*) &f, (void*) &p, (void*) &scratch_bytes, (void*) &error};",
                "status = cudaLaunchCooperativeKernel((const void*) lock_dataflow_bands, dim3(" + mapping.blocks() + "), dim3("
                        + mapping.threadsPerBlock() + "), arguments, " + bytes + ", stream);",
                "if (status != cudaSuccess) return status;") + combine;
    }

    private void kernel() {
        out.comment("lock-dataflow:persistent: " + mapping.launchPlan());
        out.open("__global__ void __launch_bounds__(" + mapping.threadsPerBlock() + ") lock_dataflow_bands(const Fields f,"
                + " const Params p, char* const scratch, int* const error)");
        if (edge.crossed()) {
            out.comment("per warp: the left band's edge columns for the rows one chunk of steps reads");
            for (IrField field : edge.fields()) {
                out.line("__shared__ " + cx.type(field) + " " + CudaBandContext.window(field) + "[" + mapping.warpsPerBlock() * BandMapping.windowsPerBand(mapping.helpers())
                        + "][" + edge.columns()
                        + "][" + edge.windowRows() + "];");
            }
            out.line(sync.bandTokenType(cx) + "* const " + CudaBandContext.TOKENS + " = (" + sync.bandTokenType(cx) + "*) (scratch + "
                    + BandMapping.TOKEN_BASE_BYTES + ");");
            if (edge.ring()) {
                out.line("int* const " + CudaBandContext.FREED + " = (int*) (scratch + " + mapping.freeCountersAt() + ");   // per band: the"
                        + " rows of the left band's edge it will not read again");
            }
        }
        declareFolded();
        stageTables();
        out.line("const int lane = threadIdx.x % 32;");
        if (mapping.helpers()) {
            out.line("const int role = threadIdx.x / 32;   // warp 0 steps, warp 1 copies rows in and waits for the edge, warp 2 writes rows back");
            out.line("const int warp = 0;   // the block's one band: its rings and windows");
        } else {
            out.line("const int warp = threadIdx.x / 32;");
        }
        declareRings();
        out.open("for (int band = blockIdx.x * " + mapping.warpsPerBlock() + " + warp; band < " + mapping.bands()
                + "; band += gridDim.x * " + mapping.warpsPerBlock() + ")");
        if (lanes == 1) {
            out.line("const int j = band * 32 + lane;   // my column");
        } else {
            out.line("const int j = band * " + width + " + lane * " + lanes + ";   // my first column; I own " + lanes + " side by side");
        }
        if (mapping.helpers()) {
            out.open("if (role == 0)");
        }
        for (IrField field : mapping.laneSequences()) {
            for (int c = 0; c < lanes; c++) {
                out.line("const " + cx.type(field) + " " + cx.laneSequence(field, c) + " = " + cx.column(c) + " < " + mapping.columns()
                        + " ? __ldg(&f." + CudaNames.member(field.name()) + "[" + cx.column(c) + "]) : 0;   // sequence '"
                        + field.name() + "' at my column, for every step");
            }
        }
        fillProfiles();
        declareHistory();
        foldedStores.declareKeptRegisters();
        List<CudaReductions> reductions = reductions(CudaReductions.LANE);
        reductions.forEach(reduction -> reduction.declare(out));
        reductions.stream().filter(CudaReductions::onceAStep).forEach(reduction -> reduction.declareStepState(out, mapping.laneColumns()));
        for (int c = 0; c < mapping.laneColumns(); c++) {
            if (mapping.raggedBand().testsReductionColumn(c)) {
                int column = c;
                reductions.forEach(reduction -> reduction.declareLimit(out, column, cx.column(column), mapping.columns()));
            }
        }
        if (edge.crossed() && !edge.readyWords() && !mapping.helpers()) {
            out.line("int seen = 0;   // tokens of the band to the left already waited for");
        }
        if (edge.ring()) {
            out.line("int room = 0;   // the band to the right's free counter, as last read");
        }
        if (mapping.helpers()) {
            if (mapping.firstChunk().peeled()) {
                peeledFirstChunk();
            }
            int first = mapping.firstChunk().peeled() ? 1 : 0;
            out.open("for (int base = " + 32 * first + ", c = " + first + "; base < " + mapping.stepsPerBand() + "; base += 32, c++)");
            helpers.stepperWaits();
        } else {
            chunkStart();
        }
        steps();
        if (mapping.helpers()) {
            helpers.stepperHandsBack();
        } else {
            writeFinishedRows();
        }
        out.close();
        if (!mapping.helpers() && !mapping.inputRings().isEmpty()) {
            inputs.waitForLastCopies();
        }
        foldedStores.storeKeptRegisters();
        writePartials(reductions);
        if (mapping.helpers()) {
            out.reopen("else if (role == 1)");
            helpers.copier();
            out.reopen("else");
            helpers.writer(this::writeFinishedRows);
            out.close();
            out.line("__syncthreads();   // the three warps are done with the band's rings before the next band's rows go in");
        }
        out.close();
        out.close();
    }

    /** A band's own warp, before a chunk's steps: the first rows, the copies a chunk ahead, the edge window. */
    private void chunkStart() {
        if (!mapping.inputRings().isEmpty()) {
            out.comment("the first chunk's input rows");
            for (BandMapping.Ring ring : mapping.inputRings()) {
                inputs.stage(ring, "-31 - " + ring.highestRowBack(), "31 - " + ring.lowestRowBack());
            }
            out.line("fg::cp_async_commit();");
        }
        out.open("for (int base = 0; base < " + mapping.stepsPerBand() + "; base += 32)");
        if (!mapping.inputRings().isEmpty()) {
            out.line("fg::cp_async_wait_all();   // this chunk's input rows have landed" + (!inputs.sharesCopies()
                    ? " (each lane copies and reads its own column)" : ", those this lane copied"));
        }
        if (inputs.sharesCopies()) {
            out.line("__syncwarp();   // every lane's copies have landed, and every lane is done with the last chunk's ring rows");
        }
        if (!mapping.inputRings().isEmpty()) {
            out.comment("the next chunk's new input rows, copied while this chunk computes");
            for (BandMapping.Ring ring : mapping.inputRings()) {
                inputs.stage(ring, "base + 32 - " + ring.lowestRowBack(), "base + 63 - " + ring.lowestRowBack());
            }
            out.line("fg::cp_async_commit();");
        }
        if (edge.crossed()) {
            chunkEdge.copyEdge();
        }
        if (edge.ring()) {
            chunkEdge.waitForRoom();
        }
    }

    /**
     * The stepping warp's first chunk, out of the chunk loop, in the steady steps: lanes above the domain compute values
     * nothing reads and then take the halo row ({@link dev.finegrain.compiler.backend.gpu.FirstChunk}).
     */
    private void peeledFirstChunk() {
        out.block("the first chunk, peeled out of the loop: the steady steps, lanes above the domain taking the halo row");
        out.line("const int base = 0, c = 0;");
        helpers.stepperWaits();
        out.line("#pragma unroll 8   // lets the compiler start a step's shared loads under the last step's shuffles");
        out.open("for (int k = 0; k < 32; k++)");
        step.firstStep();
        out.close();
        helpers.stepperHandsBack();
        out.close();
    }

    /** A chunk's 32 steps: the steady form, or the checked one. */
    private void steps() {
        // a chunk whose every lane has a row of the domain in every step, in a band of full width (or the last band, where
        // its columns right of the domain are harmless: RaggedBand), needs no checks
        out.open("if (" + String.join(" && ", steadyChunk()) + ")");
        rowAhead.beforeSteps(true);
        out.line("#pragma unroll 8   // lets the compiler start a step's shared loads under the last step's shuffles");
        out.open("for (int k = 0; k < 32; k++)");
        step.step(true);
        out.close();
        out.reopen("else");
        rowAhead.beforeSteps(false);
        if (mapping.guardedSteps().guarded()) {
            out.line("#pragma unroll " + GuardedSteps.UNROLL + "   // the first and last chunks lie on the chains of bands' starts and ends");
            out.open("for (int k = 0; k < 32; k++)");
            step.guardedStep();
            out.close();
            out.close();
            return;
        }
        int checkedUnroll = mapping.folding().checkedUnroll(graph);
        if (checkedUnroll > 1) {
            out.line("#pragma unroll " + checkedUnroll + "   // a step's reduction overlaps the next step: a band's first chunk is on the chain");
        }
        out.open("for (int k = 0; k < 32; k++)");
        step.step(false);
        out.close();
        out.close();
    }

    /**
     * When a chunk is steady: every lane has a row of the domain in every step, in a band of full width (or in the last
     * band, where {@link dev.finegrain.compiler.backend.gpu.RaggedBand} lets it take the steady steps), and, for each
     * folded field whose kept box starts below row 0 (its last row, its final point), the chunk lies above the box or its
     * band left of it ({@link BandKeptValues#bandsLeftOf}), so that its steps store no kept value of it; the last chunks
     * of the bands over such a box take the checked steps. A box that
     * spans every row (the last column) is stored behind its test in the steady steps too, so that its band keeps pace.
     */
    private List<String> steadyChunk() {
        List<String> tests = new ArrayList<>(List.of("base >= 32", "base + 31 < " + mapping.rows()));
        if (!mapping.raggedBand().runsAsFull()) {
            tests.add("band < " + mapping.steadyBands());
        }
        for (IrField field : mapping.folding().fields()) {
            if (mapping.kept().rowsCheckChunks(field)) {
                String above = "base + 31 < " + mapping.kept().box(field).first()[0];
                int left = mapping.kept().bandsLeftOf(field);
                tests.add(left == 0 ? above : "(" + above + " || band < " + left + ")");
            }
        }
        return tests.stream().distinct().toList();
    }

    /** The folded fields' parts in scratch memory: each one's edge array (token words) and kept values. */
    private void declareFolded() {
        BandFolding folding = mapping.folding();
        for (IrField field : folding.fields()) {
            out.comment("'" + field.name() + "' is folded: no array over the domain (its buffer holds the halo frame)");
            if (folding.hasEdgeArray(field)) {
                out.line(cx.type(field) + "* const " + CudaBandContext.edgeArray(field) + " = (" + cx.type(field) + "*) (scratch + "
                        + folding.offset(BandFolding.edgeKey(field)) + ");   // [band][edge column][row" + (edge.ring() ? " mod " + edge.ringRows() : "") + "]");
            }
            out.line(cx.type(field) + "* const " + CudaBandContext.keptArray(field) + " = (" + cx.type(field) + "*) (scratch + "
                    + folding.offset(BandFolding.keptKey(field)) + ");   // the values the run keeps, row-major");
        }
    }

    /** The streamed reductions of folded fields, their registers' names starting with {@code prefix}. */
    private List<CudaReductions> reductions(String prefix) {
        return mapping.folding().reductions().stream()
                .map(reduction -> new CudaReductions(reduction, graph.field(reduction.field()).type(), prefix)).toList();
    }

    /** At a band's end: the warp combines its lanes' reductions, and lane 0 writes the band's partial. */
    private void writePartials(List<CudaReductions> reductions) {
        for (int r = 0; r < reductions.size(); r++) {
            ReductionSpec spec = mapping.folding().reductions().get(r);
            if (mapping.raggedBand().dropsLanesOutside()) {
                reductions.get(r).dropWhere(out, cx.column(0) + " >= " + mapping.columns());
            }
            if (reductions.get(r).onceAStep()) {
                List<String> columns = new ArrayList<>();
                for (int c = 0; c < mapping.laneColumns(); c++) {
                    columns.add(cx.column(c));
                }
                reductions.get(r).resolvePoint(out, columns, mapping.columns());
            }
            out.comment("the band's " + spec.name() + ", from its lanes'");
            reductions.get(r).combineWarp(out);
            out.open("if (lane == 0)");
            reductions.get(r).store(out, pairs(BandFolding.partialsKey(spec)), "2 * band");
            out.close();
        }
    }

    /** The second launch, one warp: each reduction combined over the bands' partials, written as its result. */
    private void combineKernel() {
        out.open("__global__ void __launch_bounds__(32) combine_reductions(char* const scratch)");
        out.line("const int lane = threadIdx.x;");
        List<CudaReductions> reductions = reductions(CudaReductions.COMBINED);
        for (int r = 0; r < reductions.size(); r++) {
            CudaReductions reduction = reductions.get(r);
            ReductionSpec spec = mapping.folding().reductions().get(r);
            out.open("/* " + spec.name() + " */");
            out.line("const long long* const partials = (const long long*) (scratch + " + mapping.folding().offset(BandFolding.partialsKey(spec)) + ");");
            reduction.declare(out);
            out.comment("each lane takes every 32nd band's partial; a tie keeps the earlier point, so the order does not matter");
            out.open("for (int b = lane; b < " + mapping.bands() + "; b += 32)");
            reduction.combineStored(out, "partials", "2 * b");
            out.close();
            reduction.combineWarp(out);
            out.open("if (lane == 0)");
            reduction.store(out, pairs(BandFolding.resultKey(spec)), "0");
            out.close();
            out.close();
        }
        out.close();
    }

    /** The 64-bit pairs (value, point) of a part of the folding in scratch memory, as an expression. */
    private String pairs(String key) {
        return "((long long*) (scratch + " + mapping.folding().offset(key) + "))";
    }

    /** Each lookup table copied into the block's shared memory, before any band runs (the mapping's decision). */
    private void stageTables() {
        if (!mapping.stagesTables()) {
            return;
        }
        out.comment("the lookup tables, copied into shared memory once per block");
        for (int t = 0; t < graph.kernel().tables().size(); t++) {
            TableSpec table = graph.kernel().tables().get(t);
            out.line("__shared__ " + CudaExpressions.type(table.type()) + " " + cx.stagedTable(t) + "[" + table.length() + "];");
            out.line("for (int w = threadIdx.x; w < " + table.length() + "; w += blockDim.x) " + cx.stagedTable(t) + "[w] = f."
                    + CudaNames.member(table.name()) + "[w];");
        }
        out.line("__syncthreads();");
    }

    /** Each warp's rings in dynamic shared memory: rows of the band's columns, row r at r mod the ring's rows. */
    private void declareRings() {
        if (mapping.inputRings().isEmpty() && mapping.outputRings().isEmpty() && mapping.profiles().isEmpty()) {
            return;
        }
        out.line("extern __shared__ __align__(16) unsigned char fg_smem[];");
        out.line("unsigned char* const my_smem = fg_smem + warp * " + mapping.warpSharedBytes() + ";");
        for (BandMapping.Ring ring : mapping.inputRings()) {
            String type = CudaFields.elementType(graph, ring.field());
            out.line(type + "* const " + CudaBandContext.ring(ring.field(), "in") + " = (" + type + "*) (my_smem + "
                    + ring.offsetBytes() + ");   // [" + ring.rows() + "][" + ring.stride() + "] input '" + ring.field().name() + "', my band's columns"
                    + (ring.packsBytes() ? ", a byte each, row r's first column " + cx.byteShift("r") + " bytes in" : ""));
        }
        for (BandMapping.Ring ring : mapping.outputRings()) {
            out.line(cx.type(ring.field()) + "* const " + CudaBandContext.ring(ring.field(), "out") + " = (" + cx.type(ring.field()) + "*) (my_smem + "
                    + ring.offsetBytes() + ");   // [" + ring.rows() + "][" + ring.stride() + "] my band's values of '" + ring.field().name() + "'");
        }
        for (LaneProfile profile : mapping.profiles()) {
            String type = CudaExpressions.type(graph.kernel().tables().get(profile.table()).type());
            out.line(type + "* const " + cx.profile(profile) + " = (" + type + "*) (my_smem + " + profile.offsetBytes() + ");   // ["
                    + profile.otherExtent() + "][" + (profile.columnsALoad() == 1 ? lanes + "][32]"
                    : lanes / profile.columnsALoad() + "][32][" + profile.columnsALoad() + "]") + " my band's query profile");
        }
    }

    /**
     * Each query profile's elements for my columns, [other index][column][lane] (a wide profile: [other index][column /
     * 4][lane][column % 4], {@link LaneProfile}): the lane's sequence value checked once,
     * here, instead of in every step. A lane fills and reads only its own entries, so no barrier is needed.
     */
    private void fillProfiles() {
        for (LaneProfile profile : mapping.profiles()) {
            TableSpec table = graph.kernel().tables().get(profile.table());
            out.comment("my columns of table '" + table.name() + "' at sequence '" + profile.sequence().name() + "', for every step");
            for (int c = 0; c < lanes; c++) {
                out.open("/* column " + c + " */");
                out.line("const int t = " + CudaExpressions.tableIndex(graph, profile.table(), profile.laneAxis(),
                        cx.laneSequence(profile.sequence(), c), "error") + ";");
                String flat = profile.laneAxis() == 1 ? "x * " + table.extents().get(1) + " + t" : "t * " + table.extents().get(1) + " + x";
                String element = mapping.stagesTables() ? cx.stagedTable(profile.table()) + "[" + flat + "]"
                        : "__ldg(&f." + CudaNames.member(table.name()) + "[" + flat + "])";
                out.line("for (int x = 0; x < " + profile.otherExtent() + "; x++) " + cx.profile(profile) + "["
                        + profile.element("x", lanes, c) + "] = " + element + ";");
                out.close();
            }
        }
    }

    /**
     * After a chunk: the rows whose last lane finished in it go to global memory whole, one coalesced row at a time. A
     * lane of one column writes its own column (with helpers, warp 2's lane l writes what warp 0's lane l left, ordered
     * by the barrier they meet at); lanes of several columns write each row together after the warp meets.
     */
    private void writeFinishedRows() {
        if (mapping.outputRings().isEmpty()) {
            return;   // every state field is folded
        }
        if (lanes == 1) {
            out.open("if (j < " + mapping.columns() + ")");
            out.open("for (int r = max(base - 31, 0); r <= min(base, " + (mapping.rows() - 1) + "); r++)");
            for (BandMapping.Ring ring : mapping.outputRings()) {
                out.line("f." + CudaNames.member(ring.field().name()) + "[" + fields.index(new String[] {"r", "j"}) + "] = "
                        + CudaBandContext.ring(ring.field(), "out") + "[" + cx.ringSlot(ring, "r", 0) + "];");
            }
            out.close();
            out.close();
            return;
        }
        // lanes that own several columns write each row together, 32 consecutive columns at a time (coalesced), so each
        // writes values other lanes left in the ring
        out.line("__syncwarp();   // every lane's values of this chunk are in the ring");
        out.line(UNROLL_COPIES);
        out.open("for (int r = max(base - 31, 0); r <= min(base, " + (mapping.rows() - 1) + "); r++)");
        out.line("#pragma unroll");
        out.open("for (int e = lane; e < " + width + "; e += 32)");
        out.open("if (band * " + width + " + e < " + mapping.columns() + ")");
        for (BandMapping.Ring ring : mapping.outputRings()) {
            out.line("f." + CudaNames.member(ring.field().name()) + "[" + fields.index(new String[] {"r", "band * " + width + " + e"})
                    + "] = " + CudaBandContext.ring(ring.field(), "out") + "[(r & " + (ring.rows() - 1) + ") * " + ring.stride() + " + e];");
        }
        out.close();
        out.close();
        out.close();
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
            int[] kept = IntStream.range(0, lanes).map(c -> CudaBandStep.historyDepth(mapping, field, c)).toArray();
            boolean even = Arrays.stream(kept).allMatch(k -> k == depth);
            out.comment("my values of " + field.name() + " 1 to " + depth + " step(s) back" + (even ? "" : ", each column as far as a read"
                    + " reaches into it") + "; before the first step, the halo rows above");
            for (int c = 0; c < lanes; c++) {
                for (int back = 0; back < kept[c]; back++) {
                    String row = "-" + (back + 1) + " - lane";
                    out.line(cx.type(field) + " " + cx.history(field, c, back) + " = " + row + " >= " + (-haloRows) + " && "
                            + cx.column(c) + " < " + mapping.columns() + " ? " + cx.aboveElement(field, row, cx.column(c)) + " : 0;");
                }
            }
            // a halo load in the first chunk's steps would sit on the chain of every lane to the right, one a step
            out.comment("my columns' halo rows above the domain, which the first chunk's steps hand on as my values");
            for (int c = 0; c < lanes; c++) {
                for (int up = 0; up < haloRows; up++) {
                    out.line("const " + cx.type(field) + " " + cx.above(field, c, up) + " = " + cx.column(c) + " < " + mapping.columns() + " ? "
                            + cx.aboveElement(field, String.valueOf(-1 - up), cx.column(c)) + " : 0;");
                }
            }
        }
    }
}
