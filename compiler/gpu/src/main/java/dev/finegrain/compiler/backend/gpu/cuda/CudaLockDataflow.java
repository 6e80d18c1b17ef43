package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.gpu.GlobalReads;

import dev.finegrain.compiler.backend.gpu.GpuWaits;
import dev.finegrain.compiler.backend.gpu.LockDataflowMapping;
import dev.finegrain.compiler.backend.gpu.SyncChannel;
import dev.finegrain.compiler.backend.gpu.TileGeometry;
import dev.finegrain.compiler.ir.IrChannel;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.WaitPolicy;
import dev.finegrain.dsl.internal.DependenceMath;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Spells a {@link LockDataflowMapping} as a CUDA kernel, launched once per block-diagonal of tiles: each thread
 * copies its word of every field into the block's tile in shared memory and puts its tokens in place; the threads
 * that compute a point do the state-free work, wait for their channels' tokens in the mapping's wait form (with the
 * mechanism's {@link CudaSync} protocol at every sync point), fire, publish, and write their point back.
 */
final class CudaLockDataflow {

    private final LockDataflowMapping mapping;
    private final KernelGraph graph;
    private final CudaFields fields;
    private final CudaWriter out;
    private final CudaSync sync;
    private final CudaSyncContext cx;
    private final boolean packed;
    private CudaExpressions expressions;
    /** This point's values by field, for its later actors and the write-back. */
    private final Map<Integer, String> produced = new LinkedHashMap<>();

    private CudaLockDataflow(LockDataflowMapping mapping, CudaFields fields, CudaWriter out) {
        this.mapping = mapping;
        this.graph = mapping.graph();
        this.fields = fields;
        this.out = out;
        this.sync = CudaSyncs.of(mapping.mechanism().id());
        this.cx = new CudaSyncContext(out, mapping);
        this.packed = sync.packsStateWords(cx);
    }

    /** Writes the kernel {@code lock_dataflow} and returns how the host launches it. */
    static String emit(LockDataflowMapping mapping, CudaFields fields, CudaWriter out) {
        new CudaLockDataflow(mapping, fields, out).emitKernel();
        TileGeometry tile = mapping.tile();
        return CudaTiles.launchPerDiagonal(tile, "lock_dataflow", mapping.threadsPerBlock(), mapping.programmaticLaunches());
    }

    private void emitKernel() {
        TileGeometry tile = mapping.tile();
        int words = tile.words();
        out.comment("lock-dataflow: " + mapping.launchPlan());
        out.open("__global__ void __launch_bounds__(" + mapping.threadsPerBlock() + ") lock_dataflow(const Fields f,"
                + " const Params p, const int diagonal, int* const error)");
        for (IrField field : GlobalReads.stagedFields(graph)) {
            String type = packed && field.isState() ? "fg::u64" : CudaExpressions.type(field.type());
            out.line("__shared__ " + type + " " + cx.tile(field.id()) + "[" + words + "];");
        }
        for (int a = 0; a < cx.tokenArrays(); a++) {
            out.line("__shared__ " + sync.tokenType() + " " + CudaSyncContext.tokenArray(a) + "[" + mapping.tokens().wordsPerArray()
                    + "];");
        }
        out.line("const int t = threadIdx.x;");
        String[] point = CudaTiles.emitPointOfWord(out, tile, fields);
        out.comment("computes: my word is a point of the tile's interior and of the domain");
        out.line("const bool computes = " + CudaTiles.interiorTest(tile, fields.sizes()) + ";");
        emitCopyIn();
        if (mapping.waitForm() == dev.finegrain.compiler.backend.gpu.WaitForm.WARP) {
            out.line("[[maybe_unused]] const int lane = t & 31;");
            out.line("const int warp = t >> 5;");
            out.line("const bool warpComputes = __any_sync(0xffffffffu, computes);");
        }
        sync.initTokens(cx);
        if (mapping.blockBarrierAfterCopy()) {
            out.line("__syncthreads();   // every word and token is in place");
        }
        expressions = new CudaExpressions(out, graph, operands(point), fields.sizes(), "error", mapping.target());
        switch (mapping.waitForm()) {
            case CRITICAL_SECTION -> emitCriticalSection();
            case IN_TURN -> emitWaitInTurn();
            case WARP -> emitWarp();
        }
        out.close();
        out.blank();
    }

    private void emitCopyIn() {
        out.comment("copy my word of every field into the tile");
        for (IrField field : GlobalReads.stagedFields(graph)) {
            String value = "(inside ? f." + CudaNames.member(field.name()) + "[g] : " + zero(field) + ")";
            if (packed && field.isState()) {
                out.comment("the ready bit (bit 32) beside the value: set for halo words, clear for the producers'");
                out.line(cx.tile(field.id()) + "[t] = ((fg::u64) (computes ? 0 : 1) << 32) | (unsigned) " + value + ";");
            } else {
                out.line(cx.tile(field.id()) + "[t] = " + value + ";");
            }
        }
    }

    private static String zero(IrField field) {
        return field.type() == dev.finegrain.dsl.Type.DOUBLE ? "0.0" : "0";
    }

    private void precompute() {
        for (int actorId : graph.actorOrder()) {
            expressions.precomputeStateFree(graph.actor(actorId).body(), field -> graph.field(field).isState());
        }
    }

    private void emitCriticalSection() {
        out.comment("wait and fire, critical-section form: a thread fires inside the loop once it holds every token");
        out.open("if (computes)");
        precompute();
        for (int c = 0; c < cx.channels(); c++) {
            out.line("bool have" + c + " = false;");
        }
        out.line("bool done = false;");
        if (GpuWaits.naps(cx.mapping.waitPolicy())) {
            out.line("unsigned nap = " + (cx.mapping.waitPolicy() == WaitPolicy.BACKOFF ? GpuWaits.FIRST_NAP_NS
                    : GpuWaits.SLEEP_NS) + "u;");
        }
        out.open("while (!done)");
        for (int c = 0; c < cx.channels(); c++) {
            comment(cx.channel(c));
            sync.tryTake(cx, c, "have" + c);
        }
        String all = String.join(" && ", java.util.stream.IntStream.range(0, cx.channels()).mapToObj(c -> "have" + c).toList());
        out.open("if (" + (all.isEmpty() ? "true" : all) + ")");
        Map<Integer, String> produced = emitFire();
        for (int c = 0; c < cx.channels() && cx.privateChannels(); c++) {
            sync.finalizePrivate(cx, c);
        }
        emitWriteBack(produced);
        out.line("done = true;");
        out.close();
        if (GpuWaits.naps(cx.mapping.waitPolicy())) {
            out.line("if (!done) nap = " + (cx.mapping.waitPolicy() == WaitPolicy.BACKOFF
                    ? "fg::nap(nap, " + GpuWaits.MAX_NAP_NS + "u);" : "fg::nap(nap, nap);"));
        }
        out.close();
        out.close();
    }

    private void emitWaitInTurn() {
        out.comment("wait: every channel links different warps, so each thread waits for its tokens in turn");
        out.open("if (computes)");
        precompute();
        for (int c = 0; c < cx.channels(); c++) {
            comment(cx.channel(c));
            sync.waitInTurn(cx, c);
        }
        Map<Integer, String> produced = emitFire();
        for (int c = 0; c < cx.channels(); c++) {
            if (cx.privateChannels()) {
                sync.finalizePrivate(cx, c);
            } else {
                sync.restore(cx, c);
            }
        }
        emitWriteBack(produced);
        out.close();
    }

    private void emitWarp() {
        out.comment("wait: one token per producer warp");
        out.open("if (warpComputes)");
        for (int c = 0; c < cx.channels(); c++) {
            out.comment("channel " + cx.channel(c).channel().via() + ": the warp " + cx.channel(c).warpDistance() + " before mine");
            sync.waitForWarp(cx, c, cx.channel(c).warpDistance());
        }
        out.close();
        out.open("if (computes)");
        precompute();
        emitWriteBack(emitFire());
        out.close();
        out.comment("publish: the warp's token, once its lanes have met");
        sync.publishWarp(cx);
    }

    private void comment(SyncChannel channel) {
        out.comment("channel " + channel.channel().via() + " " + DependenceMath.format(channel.channel().vector()));
    }

    private Map<Integer, String> emitFire() {
        out.comment("fire: compute, publish my token");
        expressions.lowerActors(produced, (actor, value) -> sync.publish(cx, actor, value));
        return produced;
    }

    private void emitWriteBack(Map<Integer, String> produced) {
        produced.forEach((field, value) -> out.line("f." + CudaNames.member(graph.field(field).name()) + "[g] = " + value + ";"));
    }

    /** Loads read the value a token brought (tiny-lock's ready word), else the tile. */
    private CudaExpressions.Operands operands(String[] point) {
        return new CudaExpressions.Operands() {
            @Override
            public String index(int dimension) {
                return point[dimension];
            }

            @Override
            public String load(dev.finegrain.compiler.ir.IrExpr.Load load) {
                if (DependenceMath.isZero(load.offset()) && produced.containsKey(load.field())) {
                    return produced.get(load.field());
                }
                for (Map.Entry<Integer, String> token : cx.tokenValues.entrySet()) {
                    IrChannel channel = cx.channel(token.getKey()).channel();
                    if (graph.actor(channel.producer()).writes() == load.field()
                            && Arrays.equals(Arrays.stream(channel.vector()).map(x -> -x).toArray(), load.offset())) {
                        return token.getValue();
                    }
                }
                String word = cx.tile(load.field()) + "[t" + CudaTiles.wordOffset(load.offset(), mapping.tile()) + "]";
                return packed && graph.field(load.field()).isState() ? "(int) (unsigned) " + word : word;
            }
        };
    }
}
