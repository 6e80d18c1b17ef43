package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.ir.IrActor;

/**
 * Ready flags in the model ISA: 0 until the producer fired (1 for halo words); the producer stores its value, fences
 * the block (MEMBAR.CTA) and sets its flag; a consumer reads the flag until it is set. Nothing to restore.
 */
public final class AcquireReleaseSimt implements SimtSync {

    @Override
    public void initTokens(SimtSyncContext cx) {
        cx.asm.comment("ready flags: 0 until my point is published, 1 for halo words");
        String initial = cx.asm.register();
        cx.asm.emit("SEL " + initial + ", RZ, " + cx.one + ", P6");
        for (int base : cx.tokenBase()) {
            cx.asm.emit("STS " + SimtAssembler.address(cx.sharedOffset, base) + ", " + initial);
        }
    }

    @Override
    public void tryTake(SimtSyncContext cx, int c, String have) {
        String flag = cx.asm.register();
        cx.polls.emit("!" + have, flag, cx.channelAddress(c, true), false, "");
        cx.asm.emit("!" + have, "ISETP.NE.AND " + have + ", PT, " + flag + ", RZ, PT");
    }

    @Override
    public void waitInTurn(SimtSyncContext cx, int c, String wait) {
        String flag = cx.asm.register();
        cx.polls.emit("PT", flag, cx.channelAddress(c, true), false, "acquire");
        cx.asm.emit("ISETP.EQ.AND P1, PT, " + flag + ", RZ, PT");
        cx.pause("P1");
        cx.asm.emit("P1", "BRA " + wait);
    }

    @Override
    public void publish(SimtSyncContext cx, IrActor actor, String value) {
        cx.asm.emit(cx.storeOwnData(actor, value));
        for (int a = 0; a < cx.tokenBase().length; a++) {
            if (cx.publishes(actor, a)) {
                cx.asm.emit("MEMBAR.CTA");
                cx.asm.emit("STS " + SimtAssembler.address(cx.sharedOffset, cx.tokenBase()[a]) + ", " + cx.one
                        + "   // release the flag");
            }
        }
    }

    // ---- band edges: a flag per group of rows in global memory, set after a device-scope fence (CUDA: a release store)

    @Override
    public void bandWait(SimtBandContext cx, String last) {
        cx.waitPendingTokens(last, (address, token) -> {
            String flag = cx.asm.register();
            String lap = cx.ring() ? cx.tokenValue(token) : null;
            String spin = cx.asm.label("acquire");
            cx.asm.place(spin);
            cx.asm.emit("LDG " + flag + ", " + SimtAssembler.address(address, 0) + "   // acquire");
            cx.asm.emit(lap == null ? "ISETP.EQ.AND P5, PT, " + flag + ", RZ, PT" : "ISETP.NE.AND P5, PT, " + flag + ", " + lap + ", PT   // not this lap yet");
            cx.asm.emit("P5", "BRA " + spin);
        });
        cx.asm.emit("WARPSYNC   // every lane's acquire before any lane reads the edge");
    }

    @Override
    public void bandPublishToken(SimtBandContext cx, String token) {
        String address = cx.tokenAddress(0, token);
        String value = cx.tokenValue(token);
        cx.asm.emit("MEMBAR.GL   // release the rows before it");
        cx.asm.emit("STG " + SimtAssembler.address(address, 0) + ", " + value);
    }
}
