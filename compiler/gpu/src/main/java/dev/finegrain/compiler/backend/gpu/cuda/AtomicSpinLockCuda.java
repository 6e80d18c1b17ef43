package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.ir.IrActor;
import dev.finegrain.compiler.ir.IrField;

/**
 * Mutex words (seed 001 Listings 2, 11, 14): 1 while the producer has not fired; a consumer exchanges 1 in and owns
 * the token when 0 came out, and gives a shared token back at once. Atomics are relaxed in CUDA, so block fences order
 * the data around them.
 */
public final class AtomicSpinLockCuda implements CudaSync {

    @Override
    public void initTokens(CudaSyncContext cx) {
        cx.out.comment("mutexes: producers start locked (1), halo words free (0)");
        for (int a = 0; a < cx.tokenArrays(); a++) {
            cx.out.line(CudaSyncContext.tokenArray(a) + "[t] = " + cx.mutex().initial("computes") + ";");
        }
    }

    @Override
    public void tryTake(CudaSyncContext cx, int c, String have) {
        cx.out.open("if (!" + have + " && " + cx.mutex().tryTake(cx.producerToken(c)) + ")");
        cx.out.line(have + " = true;");
        if (!cx.privateChannels()) {
            cx.out.line(cx.mutex().unlock(cx.producerToken(c)) + "   // restore the token");
        }
        cx.out.line("__threadfence_block();");
        cx.out.close();
    }

    @Override
    public void waitInTurn(CudaSyncContext cx, int c) {
        cx.out.line(cx.mutex().lock(cx, cx.producerToken(c)));
        cx.out.line("__threadfence_block();");
    }

    @Override
    public void publish(CudaSyncContext cx, IrActor actor, String value) {
        cx.out.line(cx.ownWord(actor) + " = " + value + ";");
        for (int a = 0; a < cx.tokenArrays(); a++) {
            if (cx.publishes(actor, a)) {
                cx.out.line("__threadfence_block();");
                cx.out.line(cx.mutex().unlock(CudaSyncContext.tokenArray(a) + "[t]") + "   // unlock");
            }
        }
    }

    @Override
    public void restore(CudaSyncContext cx, int c) {
        cx.out.line(cx.mutex().unlock(cx.producerToken(c)) + "   // restore the token");
    }

    @Override
    public void finalizePrivate(CudaSyncContext cx, int c) {
        cx.out.line(cx.mutex().unlock(cx.producerToken(c)) + "   // finalize");
    }

    // ---- band edges: a lock word per group of rows in device memory, locked (0) until the producer frees it (1)

    @Override
    public String bandTokenType(CudaBandContext cx) {
        return "int";
    }

    @Override
    public void bandWait(CudaBandContext cx, String last, String seen) {
        String upTo = cx.openPendingTokens(last, seen);
        String free = cx.tokenValue("t");   // unlocked: 1, or in a ring the token's lap
        cx.out.line("    while (atomicCAS(&" + cx.tokenWord("band - 1", "t") + ", " + free + ", 0) != " + free + ") { }   // take the lock (Listing 14)");
        cx.out.line("    atomicExch(&" + cx.tokenWord("band - 1", "t") + ", " + free + ");   // and give it back");
        cx.out.line("}");
        cx.out.line("__threadfence();   // the atomics are relaxed: order the edge's loads after them");
        cx.markTokensSeen(seen, upTo);
        cx.out.line("__syncwarp();");
    }

    @Override
    public void bandLoadEdge(CudaBandContext cx, IrField field, String row, String slot, String target) {
        cx.loadEdgeRelaxed(field, row, slot, target);
    }

    @Override
    public void bandPublishToken(CudaBandContext cx, String token) {
        cx.out.line("__threadfence();   // the rows before it, then the unlock");
        cx.out.line("atomicExch(&" + cx.tokenWord("band", token) + ", " + cx.tokenValue(token) + ");");
    }
}
