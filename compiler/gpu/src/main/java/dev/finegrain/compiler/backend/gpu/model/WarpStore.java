package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.ir.IrActor;

/** What the warp mechanisms share: a lane stores its value plainly; the warp's token is published after reconvergence. */
final class WarpStore {

    private WarpStore() {}

    static void store(SimtSyncContext cx, IrActor actor, String value) {
        cx.asm.emit(cx.storeOwnData(actor, value));
    }
}
