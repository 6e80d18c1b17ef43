package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.ir.IrActor;

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
            cx.out.line(CudaSyncContext.tokenArray(a) + "[t] = computes ? 1 : 0;");
        }
    }

    @Override
    public void tryTake(CudaSyncContext cx, int c, String have) {
        cx.out.open("if (!" + have + " && atomicExch(&" + cx.producerToken(c) + ", 1) == 0)");
        cx.out.line(have + " = true;");
        if (!cx.privateChannels()) {
            cx.out.line("atomicExch(&" + cx.producerToken(c) + ", 0);   // restore the token");
        }
        cx.out.line("__threadfence_block();");
        cx.out.close();
    }

    @Override
    public void waitInTurn(CudaSyncContext cx, int c) {
        cx.out.line("while (atomicExch(&" + cx.producerToken(c) + ", 1) != 0) { }   // lock (Listing 2)");
        cx.out.line("__threadfence_block();");
    }

    @Override
    public void publish(CudaSyncContext cx, IrActor actor, String value) {
        cx.out.line(cx.ownWord(actor) + " = " + value + ";");
        for (int a = 0; a < cx.tokenArrays(); a++) {
            if (cx.publishes(actor, a)) {
                cx.out.line("__threadfence_block();");
                cx.out.line("atomicExch(&" + CudaSyncContext.tokenArray(a) + "[t], 0);   // unlock");
            }
        }
    }

    @Override
    public void restore(CudaSyncContext cx, int c) {
        cx.out.line("atomicExch(&" + cx.producerToken(c) + ", 0);   // restore the token");
    }

    @Override
    public void finalizePrivate(CudaSyncContext cx, int c) {
        cx.out.line("atomicExch(&" + cx.producerToken(c) + ", 0);   // finalize");
    }
}
