package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.ir.IrActor;

/**
 * Hopper's mbarrier with warp-shared granularity in the model ISA: one per warp armed for 32 arrivals by the warp's
 * representative; a warp with nothing to compute arrives at once with every lane; a computing warp's lanes each arrive
 * after the warp stored its values; a consumer warp's lanes try to wait until the producer warp's phase 0 completed.
 */
public final class MbarrierWarpSimt implements SimtSync {

    @Override
    public void initTokens(SimtSyncContext cx) {
        cx.asm.comment("one mbarrier per warp, armed for its 32 lanes; a warp with nothing to compute arrives now");
        for (int base : cx.tokenBase()) {
            cx.asm.emit("P5", "MBARRIER.INIT " + SimtAssembler.address(cx.warpOffset, base) + ", 0x20");
            cx.asm.emit("!P4", "MBARRIER.ARRIVE RZ, " + SimtAssembler.address(cx.warpOffset, base));
        }
    }

    @Override
    public void publish(SimtSyncContext cx, IrActor actor, String value) {
        WarpStore.store(cx, actor, value);
    }

    @Override
    public void waitForWarp(SimtSyncContext cx, int c, int warpDistance) {
        String spin = cx.asm.label("mbarrier_warp");
        cx.asm.place(spin);
        cx.asm.emit("MBARRIER.TRY_WAIT P1, " + cx.warpTokenAddress(cx.channel(c).tokenArray(), warpDistance)
                + ", RZ   // the producer warp's 32 arrivals?");
        cx.pause("!P1");
        cx.asm.emit("!P1", "BRA " + spin);
    }

    @Override
    public void publishWarp(SimtSyncContext cx) {
        for (int base : cx.tokenBase()) {
            cx.asm.emit("P4", "MBARRIER.ARRIVE RZ, " + SimtAssembler.address(cx.warpOffset, base)
                    + "   // every lane: the 32nd completes phase 0");
        }
    }
}
