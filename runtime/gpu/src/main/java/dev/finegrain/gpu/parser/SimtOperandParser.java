package dev.finegrain.gpu.parser;

import dev.finegrain.gpu.SimUserException;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.isa.SimtPairs;
import dev.finegrain.gpu.isa.SimtOperand;
import dev.finegrain.gpu.isa.SimtOperand.SpecialRegister;
import dev.finegrain.gpu.isa.SimtSourcePosition;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads an opcode's operands from the scanner by its signature (registers, register pairs, predicates, immediates,
 * addresses, special registers, branch targets) and counts the general registers the program uses.
 */
final class SimtOperandParser {
    private static final int PREDICATE_REGISTERS = 7;
    private static final int GENERAL_REGISTERS = 255;

    private final SimtScanner scanner;
    private int maxRegister = -1;

    SimtOperandParser(SimtScanner scanner) {
        this.scanner = scanner;
    }

    /** The number of general registers the program needs: at least one, and R0 up to the highest one used. */
    int registerCount() {
        return Math.max(1, maxRegister + 1);
    }

    List<SimtOperand> operands(String signature) {
        List<SimtOperand> operands = new ArrayList<>();
        boolean optional = false;
        for (int i = 0; i < signature.length(); i++) {
            char kind = signature.charAt(i);
            if (kind == '?') {
                optional = true;
                continue;
            }
            scanner.skipBlanksAndComments();
            if (!operands.isEmpty()) {
                if (scanner.peek() != ',') {
                    if (optional) {
                        break;
                    }
                    throw scanner.error(scanner.position(), "','");
                }
                scanner.advance(1);
                scanner.skipBlanksAndComments();
            } else if (optional && scanner.peek() == ';') {
                break;
            }
            operands.add(operand(kind));
        }
        return operands;
    }

    /** A pair operand names an even register (its high word is the next one, which the program then uses too). */
    void checkPairs(SimtInstruction instruction) {
        for (int i = 0; i < instruction.operandCount(); i++) {
            if (instruction.operand(i) instanceof SimtOperand.Register r && r.index() != SimtOperand.RZ
                    && SimtPairs.isPair(instruction, i)) {
                if (r.index() % 2 != 0 || r.index() + 1 >= GENERAL_REGISTERS) {
                    throw new SimUserException(r.position() + ": expected an even register below R254 for a 64-bit"
                            + " operand (the pair Rn:Rn+1), found '" + r + "'");
                }
                maxRegister = Math.max(maxRegister, r.index() + 1);
            }
        }
    }

    private SimtOperand operand(char kind) {
        SimtSourcePosition at = scanner.position();
        return switch (kind) {
            case 'd' -> register(false, at);
            case 'r' -> register(true, at);
            case 'b', 'n' -> scanner.peek() == '-' && isRegisterStart(1) || isRegisterStart(0)
                    ? register(kind == 'b', at)
                    : immediate(at, "a register or an immediate");
            case 'i' -> immediate(at, "an immediate");
            case 'p' -> predicate(false, false, at);
            case 'q' -> predicate(true, false, at);
            case 'a' -> address(at);
            case 's' -> special(at);
            case 't' -> target(at);
            default -> throw new IllegalStateException("operand kind " + kind);
        };
    }

    private boolean isRegisterStart(int ahead) {
        char c = Character.toUpperCase(scanner.peekAt(ahead));
        char next = Character.toUpperCase(scanner.peekAt(ahead + 1));
        return c == 'R' && (Character.isDigit(next) || next == 'Z');
    }

    private SimtOperand.Register register(boolean mayNegate, SimtSourcePosition at) {
        boolean negated = false;
        if (mayNegate && scanner.peek() == '-') {
            negated = true;
            scanner.advance(1);
        }
        String written = scanner.word();
        String word = written.toUpperCase(Locale.ROOT);
        if (word.equals("RZ")) {
            return new SimtOperand.Register(SimtOperand.RZ, negated, at);
        }
        if (word.matches("R[0-9]+")) {
            int index = Integer.parseInt(word.substring(1));
            if (index < GENERAL_REGISTERS) {
                maxRegister = Math.max(maxRegister, index);
                return new SimtOperand.Register(index, negated, at);
            }
        }
        throw scanner.error(at, "a register (R0 to R254 or RZ)", written);
    }

