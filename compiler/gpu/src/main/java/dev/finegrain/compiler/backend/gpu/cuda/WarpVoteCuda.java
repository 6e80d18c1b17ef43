package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.ir.IrActor;

/**
 * The warp vote without lock bits: a flag per warp in place of the warp-shared lock bit; every lane of a consumer warp
 * reads the producer warp's flag and a vote ({@code __any_sync}) lets the warp go on once one lane saw it set
 * (seed 001 Listing 9); the representative sets its warp's flag once the lanes met at {@code __syncwarp}.
 */
public final class WarpVoteCuda implements CudaSync {

    @Override
    public void initTokens(CudaSyncContext cx) {
        cx.out.comment("one flag per warp, where Fermi had a warp-shared lock bit: 0 while the warp computes");
        for (int a = 0; a < cx.tokenArrays(); a++) {
            cx.out.line("if (lane == 0) " + CudaSyncContext.tokenArray(a) + "[warp] = warpComputes ? 0 : 1;");
        }
    }

    @Override
    public void publish(CudaSyncContext cx, IrActor actor, String value) {
        cx.out.line(cx.ownWord(actor) + " = " + value + ";");
    }

    @Override
    public void waitForWarp(CudaSyncContext cx, int c, int warpDistance) {
        cx.out.line(cx.waitWhile("!__any_sync(0xffffffffu, fg::load_acquire_cta(&" + cx.warpToken(c, warpDistance)
                + ") != 0)") + "   // vote (Listing 9)");
    }

    @Override
    public void publishWarp(CudaSyncContext cx) {
        cx.out.line("__syncwarp();");
        cx.out.open("if (lane == 0 && warpComputes)");
        for (int a = 0; a < cx.tokenArrays(); a++) {
            cx.out.line("fg::store_release_cta(&" + CudaSyncContext.tokenArray(a) + "[warp], 1);   // unlock");
        }
        cx.out.close();
    }
}
