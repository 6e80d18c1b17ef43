package dev.finegrain.compiler.backend.gpu.model;

/**
 * How a wait loop loads the shared word it polls (a token, a flag, a mutex it looks at). CUDA polls with an acquire load
 * through a generic pointer ({@code fg::load_acquire_cta}), which nvcc compiles for independent thread scheduling to
 * {@code LD.E.STRONG.SM} followed by a NOP (read from the H200's SASS of the generated tiles): the model spells it
 * {@code LDS.STRONG} and the NOP there, and a plain LDS on Fermi's profiles, whose code is seed 001's hand-written SASS.
 *
 * @param strong whether the target's code is nvcc's for independent thread scheduling
 */
record SimtPollLoad(SimtAssembler asm, boolean strong) {

    /** Loads {@code address} ({@code .64}: a pair) into {@code destination} in the lanes where {@code guard} holds (PT: all). */
    void emit(String guard, String destination, String address, boolean wide, String why) {
        String load = "LDS" + (wide ? ".64" : "") + (strong ? ".STRONG" : "") + " " + destination + ", " + address
                + (why.isEmpty() ? "" : "   // " + why);
        asm.emitWhere(guard, load);
        if (strong) {
            asm.emitWhere(guard, "NOP   // after the strong load, as nvcc places one");
        }
    }
}