    SimtOperand.Predicate predicate(boolean mayNegate, boolean negatedAlready, SimtSourcePosition at) {
        boolean negated = negatedAlready;
        if (mayNegate && scanner.peek() == '!') {
            negated = true;
            scanner.advance(1);
        }
        String written = scanner.word();
        String word = written.toUpperCase(Locale.ROOT);
        if (word.equals("PT")) {
            return new SimtOperand.Predicate(SimtOperand.PT, negated, at);
        }
        if (word.matches("P[0-9]") && word.charAt(1) - '0' < PREDICATE_REGISTERS) {
            return new SimtOperand.Predicate(word.charAt(1) - '0', negated, at);
        }
        throw scanner.error(at, "a predicate (P0 to P6 or PT)", written);
    }

    private SimtOperand.Immediate immediate(SimtSourcePosition at, String expected) {
        boolean negative = false;
        if (scanner.peek() == '-') {
            negative = true;
            scanner.advance(1);
        }
        String word = scanner.word();
        Long value = number(word);
        if (value == null) {
            throw scanner.error(at, expected, (negative ? "-" : "") + word);
        }
        return new SimtOperand.Immediate((int) (negative ? -value : value), at);
    }

    private static Long number(String word) {
        String lower = word.toLowerCase(Locale.ROOT);
        try {
            long value = lower.startsWith("0x") ? Long.parseLong(lower.substring(2), 16) : Long.parseLong(lower);
            return value >= 0 && value <= 0xFFFF_FFFFL ? value : null;
        } catch (NumberFormatException notANumber) {
            return null;
        }
    }

    private SimtOperand.Address address(SimtSourcePosition at) {
        if (scanner.peek() != '[') {
            throw scanner.error(at, "an address ([Rn], [Rn+imm], [Rn+-imm] or [imm])", scanner.word());
        }
        scanner.advance(1);
        scanner.skipSpaces();
        int base = SimtOperand.RZ;
        int displacement = 0;
        if (isRegisterStart(0)) {
            base = register(false, scanner.position()).index();
            scanner.skipSpaces();
            if (scanner.peek() == '+' || scanner.peek() == '-') {
                boolean minus = scanner.peek() == '-';
                scanner.advance(1);
                scanner.skipSpaces();
                int value = immediate(scanner.position(), "an offset").value();
                displacement = minus ? -value : value;
            }
        } else {
            displacement = immediate(scanner.position(), "a register or an offset").value();
        }
        scanner.skipSpaces();
        if (scanner.peek() != ']') {
            throw scanner.error(scanner.position(), "']'");
        }
        scanner.advance(1);
        return new SimtOperand.Address(base, displacement, at);
    }

    private SimtOperand.Special special(SimtSourcePosition at) {
        String word = scanner.word();
        SpecialRegister register = SpecialRegister.lookup(word);
        if (register == null) {
            throw scanner.error(at, "a special register (SR_TID.X, SR_LANEID, SR_WARPID, SR_CTAID.X, SR_CLOCKLO,"
                    + " SR_NTID.X, SR_NCTAID.X)", word);
        }
        return new SimtOperand.Special(register, at);
    }

    private SimtOperand.Target target(SimtSourcePosition at) {
        String word = scanner.word();
        Long address = number(word);
        if (address != null) {
            return new SimtOperand.Target(null, address.intValue(), -1, at);
        }
        if (word.isEmpty() || !Character.isLetter(word.charAt(0)) && word.charAt(0) != '_') {
            throw scanner.error(at, "a branch target (an instruction address or a label)", word);
        }
        return new SimtOperand.Target(word.toUpperCase(Locale.ROOT), 0, -1, at);
    }
}
