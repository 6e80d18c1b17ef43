package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.IrActor;
import dev.finegrain.compiler.ir.KernelGraph;

import java.util.Optional;

/**
 * The warp vote in the model ISA (seed 001 Listing 9): a computing warp takes its warp-shared lock bit; every lane of
 * a consumer warp tries the producer warp's bit until a vote says one lane got it; the representative frees the
 * warp's own bit and gives the producers' bits back after firing.
 */
public final class WarpVoteSimt implements SimtSync {

    /** The model spells the vote on lock bits only; CUDA's flag word per warp, for GPUs without them, it does not. */
    @Override
    public Optional<String> unsupportedChannels(KernelGraph graph, GpuTarget target, int channels) {
        return target.lockBits() == 0 ? Optional.of("the GPU model spells warp-vote on lock bits (seed 001 Listing 9),"
                + " which " + target.called() + " does not have") : Optional.empty();
    }

    @Override
    public void initTokens(SimtSyncContext cx) {
        cx.asm.comment("Lock (seed 001 Listing 9): a computing warp takes its warp-shared lock bit");
        for (int base : cx.tokenBase()) {
            cx.asm.emit("P4", "LDSLK P0, RZ, " + SimtAssembler.address(cx.warpOffset, base));
        }
    }

    @Override
    public void publish(SimtSyncContext cx, IrActor actor, String value) {
        WarpStore.store(cx, actor, value);
    }

    @Override
    public void waitForWarp(SimtSyncContext cx, int c, int warpDistance) {
        String spin = cx.asm.label("vote_spin");
        String address = cx.warpTokenAddress(cx.channel(c).tokenArray(), warpDistance);
        cx.asm.place(spin);
        cx.asm.emit("LDSLK P0, RZ, " + address + "   // Waitlock (Listing 9)");
        cx.asm.emit("VOTE.ANY RZ, P1, P0");
        cx.pause("!P1");
        cx.asm.emit("!P1", "BRA " + spin);
    }

    @Override
    public void publishWarp(SimtSyncContext cx) {
        cx.asm.emit("PSETP.AND.AND P0, PT, P5, P4, PT");
        for (int base : cx.tokenBase()) {
            cx.asm.emit("P0", "STSUL " + SimtAssembler.address(cx.warpOffset, base) + ", RZ   // Unlock");
        }
        cx.asm.comment("give back the producers' bits (the representative frees them: any lane may STSUL)");
        for (int c = 0; c < cx.channels(); c++) {
            cx.asm.emit("P0", "STSUL " + cx.warpTokenAddress(cx.channel(c).tokenArray(), cx.channel(c).warpDistance())
                    + ", RZ   // restore the token");
        }
    }
}
