package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.gpu.GpuLoweringException;
import dev.finegrain.dsl.Type;

/**
 * Writes a model-ISA program (docs/simt-isa.md) as text: one instruction per line, labels, and comments that say
 * which part of the kernel each block of code implements, so that {@code finegrain show --simt} reads like seed
 * 001's listings. Registers are handed out in order and reused only after {@link #release}: the programs are small,
 * and a register per value keeps the text easy to follow.
 */
final class SimtAssembler {

    /** Registers R0..R254 exist; RZ is R255. */
    private static final int REGISTERS = 255;

    private final StringBuilder text = new StringBuilder();
    private int nextRegister;
    /** The most registers handed out at once. */
    private int highWater;
    private int nextLabel;
    /** While a {@link #guarded} block is spelled, the predicate every instruction in it runs under. */
    private String guard;

    /** A fresh general register. */
    String register() {
        if (nextRegister == REGISTERS) {
            throw new GpuLoweringException("the kernel needs more than " + REGISTERS + " registers per thread on the"
                    + " GPU model; simplify the actor bodies");
        }
        highWater = Math.max(highWater, nextRegister + 1);
        return "R" + nextRegister++;
    }

    /** Where the next register would come from: what {@link #release} returns to. */
    int mark() {
        return nextRegister;
    }

    /**
     * The registers handed out since {@code mark} are free again: for values that live only within a block of code
     * that is spelled several times over (a row of an unrolled loop), as a compiler's register allocator reuses them.
     */
    void release(int mark) {
        nextRegister = mark;
    }

    /** A fresh 64-bit register pair {@code Rn:Rn+1}, {@code n} even, named by its low register {@code Rn}. */
    String pair() {
        if (nextRegister % 2 != 0) {
            register();
        }
        String low = register();
        register();
        return low;
    }

    /** A fresh register for a value of {@code type}: a pair for long and double. */
    String register(Type type) {
        return isWide(type) ? pair() : register();
    }

    /** The high register of the pair {@code low} names. */
    static String high(String low) {
        return "R" + (Integer.parseInt(low.substring(1)) + 1);
    }

    /** Whether values of {@code type} take a 64-bit register pair. */
    static boolean isWide(Type type) {
        return type == Type.LONG || type == Type.DOUBLE;
    }

    /** The modifier of a 64-bit load, store, move or select of {@code type}: {@code .64}, or nothing. */
    static String width(Type type) {
        return isWide(type) ? ".64" : "";
    }

    /** A fresh label with a readable stem. */
    String label(String stem) {
        return stem + "_" + nextLabel++;
    }

    /**
     * Spells {@code body} with every instruction under {@code predicate}: a short branch around it, as a compiler
     * if-converts one (nvcc predicates a lane's conditional store rather than branching around it). The body may
     * neither guard instructions itself nor place labels.
     */
    void guarded(String predicate, Runnable body) {
        if (guard != null) {
            throw new IllegalStateException("guarded blocks do not nest");
        }
        guard = predicate;
        try {
            body.run();
        } finally {
            guard = null;
        }
    }

    void place(String label) {
        if (guard != null) {
            throw new IllegalStateException("a label inside a block guarded by " + guard + ": " + label);
        }
        text.append(label).append(":\n");
    }

    /** One instruction, optionally followed by {@code // why} (the comment goes after the terminator). */
    void emit(String instruction) {
        if (guard != null) {
            if (instruction.startsWith("@")) {
                throw new IllegalStateException("an instruction with its own guard in a block guarded by " + guard + ": " + instruction);
            }
            instruction = "@" + guard + " " + instruction;
        }
        int comment = instruction.indexOf("//");
        String code = comment < 0 ? instruction : instruction.substring(0, comment).strip();
        text.append("        ").append(code).append(';');
        if (comment >= 0) {
            text.append("   ").append(instruction.substring(comment));
        }
        text.append('\n');
    }

    /** An instruction that runs only for lanes where {@code guard} ({@code P0}, {@code !P1}) holds. */
    void emit(String guard, String instruction) {
        emit("@" + guard + " " + instruction);
    }

    /** {@link #emit(String, String)}, unguarded where {@code guard} is {@code PT} (always true). */
    void emitWhere(String guard, String instruction) {
        if (guard.equals("PT")) {
            emit(instruction);
        } else {
            emit(guard, instruction);
        }
    }

    void comment(String line) {
        text.append("        // ").append(line).append('\n');
    }

    void section(String title) {
        text.append("// ").append(title).append('\n');
    }

    /** A register holding {@code value}. */
    String constant(long value) {
        String register = register();
        emit("MOV32I " + register + ", " + immediate(value));
        return register;
    }

    /** A pair holding the 64 bits of {@code bits}. */
    String constant64(long bits) {
        String pair = pair();
        emit("MOV32I " + pair + ", " + immediate((int) bits));
        emit("MOV32I " + high(pair) + ", " + immediate((int) (bits >>> 32)));
        return pair;
    }

    static String immediate(long value) {
        int word = (int) value;
        return word < 0 ? "-0x" + Integer.toHexString(-word) : "0x" + Integer.toHexString(word);
    }

    /** An address operand {@code [Rbase+offset]}. */
    static String address(String base, long offset) {
        if (offset == 0) {
            return "[" + base + "]";
        }
        return "[" + base + (offset < 0 ? "+-" : "+") + "0x" + Long.toHexString(Math.abs(offset)) + "]";
    }

    int registersUsed() {
        return highWater;
    }

    String text() {
        return text.toString();
    }
}
