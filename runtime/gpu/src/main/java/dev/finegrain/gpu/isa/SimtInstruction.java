package dev.finegrain.gpu.isa;

import java.util.List;

/**
 * One parsed instruction.
 *
 * @param index position in the program, what branches resolve to
 * @param address the byte address from its {@code /*00a8*}{@code /} comment, or the previous one plus 8
 * @param guard the {@code @P0}/{@code @!P0} predicate, or null when unguarded
 * @param opcode what it does
 * @param modifiers the dot-suffixes after the mnemonic, upper case, in source order
 * @param operands the operands in source order
 * @param text the instruction as written, for reports
 * @param position where it starts in the source
 */
public record SimtInstruction(int index, int address, SimtOperand.Predicate guard, SimtOpcode opcode,
                              List<String> modifiers, List<SimtOperand> operands, String text,
                              SimtSourcePosition position) {

    public boolean has(String modifier) {
        return modifiers.contains(modifier);
    }

    public SimtOperand operand(int i) {
        return operands.get(i);
    }

    public int operandCount() {
        return operands.size();
    }

    public SimtInstruction withOperands(List<SimtOperand> resolved) {
        return new SimtInstruction(index, address, guard, opcode, modifiers, resolved, text, position);
    }

    /** {@code /*00a8*}{@code / LDSLK P0, R2, [R0]} as a report prints it. */
    public String describe() {
        return String.format("/*%04x*/ %s", address, text);
    }
}
