package dev.finegrain.compiler.backend.gpu.primitive;

import java.util.ArrayList;
import java.util.List;

/**
 * One of Stuart and Owens' twelve memory-system benchmarks (their Tables 1 to 3): every block's master thread makes
 * {@code accesses} accesses of one kind, all blocks to one word (contentious) or each to its own word 256 bytes from
 * the next (noncontentious). Reads are volatile loads or {@code atomicAdd(p, 0)}; writes volatile stores or
 * {@code atomicExch(p, 0)}; the "preceded by atomic" forms make one atomic access first, to see whether an atomic unit
 * holds the line hostage. The accesses are unrolled ten to a loop iteration, so the loop's own instructions are a
 * small part of the time.
 *
 * @param contentious every block on one word, rather than each on its own
 * @param access what each access is
 * @param write a write rather than a read
 */
public record MemoryBenchmark(boolean contentious, Access access, boolean write) {

    /** Accesses per loop iteration. */
    static final int UNROLL = 10;

    /** A volatile access, an atomic one, or a volatile one after a single atomic (does the atomic unit hold the line?). */
    public enum Access {
        VOLATILE, ATOMIC, VOLATILE_AFTER_ATOMIC
    }

    /** The twelve, in the order of the paper's Table 1. */
    public static List<MemoryBenchmark> all() {
        List<MemoryBenchmark> all = new ArrayList<>();
        for (Access access : Access.values()) {
            for (boolean contentious : new boolean[] {true, false}) {
                for (boolean write : new boolean[] {false, true}) {
                    all.add(new MemoryBenchmark(contentious, access, write));
                }
            }
        }
        return all;
    }

    public String name() {
        return (contentious ? "contentious" : "noncontentious") + "-" + access.name().toLowerCase().replace('_', '-')
                + "-" + (write ? "write" : "read");
    }

    /** The program: {@code accesses} (a multiple of {@link #UNROLL}) accesses by each block's thread 0. */
    public String text(int accesses) {
        if (accesses < UNROLL || accesses % UNROLL != 0) {
            throw new IllegalArgumentException("accesses must be a positive multiple of " + UNROLL + ", was " + accesses);
        }
        SassText out = new SassText();
        out.comment(name() + ": " + accesses + " accesses by each block's master thread");
        out.line("S2R R0, SR_TID.X");
        out.line("S2R R1, SR_CTAID.X");
        out.line("ISETP.NE.AND P0, PT, R0, RZ, PT");
        out.line("@P0 EXIT");
        out.line("SHL R6, R1, 0x8");
        out.line("IADD R6, R6, " + SassText.hex(PrimitiveLayout.PRIVATE));
        out.line("MOV32I R7, " + SassText.hex(PrimitiveLayout.WORD_A));
        String word = contentious ? "[R7]" : "[R6]";
        if (access == Access.VOLATILE_AFTER_ATOMIC) {
            out.line("ATOM.ADD RZ, " + word + ", RZ");
        }
        out.line("MOV32I R3, " + SassText.hex(accesses / UNROLL));
        out.label("loop");
        for (int i = 0; i < UNROLL; i++) {
            out.line(instruction(word));
        }
        out.line("IADD R3, R3, -0x1");
        out.line("ISETP.GT.AND P1, PT, R3, RZ, PT");
        out.line("@P1 BRA loop");
        out.line("EXIT");
        return out.toString();
    }

    private String instruction(String word) {
        if (access == Access.ATOMIC) {
            return write ? "ATOM.EXCH R10, " + word + ", RZ" : "ATOM.ADD R10, " + word + ", RZ";
        }
        return write ? "STG " + word + ", RZ" : "LDG R10, " + word;
    }

    /** The CUDA statement of one access to {@code p}, an {@code unsigned*}. */
    public String cudaAccess() {
        if (access == Access.ATOMIC) {
            return write ? "sink += atomicExch(p, 0u);" : "sink += atomicAdd(p, 0u);";
        }
        return write ? "*(volatile unsigned*) p = 0u;" : "sink += *(volatile unsigned*) p;";
    }
}
