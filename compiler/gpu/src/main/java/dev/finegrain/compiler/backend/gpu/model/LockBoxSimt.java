package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.ir.IrActor;

/**
 * The lock-box in the model ISA: every token's lock starts held (LBACQ/LBREL key it by its word's address), so a
 * producer's token is held until it fires; a halo word's is released at once. A consumer's LBACQ suspends the lane
 * until the producer's LBREL grants it; a shared token is released again at once, for the producer's next consumer.
 */
public final class LockBoxSimt implements SimtSync {

    @Override
    public void initTokens(SimtSyncContext cx) {
        cx.asm.comment("lock-box locks start held: a halo word's is released, a producer's stays held until it fires");
        for (int base : cx.tokenBase()) {
            cx.asm.emit("!P6", "LBREL " + SimtAssembler.address(cx.sharedOffset, base));
        }
    }

    @Override
    public void waitInTurn(SimtSyncContext cx, int c, String wait) {
        cx.asm.emit("LBACQ " + cx.channelAddress(c, true) + "   // suspended until the producer's release grants it");
        if (!cx.privateChannels()) {
            cx.asm.emit("LBREL " + cx.channelAddress(c, true) + "   // a shared token goes on to the next consumer");
        }
    }

    @Override
    public void publish(SimtSyncContext cx, IrActor actor, String value) {
        cx.asm.emit(cx.storeOwnData(actor, value));
        for (int a = 0; a < cx.tokenBase().length; a++) {
            if (cx.publishes(actor, a)) {
                cx.asm.emit("LBREL " + SimtAssembler.address(cx.sharedOffset, cx.tokenBase()[a]) + "   // release: grant the oldest waiter");
            }
        }
    }
}
