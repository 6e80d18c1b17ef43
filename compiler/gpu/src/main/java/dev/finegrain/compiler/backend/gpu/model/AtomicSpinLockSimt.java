package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.IrActor;
import dev.finegrain.compiler.ir.KernelGraph;

import java.util.Optional;

/**
 * The atomic spin-lock in the model ISA (seed 001 Listings 2, 11, 14): mutex words, 1 while the producer has not
 * fired; a consumer exchanges 1 in and owns the token when 0 came out; a shared token goes back at once. On Fermi
 * every atomic is the lock-bit loop nvcc emits there ({@link SharedAtomics}).
 */
public final class AtomicSpinLockSimt implements SimtSync {

    /** Fermi's lock-bit loops take two predicates of their own, which leaves two for the channels' "held" bits. */
    @Override
    public Optional<String> unsupportedChannels(KernelGraph graph, GpuTarget target, int channels) {
        return target.sharedAtomicsAsLockLoops() && channels > 2 ? Optional.of("kernel " + graph.name() + " has " + channels
                + " channels to synchronise per point; with " + target.name() + "'s lock-bit atomics the lowering holds at"
                + " most 2 (it needs the other predicates for the loops)") : Optional.empty();
    }

    @Override
    public void initTokens(SimtSyncContext cx) {
        cx.asm.comment("mutexes: producers start locked (1), halo words free (0)");
        String initial = cx.asm.register();
        cx.asm.emit("SEL " + initial + ", " + cx.mutex().held() + ", RZ, P6");
        for (int base : cx.tokenBase()) {
            cx.asm.emit("STS " + SimtAssembler.address(cx.sharedOffset, base) + ", " + initial);
        }
    }

    @Override
    public void tryTake(SimtSyncContext cx, int c, String have) {
        cx.mutex().tryTake(cx.channelAddress(c, true), "!" + have, "P5", "P4", "P3", "take the token");
        if (!cx.privateChannels()) {
            cx.mutex().unlock(cx.channelAddress(c, true), "P5", "P4", "P3", "restore the token");
        }
        cx.asm.emit("PSETP.OR.AND " + have + ", PT, " + have + ", P5, PT");
    }

    @Override
    public void waitInTurn(SimtSyncContext cx, int c, String wait) {
        cx.mutex().lock(cx.channelAddress(c, true), "P4", "P3", "P1");
    }

    @Override
    public void publish(SimtSyncContext cx, IrActor actor, String value) {
        cx.asm.emit(cx.storeOwnData(actor, value));
        for (int a = 0; a < cx.tokenBase().length; a++) {
            if (cx.publishes(actor, a)) {
                cx.mutex().unlock(SimtAssembler.address(cx.sharedOffset, cx.tokenBase()[a]), "PT", "P4", "P3", "unlock");
            }
        }
    }

    @Override
    public void restore(SimtSyncContext cx, int c) {
        cx.mutex().unlock(cx.channelAddress(c, true), "PT", "P4", "P3", "restore the token");
    }

    @Override
    public void finalizePrivate(SimtSyncContext cx, int c) {
        cx.mutex().unlock(cx.channelAddress(c, true), "PT", "P4", "P3", "finalize");
    }

    // ---- band edges: a lock word per group of rows in global memory, locked (0) until the producer frees it (1)

    @Override
    public void bandWait(SimtBandContext cx, String last) {
        cx.waitPendingTokens(last, (address, token) -> {
            String old = cx.asm.register();
            String free = cx.tokenValue(token);   // unlocked: 1, or in a ring the token's lap
            String spin = cx.asm.label("take");
            cx.asm.place(spin);
            cx.asm.emit("ATOM.CAS " + old + ", " + SimtAssembler.address(address, 0) + ", " + free + ", RZ   // take the lock (Listing 14)");
            cx.asm.emit("ISETP.NE.AND P5, PT, " + old + ", " + (cx.ring() ? free : "0x1") + ", PT");
            cx.asm.emit("P5", "BRA " + spin);
            cx.asm.emit("ATOM.EXCH RZ, " + SimtAssembler.address(address, 0) + ", " + free + "   // and give it back");
        });
        cx.asm.emit("MEMBAR.GL   // the atomics are relaxed: order the edge's loads after them");
        cx.asm.emit("WARPSYNC");
    }

    @Override
    public void bandPublishToken(SimtBandContext cx, String token) {
        String address = cx.tokenAddress(0, token);
        String value = cx.tokenValue(token);
        cx.asm.emit("MEMBAR.GL   // the rows before it, then the unlock");
        cx.asm.emit("ATOM.EXCH RZ, " + SimtAssembler.address(address, 0) + ", " + value);
    }
}
