package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.ir.IrActor;

/**
 * Hopper's mbarrier, one per token word, armed for its producer's one arrival: halo words arrive at once, a producer
 * arrives (a release) once its value is stored, and a consumer tries to wait (an acquire) until phase 0 completed.
 */
public final class MbarrierCuda implements CudaSync {

    @Override
    public String tokenType() {
        return "fg::u64";
    }

    @Override
    public void initTokens(CudaSyncContext cx) {
        cx.out.comment("one mbarrier per token word, armed for its producer's one arrival; halo words arrive now");
        for (int a = 0; a < cx.tokenArrays(); a++) {
            String word = CudaSyncContext.tokenArray(a) + "[t]";
            cx.out.line("fg::mbarrier_init(&" + word + ", 1);");
            cx.out.line("if (!computes) fg::mbarrier_arrive(&" + word + ");");
        }
    }

    @Override
    public void tryTake(CudaSyncContext cx, int c, String have) {
        cx.out.line("if (!" + have + ") " + have + " = fg::mbarrier_try_wait_phase0(&" + cx.producerToken(c) + ");");
    }

    @Override
    public void waitInTurn(CudaSyncContext cx, int c) {
        cx.out.line(cx.waitWhile("!fg::mbarrier_try_wait_phase0(&" + cx.producerToken(c) + ")") + "   // has phase 0 completed?");
    }

    @Override
    public void publish(CudaSyncContext cx, IrActor actor, String value) {
        cx.out.line(cx.ownWord(actor) + " = " + value + ";");
        for (int a = 0; a < cx.tokenArrays(); a++) {
            if (cx.publishes(actor, a)) {
                cx.out.line("fg::mbarrier_arrive(&" + CudaSyncContext.tokenArray(a) + "[t]);   // completes phase 0");
            }
        }
    }
}
