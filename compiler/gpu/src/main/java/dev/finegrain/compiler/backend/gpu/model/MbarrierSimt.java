package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.ir.IrActor;

/**
 * Hopper's mbarrier in the model ISA: one per token word, armed for one arrival; halo words arrive at once, a
 * producer arrives once its value is stored, and a consumer waits until phase 0 has completed.
 */
public final class MbarrierSimt implements SimtSync {

    @Override
    public void initTokens(SimtSyncContext cx) {
        cx.asm.comment("one mbarrier per token word, armed for its producer's one arrival; halo words arrive now");
        for (int base : cx.tokenBase()) {
            cx.asm.emit("MBARRIER.INIT " + SimtAssembler.address(cx.sharedOffset, base) + ", 0x1");
            cx.asm.emit("!P6", "MBARRIER.ARRIVE RZ, " + SimtAssembler.address(cx.sharedOffset, base));
        }
    }

    @Override
    public void tryTake(SimtSyncContext cx, int c, String have) {
        cx.asm.emit("!" + have, "MBARRIER.TRY_WAIT " + have + ", " + cx.channelAddress(c, true)
                + ", RZ   // has phase 0 completed?");
    }

    @Override
    public void waitInTurn(SimtSyncContext cx, int c, String wait) {
        cx.asm.emit("MBARRIER.TRY_WAIT P1, " + cx.channelAddress(c, true) + ", RZ   // has phase 0 completed?");
        cx.pause("!P1");
        cx.asm.emit("!P1", "BRA " + wait);
    }

    @Override
    public void publish(SimtSyncContext cx, IrActor actor, String value) {
        cx.asm.emit(cx.storeOwnData(actor, value));
        for (int a = 0; a < cx.tokenBase().length; a++) {
            if (cx.publishes(actor, a)) {
                cx.asm.emit("MBARRIER.ARRIVE RZ, " + SimtAssembler.address(cx.sharedOffset, cx.tokenBase()[a])
                        + "   // completes phase 0");
            }
        }
    }
}
