package dev.finegrain.gpu.nodes.expression;

/**
 * What an instruction on 64-bit register pairs computes: integers with Java's wrapping semantics (SASS's shift
 * clamping for counts of 64 and more; the division pseudo-instructions give 0 for a zero divisor, which the
 * lowering reports before), and fp64 on the pairs' bits, IEEE round-to-nearest exactly as Java's double arithmetic:
 * DFMA rounds once, the others each operation; DMNMX follows Math.min and Math.max (a NaN wins, -0.0 is below 0.0).
 */
public enum SimtWideOp {
    MOV {
        @Override
        public long apply(long a, long b, long c) {
            return a;
        }
    },
    IADD {
        @Override
        public long apply(long a, long b, long c) {
            return a + b;
        }
    },
    IMUL {
        @Override
        public long apply(long a, long b, long c) {
            return a * b;
        }
    },
    SHL {
        @Override
        public long apply(long a, long b, long c) {
            return Long.compareUnsigned(b, 64) >= 0 ? 0 : a << b;
        }
    },
    SHR {
        @Override
        public long apply(long a, long b, long c) {
            return Long.compareUnsigned(b, 64) >= 0 ? a >> 63 : a >> b;
        }
    },
    SHR_U64 {
        @Override
        public long apply(long a, long b, long c) {
            return Long.compareUnsigned(b, 64) >= 0 ? 0 : a >>> b;
        }
    },
    AND {
        @Override
        public long apply(long a, long b, long c) {
            return a & b;
        }
    },
    OR {
        @Override
        public long apply(long a, long b, long c) {
            return a | b;
        }
    },
    XOR {
        @Override
        public long apply(long a, long b, long c) {
            return a ^ b;
        }
    },
    IDIV {
        @Override
        public long apply(long a, long b, long c) {
            return b == 0 ? 0 : a / b;
        }
    },
    IREM {
        @Override
        public long apply(long a, long b, long c) {
            return b == 0 ? 0 : a % b;
        }
    },
    DADD {
        @Override
        public long apply(long a, long b, long c) {
            return bits(value(a) + value(b));
        }
    },
    /** {@code DADD Rd, Ra, -Rb}: Java's {@code a - b}, which for a NaN {@code b} keeps its sign. */
    DSUB {
        @Override
        public long apply(long a, long b, long c) {
            return bits(value(a) - value(b));
        }
    },
    DMUL {
        @Override
        public long apply(long a, long b, long c) {
            return bits(value(a) * value(b));
        }
    },
    DFMA {
        @Override
        public long apply(long a, long b, long c) {
            return bits(Math.fma(value(a), value(b), value(c)));
        }
    },
    DDIV {
        @Override
        public long apply(long a, long b, long c) {
            return bits(value(a) / value(b));
        }
    },
    DMIN {
        @Override
        public long apply(long a, long b, long c) {
            return bits(Math.min(value(a), value(b)));
        }
    },
    DMAX {
        @Override
        public long apply(long a, long b, long c) {
            return bits(Math.max(value(a), value(b)));
        }
    };

    public abstract long apply(long a, long b, long c);

    private static double value(long bits) {
        return Double.longBitsToDouble(bits);
    }

    private static long bits(double value) {
        return Double.doubleToRawLongBits(value);
    }
}
