package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.gpu.GpuWaits;
import dev.finegrain.dsl.WaitPolicy;

/**
 * A wait policy's naps in the model ISA ({@link GpuWaits}), for any wait loop (a token's, a barrier's): {@link #start}
 * where one wait begins, {@link #pause} before its loop branches back; nothing at all for a spinning wait.
 */
final class SimtNaps {

    private final SimtAssembler asm;
    private final WaitPolicy policy;
    /** The nap, in nanoseconds, when the policy naps; allocated by the first {@link #start}. */
    private String nap;

    SimtNaps(SimtAssembler asm, WaitPolicy policy) {
        this.asm = asm;
        this.policy = policy;
    }

    /** Where a wait begins: its first nap; nothing for a spinning wait. */
    void start() {
        if (!GpuWaits.naps(policy)) {
            return;
        }
        if (nap == null) {
            nap = asm.register();
        }
        asm.emit("MOV32I " + nap + ", " + SimtAssembler.immediate(GpuWaits.firstNapNs(policy))
                + "   // the wait's first nap, ns");
    }

    /**
     * Before a wait loop branches back for the lanes in {@code guard}: they sleep their nap, and a backing-off wait
     * doubles it up to the most (min(2 nap, most) in integer operations, since every predicate may be in use here);
     * nothing for a spinning wait.
     */
    void pause(String guard) {
        if (!GpuWaits.naps(policy)) {
            return;
        }
        asm.emit(guard, "NANOSLEEP " + nap);
        if (policy == WaitPolicy.BACKOFF) {
            String below = asm.register();
            String doubled = asm.register();
            asm.emit(guard, "IADD " + below + ", " + nap + ", " + SimtAssembler.immediate(-GpuWaits.MAX_NAP_NS / 2));
            asm.emit(guard, "SHR " + below + ", " + below + ", 0x1f   // -1 while the nap is under half the most");
            asm.emit(guard, "SHL " + doubled + ", " + nap + ", 0x1");
            asm.emit(guard, "LOP.AND " + doubled + ", " + doubled + ", " + below);
            asm.emit(guard, "LOP.XOR " + below + ", " + below + ", -0x1");
            asm.emit(guard, "LOP.AND " + below + ", " + below + ", " + SimtAssembler.immediate(GpuWaits.MAX_NAP_NS));
            asm.emit(guard, "LOP.OR " + nap + ", " + doubled + ", " + below + "   // the next nap");
        }
    }
}
