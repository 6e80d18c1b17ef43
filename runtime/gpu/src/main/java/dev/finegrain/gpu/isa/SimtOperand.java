package dev.finegrain.gpu.isa;

import java.util.Locale;

/** One operand of a model-ISA instruction, as written. */
public sealed interface SimtOperand {

    /** Index of the zero register RZ: reads as 0, writes are dropped. */
    int RZ = 255;
    /** Index of the always-true predicate PT: reads as true, writes are dropped. */
    int PT = 7;

    SimtSourcePosition position();

    /** {@code Rn}, {@code RZ}, or a negated source {@code -Rn}. */
    record Register(int index, boolean negated, SimtSourcePosition position) implements SimtOperand {
        @Override
        public String toString() {
            return (negated ? "-" : "") + (index == RZ ? "RZ" : "R" + index);
        }
    }

    /** {@code Pn}, {@code PT}, or a negated source {@code !Pn}. */
    record Predicate(int index, boolean negated, SimtSourcePosition position) implements SimtOperand {
        @Override
        public String toString() {
            return (negated ? "!" : "") + (index == PT ? "PT" : "P" + index);
        }
    }

    /** A 32-bit immediate, written in hex or decimal, possibly negative. */
    record Immediate(int value, SimtSourcePosition position) implements SimtOperand {
        @Override
        public String toString() {
            return value < 0 ? "-0x" + Integer.toHexString(-value) : "0x" + Integer.toHexString(value);
        }
    }

    /** A memory address {@code [Rn+offset]}; {@code [imm]} is RZ plus the offset. */
    record Address(int baseRegister, int offset, SimtSourcePosition position) implements SimtOperand {
        @Override
        public String toString() {
            String base = baseRegister == RZ ? "" : "R" + baseRegister;
            if (offset == 0) {
                return "[" + (base.isEmpty() ? "0x0" : base) + "]";
            }
            String off = offset < 0 ? "-0x" + Integer.toHexString(-offset) : "0x" + Integer.toHexString(offset);
            return "[" + (base.isEmpty() ? off : base + "+" + off) + "]";
        }
    }

    /** A special register read by S2R, spelled as cuobjdump prints it. */
    record Special(SpecialRegister register, SimtSourcePosition position) implements SimtOperand {
        @Override
        public String toString() {
            return register.spelling();
        }
    }

    /** A branch or SSY target: a label, or an instruction address; resolved to an instruction index by the parser. */
    record Target(String label, int address, int instructionIndex, SimtSourcePosition position) implements SimtOperand {
        public Target resolvedTo(int index) {
            return new Target(label, address, index, position);
        }

        @Override
        public String toString() {
            return label != null ? label : "0x" + Integer.toHexString(address);
        }
    }

    /** The special registers S2R can read. */
    enum SpecialRegister {
        TID_X("SR_TID.X"), LANEID("SR_LANEID"), WARPID("SR_WARPID"), CTAID_X("SR_CTAID.X"), CLOCKLO("SR_CLOCKLO"),
        NTID_X("SR_NTID.X"), NCTAID_X("SR_NCTAID.X");

        private final String spelling;

        SpecialRegister(String spelling) {
            this.spelling = spelling;
        }

        public String spelling() {
            return spelling;
        }

        /** Case-insensitive lookup; {@code SR_TID} means {@code SR_TID.X}, {@code SR_CLOCK} means {@code SR_CLOCKLO}. */
        public static SpecialRegister lookup(String written) {
            String upper = written.toUpperCase(Locale.ROOT);
            for (SpecialRegister register : values()) {
                if (register.spelling.equals(upper)) {
                    return register;
                }
            }
            return switch (upper) {
                case "SR_TID" -> TID_X;
                case "SR_CTAID" -> CTAID_X;
                case "SR_CLOCK" -> CLOCKLO;
                case "SR_NTID" -> NTID_X;
                default -> null;
            };
        }
    }
}
