package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.ir.IrActor;

/**
 * Named barriers in the model ISA (seed 001 Listing 12): barrier w is warp w's: its consumer warp syncs on it
 * (BAR.SYNC w, 64 threads) and the producer warp arrives (BAR.ARRIVE) once it has fired; no token words.
 */
public final class NamedBarrierSimt implements SimtSync {

    @Override
    public void initTokens(SimtSyncContext cx) {
    }

    @Override
    public void publish(SimtSyncContext cx, IrActor actor, String value) {
        WarpStore.store(cx, actor, value);
    }

    @Override
    public void waitForWarp(SimtSyncContext cx, int c, int warpDistance) {
        String id = cx.asm.register();
        cx.asm.emit("IADD " + id + ", " + cx.warp + ", " + SimtAssembler.immediate(-warpDistance));
        cx.asm.emit("BAR.SYNC " + id + ", 0x40");
    }

    @Override
    public void publishWarp(SimtSyncContext cx) {
        int distance = cx.mapping.minimumWarpDistance();
        cx.asm.emit("ISETP.LT.AND P0, PT, " + cx.warp + ", " + SimtAssembler.immediate(cx.mapping.warps() - distance) + ", PT");
        cx.asm.emit("P0", "BAR.ARRIVE " + cx.warp + ", 0x40");
    }
}
