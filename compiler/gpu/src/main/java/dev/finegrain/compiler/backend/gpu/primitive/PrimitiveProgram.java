package dev.finegrain.compiler.backend.gpu.primitive;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The paper's benchmark of one primitive as a model-ISA program: every block's master thread (a barrier: every
 * thread) performs the primitive {@code ops} times back to back, the critical section empty, as Stuart and Owens time
 * them (§6). A checking program adds, inside the critical section, an atomic count of holders (more than the capacity
 * is an error) and an increment of a counter (a plain one under a mutex, so a lost update shows), and around each
 * barrier an atomic count of arrivals that must lie between {@code step x blocks} and {@code (step + 1) x blocks - 1}
 * after the barrier. Timed runs use the plain program, so the checks cost them nothing.
 *
 * @param primitive what is measured
 * @param ops operations per block
 * @param capacity 1 for a mutex, the initial value of a semaphore; ignored by barriers
 * @param checking whether the program checks what the primitive guarantees
 */
public record PrimitiveProgram(SyncPrimitive primitive, int ops, int capacity, boolean checking) {

    /** Threads per block, the paper's 128. */
    public static final int THREADS_PER_BLOCK = 128;

    public PrimitiveProgram {
        if (ops < 1) {
            throw new IllegalArgumentException("ops must be at least 1, was " + ops);
        }
        if (capacity < 1) {
            throw new IllegalArgumentException("a semaphore's initial value must be at least 1, was " + capacity);
        }
        if (primitive.kind() == PrimitiveKind.MUTEX) {
            capacity = 1;
        }
    }

    /** Words to set before the launch. */
    public Map<Integer, Integer> initialWords() {
        return new LinkedHashMap<>(primitive.initialWords(capacity));
    }

    /** The value the counter must have after a checking run of {@code blocks} blocks. */
    public long expectedCount(int blocks) {
        return primitive.kind() == PrimitiveKind.BARRIER ? 0 : (long) blocks * ops;
    }

    public String text() {
        SassText out = new SassText();
        out.comment(primitive.name() + " (" + primitive.algorithm() + "), " + ops + " per block"
                + (primitive.kind() == PrimitiveKind.SEMAPHORE ? ", initial value " + capacity : "")
                + (checking ? ", checked" : ""));
        out.line("S2R R0, SR_TID.X");
        out.line("S2R R1, SR_CTAID.X");
        out.line("S2R R2, SR_NCTAID.X");
        out.line("S2R R33, SR_NTID.X");
        out.line("ISETP.EQ.AND P0, PT, R0, RZ, PT");
        boolean barrier = primitive.kind() == PrimitiveKind.BARRIER;
        if (!barrier) {
            out.comment("block semantics: the master thread alone takes the primitive");
            out.line("@!P0 EXIT");
        }
        out.line("MOV32I R3, " + SassText.hex(ops));
        out.line("MOV32I R4, 0x0");
        out.line("MOV32I R5, 0x1");
        out.line("SHL R6, R1, 0x8");
        out.line("IADD R6, R6, " + SassText.hex(PrimitiveLayout.PRIVATE));
        out.line("SHL R7, R1, 0x2");
        out.line("MOV32I R8, " + SassText.hex(capacity));
        out.label("op");
        out.line("IADD R4, R4, 0x1");
        if (barrier) {
            if (checking) {
                out.line("@P0 ATOM.ADD RZ, [" + SassText.hex(PrimitiveLayout.ARRIVALS) + "], R5");
            }
            primitive.sassEnter(out);
            if (checking) {
                checkBarrierPhase(out);
            }
        } else {
            primitive.sassEnter(out);
            if (checking) {
                checkHolders(out);
            }
            primitive.sassLeave(out);
        }
        out.line("IADD R3, R3, -0x1");
        out.line("ISETP.GT.AND P6, PT, R3, RZ, PT");
        out.line("@P6 BRA op");
        out.line("EXIT");
        return out.toString();
    }

    private void checkHolders(SassText out) {
        String error = "[" + SassText.hex(PrimitiveLayout.ERROR) + "]";
        String holders = "[" + SassText.hex(PrimitiveLayout.HOLDERS) + "]";
        String counter = "[" + SassText.hex(PrimitiveLayout.COUNTER) + "]";
        out.comment("check: no more holders than the capacity, and count the entry");
        out.line("ATOM.ADD R24, " + holders + ", R5");
        out.line("ISETP.GE.AND P4, PT, R24, R8, PT");
        out.line("@P4 ATOM.ADD RZ, " + error + ", R5");
        if (capacity == 1) {
            out.line("LDG R25, " + counter);
            out.line("IADD R25, R25, 0x1");
            out.line("STG " + counter + ", R25");
        } else {
            out.line("ATOM.ADD RZ, " + counter + ", R5");
        }
        out.line("ATOM.ADD RZ, " + holders + ", -0x1");
    }

    private static void checkBarrierPhase(SassText out) {
        String error = "[" + SassText.hex(PrimitiveLayout.ERROR) + "]";
        out.comment("check: after step s every block arrived s times, and none arrived s + 1 times yet");
        out.line("@P0 LDG R24, [" + SassText.hex(PrimitiveLayout.ARRIVALS) + "]");
        out.line("IMUL R25, R4, R2");
        out.line("IADD R26, R25, R2");
        out.line("@P0 ISETP.LT.AND P4, PT, R24, R25, PT");
        out.line("@P4 ATOM.ADD RZ, " + error + ", R5");
        out.line("@P0 ISETP.GE.AND P4, PT, R24, R26, PT");
        out.line("@P4 ATOM.ADD RZ, " + error + ", R5");
    }
}
