package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.ir.IrActor;

/**
 * One mutex per warp: the representative lane takes each producer warp's mutex and gives it back, the lanes meet at
 * {@code __syncwarp} (which Volta and later need where Fermi reconverged by itself), and the representative unlocks
 * its own warp's mutex once every lane has fired.
 */
public final class SharedSpinLockCuda implements CudaSync {

    @Override
    public void initTokens(CudaSyncContext cx) {
        cx.out.comment("one mutex per warp: locked (1) when the warp computes, free (0) for halo warps");
        for (int a = 0; a < cx.tokenArrays(); a++) {
            cx.out.line("if (lane == 0) " + CudaSyncContext.tokenArray(a) + "[warp] = " + cx.mutex().initial("warpComputes")
                    + ";");
        }
    }

    @Override
    public void publish(CudaSyncContext cx, IrActor actor, String value) {
        cx.out.line(cx.ownWord(actor) + " = " + value + ";");
    }

    @Override
    public void waitForWarp(CudaSyncContext cx, int c, int warpDistance) {
        String token = cx.warpToken(c, warpDistance);
        cx.out.open("if (lane == 0)");
        cx.out.line(cx.mutex().lock(cx, token));
        cx.out.line(cx.mutex().unlock(token) + "   // restore the token");
        cx.out.line("__threadfence_block();");
        cx.out.close();
        cx.out.line("__syncwarp();");
    }

    @Override
    public void publishWarp(CudaSyncContext cx) {
        cx.out.line("__syncwarp();");
        cx.out.open("if (lane == 0 && warpComputes)");
        cx.out.line("__threadfence_block();");
        for (int a = 0; a < cx.tokenArrays(); a++) {
            cx.out.line(cx.mutex().unlock(CudaSyncContext.tokenArray(a) + "[warp]") + "   // unlock");
        }
        cx.out.close();
    }
}
