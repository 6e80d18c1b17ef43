package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.ir.IrActor;

/**
 * Named barriers (seed 001 Listing 12) through inline PTX: barrier w belongs to warp w; its consumer warp syncs on it
 * ({@code bar.sync w, 64}) and the producer warp arrives ({@code bar.arrive w, 64}) once every lane has fired.
 */
public final class NamedBarrierCuda implements CudaSync {

    @Override
    public void initTokens(CudaSyncContext cx) {
    }

    @Override
    public void publish(CudaSyncContext cx, IrActor actor, String value) {
        cx.out.line(cx.ownWord(actor) + " = " + value + ";");
    }

    @Override
    public void waitForWarp(CudaSyncContext cx, int c, int warpDistance) {
        cx.out.line("fg::bar_sync(warp - " + warpDistance + ", 64);");
    }

    @Override
    public void publishWarp(CudaSyncContext cx) {
        int distance = cx.mapping.minimumWarpDistance();
        cx.out.line("if (warp < " + (cx.mapping.warps() - distance) + ") fg::bar_arrive(warp, 64);");
    }
}
