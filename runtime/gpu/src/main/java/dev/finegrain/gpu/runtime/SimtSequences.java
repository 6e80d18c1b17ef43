package dev.finegrain.gpu.runtime;

/**
 * What the model's 64-bit and division instructions cost: each stands for the sequence of 32-bit hardware
 * instructions nvcc emits for it, and costs the sum of that sequence's latencies on the profile (the model charges
 * an instruction's latency before its warp issues again, so a sequence of dependent instructions costs the sum).
 * The instruction counts come from {@code cuobjdump -sass} of nvcc 13.0's code for sm_90 ({@code -O3 -fmad=false}):
 * the kernels are {@code runtime/gpu/microbench/sequences.cu}, {@code sequences.sh} beside it writes the listing, and
 * {@code runtime/gpu/microbench/results/sequences-sm90-nvcc13.0.sass} is its output (the counts below leave out each
 * kernel's loads, stores and address arithmetic), per kind of instruction: ALU (IADD3, LOP3, ISETP, SEL, MOV,
 * BRA ...), multiply (IMAD, IMAD.WIDE, IMAD.HI), special function (MUFU.RCP, MUFU.RCP64H), conversion (I2F, F2I),
 * fp32 (FSETP, FFMA), fp64 (DFMA, DMUL). docs/simt-isa.md lists the sequences.
 */
public final class SimtSequences {
    private final SimtProfile profile;

    SimtSequences(SimtProfile profile) {
        this.profile = profile;
    }

    /** A 64-bit add, logic operation, shift, select, move or comparison: two 32-bit ALU instructions. */
    public int pairAlu() {
        return 2 * profile.aluLatency();
    }

    /** A 64-bit multiply (low 64 bits): IMAD.WIDE.U32, two IMAD for the cross terms and an IADD3. */
    public int pairMultiply() {
        return 3 * profile.multiplyLatency() + profile.aluLatency();
    }

    /**
     * IDIV and IREM: {@code a / b} on int compiles to I2F.RP, MUFU.RCP, F2I.FTZ.U32.TRUNC, 4 IMAD and 17 ALU
     * instructions (IABS, IADD3, ISETP, LOP3 for the signs and the two correction steps).
     */
    public int divide() {
        return 17 * profile.aluLatency() + 4 * profile.multiplyLatency() + 2 * profile.convertLatency()
                + profile.specialFunctionLatency();
    }

    /**
     * IDIV.64 and IREM.64: {@code a / b} on long calls a subroutine (when either operand has high bits): I2F.U64.RP,
     * MUFU.RCP, F2I.U64.TRUNC, 24 multiplies (IMAD.WIDE.U32, IMAD.HI.U32) and 60 ALU instructions, the call included.
     */
    public int divide64() {
        return 60 * profile.aluLatency() + 24 * profile.multiplyLatency() + 2 * profile.convert64Latency()
                + profile.specialFunctionLatency();
    }

    /**
     * DDIV: {@code __ddiv_rn(a, b)} takes MUFU.RCP64H, 8 DFMA/DMUL (Newton-Raphson and the residual), FFMA and two
     * FSETP (the range check that chooses the fast path) and a branch; the slow path for operands near the range's
     * ends (a subroutine) is not charged.
     */
    public int divideDouble() {
        return profile.specialFunctionLatency() + 8 * profile.fp64Latency() + 3 * profile.fp32Latency()
                + profile.aluLatency();
    }

    /**
     * DMNMX with Java's semantics (a NaN wins, -0.0 below 0.0): the hardware's DMNMX returns the other operand for a
     * NaN, so the sequence is DSETP.NAN, the DMNMX and a SEL.64 that takes the NaN (estimate, not from a listing:
     * nvcc compiles finegrain.cuh's fg::min_ to branches).
     */
    public int minMaxDouble() {
        return 2 * profile.fp64Latency() + 2 * profile.aluLatency();
    }
}
