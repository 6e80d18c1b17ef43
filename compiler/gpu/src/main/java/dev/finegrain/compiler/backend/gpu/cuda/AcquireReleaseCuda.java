package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.ir.IrActor;
import dev.finegrain.compiler.ir.IrField;

/** Ready flags: the producer stores its value, then sets its flag with a release store; a consumer loads with acquire. */
public final class AcquireReleaseCuda implements CudaSync {

    @Override
    public void initTokens(CudaSyncContext cx) {
        cx.out.comment("ready flags: 0 until my point is published, 1 for halo words");
        for (int a = 0; a < cx.tokenArrays(); a++) {
            cx.out.line(CudaSyncContext.tokenArray(a) + "[t] = computes ? 0 : 1;");
        }
    }

    @Override
    public void tryTake(CudaSyncContext cx, int c, String have) {
        cx.out.line("if (!" + have + ") " + have + " = fg::load_acquire_cta(&" + cx.producerToken(c) + ") != 0;");
    }

    @Override
    public void waitInTurn(CudaSyncContext cx, int c) {
        cx.out.line(cx.waitWhile("fg::load_acquire_cta(&" + cx.producerToken(c) + ") == 0") + "   // acquire");
    }

    @Override
    public void publish(CudaSyncContext cx, IrActor actor, String value) {
        cx.out.line(cx.ownWord(actor) + " = " + value + ";");
        for (int a = 0; a < cx.tokenArrays(); a++) {
            if (cx.publishes(actor, a)) {
                cx.out.line("fg::store_release_cta(&" + CudaSyncContext.tokenArray(a) + "[t], 1);   // release the flag");
            }
        }
    }

    // ---- band edges: a flag per group of rows in device memory, released and acquired at device scope

    @Override
    public String bandTokenType(CudaBandContext cx) {
        return "int";
    }

    @Override
    public void bandWait(CudaBandContext cx, String last, String seen) {
        String upTo = cx.openPendingTokens(last, seen);
        cx.out.line("    while (" + cx.tokenPending("fg::load_acquire_gpu(&" + cx.tokenWord("band - 1", "t") + ")", "t") + ") { }   // acquire");
        cx.out.line("}");
        cx.markTokensSeen(seen, upTo);
        cx.out.line("__syncwarp();   // every lane's acquire before any lane reads the edge");
    }

    @Override
    public void bandLoadEdge(CudaBandContext cx, IrField field, String row, String slot, String target) {
        cx.loadEdgeRelaxed(field, row, slot, target);
    }

    @Override
    public void bandPublishToken(CudaBandContext cx, String token) {
        cx.out.line("fg::store_release_gpu(&" + cx.tokenWord("band", token) + ", " + cx.tokenValue(token) + ");   // release the rows before it");
    }
}
