package dev.finegrain.gpu.nodes.expression;

/**
 * What an instruction on 32-bit registers computes from its (up to three) source values: integers with SASS's shift
 * clamping, the division pseudo-instructions with Java's semantics (a zero divisor gives 0: the lowering reports it
 * before), and fp32 arithmetic on the registers' bits, IEEE round-to-nearest as Java's float arithmetic.
 */
public enum SimtIntegerOp {
    MOV {
        @Override
        public int apply(int a, int b, int c) {
            return a;
        }
    },
    IADD {
        @Override
        public int apply(int a, int b, int c) {
            return a + b;
        }
    },
    /** DPX's add-then-max: max(a + b, c), the add wrapping as Java's. */
    ADD_MAX {
        @Override
        public int apply(int a, int b, int c) {
            return Math.max(a + b, c);
        }
    },
    /** The same clamped at zero (VIADDMNMX.RELU): max(a + b, c, 0). */
    ADD_MAX_RELU {
        @Override
        public int apply(int a, int b, int c) {
            return Math.max(Math.max(a + b, c), 0);
        }
    },
    IMUL {
        @Override
        public int apply(int a, int b, int c) {
            return a * b;
        }
    },
    IMAD {
        @Override
        public int apply(int a, int b, int c) {
            return a * b + c;
        }
    },
    SHL {
        @Override
        public int apply(int a, int b, int c) {
            return Integer.compareUnsigned(b, 32) >= 0 ? 0 : a << b;
        }
    },
    /** Arithmetic shift right, the default for SHR and SHR.S32. */
    SHR {
        @Override
        public int apply(int a, int b, int c) {
            return Integer.compareUnsigned(b, 32) >= 0 ? a >> 31 : a >> b;
        }
    },
    SHR_U32 {
        @Override
        public int apply(int a, int b, int c) {
            return Integer.compareUnsigned(b, 32) >= 0 ? 0 : a >>> b;
        }
    },
    AND {
        @Override
        public int apply(int a, int b, int c) {
            return a & b;
        }
    },
    OR {
        @Override
        public int apply(int a, int b, int c) {
            return a | b;
        }
    },
    XOR {
        @Override
        public int apply(int a, int b, int c) {
            return a ^ b;
        }
    },
    /** Java's int division; {@code MIN_VALUE / -1} wraps; a zero divisor gives 0. */
    IDIV {
        @Override
        public int apply(int a, int b, int c) {
            return b == 0 ? 0 : a / b;
        }
    },
    /** Java's int remainder, the sign of the dividend; a zero divisor gives 0. */
    IREM {
        @Override
        public int apply(int a, int b, int c) {
            return b == 0 ? 0 : a % b;
        }
    },
    FADD {
        @Override
        public int apply(int a, int b, int c) {
            return Float.floatToRawIntBits(Float.intBitsToFloat(a) + Float.intBitsToFloat(b));
        }
    },
    FMUL {
        @Override
        public int apply(int a, int b, int c) {
            return Float.floatToRawIntBits(Float.intBitsToFloat(a) * Float.intBitsToFloat(b));
        }
    },
    /** {@code a * b + c} rounded once. */
    FFMA {
        @Override
        public int apply(int a, int b, int c) {
            return Float.floatToRawIntBits(Math.fma(Float.intBitsToFloat(a), Float.intBitsToFloat(b),
                    Float.intBitsToFloat(c)));
        }
    },
    /** Java's Math.min: a NaN operand wins, -0.0 is below 0.0. */
    FMIN {
        @Override
        public int apply(int a, int b, int c) {
            return Float.floatToRawIntBits(Math.min(Float.intBitsToFloat(a), Float.intBitsToFloat(b)));
        }
    },
    FMAX {
        @Override
        public int apply(int a, int b, int c) {
            return Float.floatToRawIntBits(Math.max(Float.intBitsToFloat(a), Float.intBitsToFloat(b)));
        }
    };

    public abstract int apply(int a, int b, int c);
}
