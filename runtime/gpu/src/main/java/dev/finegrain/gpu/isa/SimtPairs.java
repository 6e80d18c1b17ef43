package dev.finegrain.gpu.isa;

import java.util.List;

/**
 * Which register operands of an instruction are 64-bit values, held as SASS holds them: in a register pair
 * {@code Rn:Rn+1}, {@code n} even, low word in {@code Rn}. An instruction with the {@code .64} modifier and the fp64
 * instructions (DADD, DMUL, DFMA, DDIV, DMNMX, DSETP) take pairs for every register operand, except the shift count
 * of {@code SHL.64}/{@code SHR.64}/{@code SHR.U64}, a 32-bit register; a conversion takes a pair on the side whose type is 64-bit
 * ({@code I2F.F64.S32 Rd(pair), Ra}: destination type first, source type second).
 */
public final class SimtPairs {

    private SimtPairs() {}

    /** Whether operand {@code i} of {@code in}, a register, names a pair. */
    public static boolean isPair(SimtInstruction in, int i) {
        return switch (in.opcode()) {
            case DADD, DMUL, DFMA, DDIV, DMNMX, DSETP -> true;
            case SHL, SHR -> (in.has("64") || in.has("U64")) && i != 2;
            case I2F, F2I, F2F -> {
                List<String> types = in.modifiers().stream().filter(SimtPairs::isNumberType).toList();
                int side = i == 0 ? 0 : 1;
                yield types.size() > side && types.get(side).endsWith("64");
            }
            default -> in.has("64");
        };
    }

    /** Whether the instruction reads or writes any pair. */
    public static boolean usesPairs(SimtInstruction in) {
        for (int i = 0; i < in.operandCount(); i++) {
            if (in.operand(i) instanceof SimtOperand.Register && isPair(in, i)) {
                return true;
            }
        }
        return false;
    }

    /** The conversion types I2F, F2I and F2F name, destination first. */
    public static boolean isNumberType(String modifier) {
        return switch (modifier) {
            case "S32", "S64", "F32", "F64" -> true;
            default -> false;
        };
    }
}
