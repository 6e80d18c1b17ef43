package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.ir.IrActor;

/**
 * The shared spin-lock in the model ISA: one mutex per warp, locked while the warp has not fired; the warp's
 * representative (lane 0) takes each producer warp's mutex and gives it back, and unlocks its own once the lanes
 * reconverged after firing. The representative fences the block (MEMBAR.CTA) after taking a mutex and before
 * unlocking, as the CUDA lowering does, so that its lanes' writes are ordered for the other warps.
 */
public final class SharedSpinLockSimt implements SimtSync {

    @Override
    public void initTokens(SimtSyncContext cx) {
        cx.asm.comment("one mutex per warp: locked (1) when the warp computes, free (0) for halo warps");
        String initial = cx.asm.register();
        cx.asm.emit("SEL " + initial + ", " + cx.mutex().held() + ", RZ, P4");
        for (int base : cx.tokenBase()) {
            cx.asm.emit("P5", "STS " + SimtAssembler.address(cx.warpOffset, base) + ", " + initial);
        }
    }

    @Override
    public void publish(SimtSyncContext cx, IrActor actor, String value) {
        WarpStore.store(cx, actor, value);
    }

    @Override
    public void waitForWarp(SimtSyncContext cx, int c, int warpDistance) {
        String skip = cx.asm.label("representative_waited");
        String address = cx.warpTokenAddress(cx.channel(c).tokenArray(), warpDistance);
        cx.asm.emit("!P5", "BRA " + skip);
        cx.mutex().lock(address, "P1", "P2", "P3");
        cx.mutex().unlock(address, "PT", "P1", "P2", "restore the token");
        cx.asm.emit("MEMBAR.CTA");
        cx.asm.place(skip);
    }

    @Override
    public void publishWarp(SimtSyncContext cx) {
        cx.asm.emit("PSETP.AND.AND P1, PT, P5, P4, PT");
        cx.asm.emit("P1", "MEMBAR.CTA");
        for (int base : cx.tokenBase()) {
            cx.mutex().unlock(SimtAssembler.address(cx.warpOffset, base), "P1", "P2", "P3", "unlock");
        }
    }
}
