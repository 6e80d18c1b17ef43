package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.ir.IrActor;

/**
 * Hopper's mbarrier, one per warp armed for 32 arrivals: lane 0 arms it, a warp with nothing to compute arrives at once
 * with every lane, a computing warp's lanes arrive once their values are stored, and every lane of a consumer warp
 * tries to wait until the producer warp's phase 0 completed.
 */
public final class MbarrierWarpCuda implements CudaSync {

    @Override
    public String tokenType() {
        return "fg::u64";
    }

    @Override
    public void initTokens(CudaSyncContext cx) {
        cx.out.comment("one mbarrier per warp, armed for its 32 lanes; a warp with nothing to compute arrives now");
        for (int a = 0; a < cx.tokenArrays(); a++) {
            cx.out.line("if (lane == 0) fg::mbarrier_init(&" + CudaSyncContext.tokenArray(a) + "[warp], 32);");
        }
        cx.out.line("__syncwarp();");
        for (int a = 0; a < cx.tokenArrays(); a++) {
            cx.out.line("if (!warpComputes) fg::mbarrier_arrive(&" + CudaSyncContext.tokenArray(a) + "[warp]);");
        }
    }

    @Override
    public void publish(CudaSyncContext cx, IrActor actor, String value) {
        cx.out.line(cx.ownWord(actor) + " = " + value + ";");
    }

    @Override
    public void waitForWarp(CudaSyncContext cx, int c, int warpDistance) {
        cx.out.line(cx.waitWhile("!fg::mbarrier_try_wait_phase0(&" + cx.warpToken(c, warpDistance) + ")")
                + "   // the producer warp's 32 arrivals");
    }

    @Override
    public void publishWarp(CudaSyncContext cx) {
        cx.out.open("if (warpComputes)");
        for (int a = 0; a < cx.tokenArrays(); a++) {
            cx.out.line("fg::mbarrier_arrive(&" + CudaSyncContext.tokenArray(a) + "[warp]);   // every lane: the 32nd completes"
                    + " phase 0");
        }
        cx.out.close();
    }
}
