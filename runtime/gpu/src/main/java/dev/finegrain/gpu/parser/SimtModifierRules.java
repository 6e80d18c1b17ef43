package dev.finegrain.gpu.parser;

import dev.finegrain.gpu.SimUserException;
import dev.finegrain.gpu.isa.SimtOpcode;
import dev.finegrain.gpu.isa.SimtPairs;
import dev.finegrain.gpu.isa.SimtSourcePosition;

import java.util.List;

/** Rejects a mnemonic's modifiers that its opcode does not accept, or that lack one the opcode requires. */
final class SimtModifierRules {
    private SimtModifierRules() {
    }

    static void check(SimtOpcode opcode, List<String> modifiers, SimtSourcePosition at) {
        for (String modifier : modifiers) {
            if (!opcode.accepts(modifier)) {
                throw new SimUserException(at + ": expected a modifier of " + opcode.mnemonic() + " (one of "
                        + String.join(", ", opcode.modifiers().stream().sorted().toList()) + ", S), found '."
                        + modifier + "'");
            }
        }
        checkRequired(opcode, modifiers, at);
    }

    private static void checkRequired(SimtOpcode opcode, List<String> modifiers, SimtSourcePosition at) {
        if (opcode == SimtOpcode.ISETP && modifiers.stream().noneMatch(SimtModifierRules::isComparison)) {
            throw new SimUserException(at + ": expected a comparison after ISETP (EQ, NE, LT, LE, GT or GE)");
        }
        if ((opcode == SimtOpcode.DSETP || opcode == SimtOpcode.FSETP)
                && modifiers.stream().noneMatch(m -> isComparison(m) || m.equals("NEU"))) {
            throw new SimUserException(at + ": expected a comparison after " + opcode.mnemonic()
                    + " (EQ, NE, NEU, LT, LE, GT or GE)");
        }
        if ((opcode == SimtOpcode.I2F || opcode == SimtOpcode.F2I || opcode == SimtOpcode.F2F)
                && modifiers.stream().filter(SimtPairs::isNumberType).count() != 2) {
            throw new SimUserException(at + ": expected the destination and source types after " + opcode.mnemonic()
                    + " (e.g. I2F.F64.S32, F2I.S32.F64, F2F.F32.F64)");
        }
        if (opcode == SimtOpcode.PSETP && modifiers.stream().noneMatch(m -> m.equals("AND") || m.equals("OR")
                || m.equals("XOR"))) {
            throw new SimUserException(at + ": expected a boolean operation after PSETP (AND, OR or XOR)");
        }
    }

    private static boolean isComparison(String modifier) {
        return switch (modifier) {
            case "EQ", "NE", "LT", "LE", "GT", "GE" -> true;
            default -> false;
        };
    }
}
