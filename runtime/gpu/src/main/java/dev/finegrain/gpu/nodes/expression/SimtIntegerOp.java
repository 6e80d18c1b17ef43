package dev.finegrain.gpu.nodes.expression;

/** What an integer instruction computes from its (up to three) source values, with SASS's shift clamping. */
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
    };

    public abstract int apply(int a, int b, int c);
}
