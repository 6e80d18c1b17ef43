package dev.finegrain.gpu;

import java.util.Locale;

/** How the lanes of a warp make progress when they diverge. */
public enum SimMode {
    /**
     * Fermi and earlier: one program counter per warp and a SIMT reconvergence stack (SSY/SYNC, immediate
     * post-dominators); lanes masked off wait for the others at the reconvergence point, so a lane spinning on a lock
     * held by a masked-off lane of its own warp spins forever (seed 001's SIMD deadlock).
     */
    FERMI,
    /**
     * Independent thread scheduling (Volta and later): a program counter per lane; the warp issues for one group of
     * lanes that share a PC, rotating among groups, so every lane makes progress and SSY/SYNC only regroup lanes.
     */
    ITS;

    public static SimMode parse(String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new SimUserException("unknown mode '" + text + "' (expected fermi or its)");
        }
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
