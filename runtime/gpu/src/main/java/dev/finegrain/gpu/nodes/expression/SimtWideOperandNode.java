package dev.finegrain.gpu.nodes.expression;

import com.oracle.truffle.api.nodes.Node;
import dev.finegrain.gpu.runtime.SimtWarp;

/** A 64-bit source operand read per lane: a register pair, possibly negated, a 32-bit register or an immediate. */
public abstract class SimtWideOperandNode extends Node {
    public abstract long read(SimtWarp warp, int lane);

    /** {@code Rn:Rn+1}; a negated fp64 pair flips the sign bit (as DADD's {@code -R} does), an integer one negates. */
    public static SimtWideOperandNode pair(int register, boolean negated, boolean floating) {
        return new Pair(register, negated, floating);
    }

    /** A 32-bit immediate: sign-extended for integer instructions, the high word of a double for fp64 ones. */
    public static SimtWideOperandNode immediate(int value, boolean floating) {
        return new Constant(floating ? (long) value << 32 : value);
    }

    /** A 32-bit operand (a shift count, a conversion's source), sign-extended. */
    public static SimtWideOperandNode word(SimtOperandNode word) {
        return new Word(word);
    }

    private static final class Pair extends SimtWideOperandNode {
        private final int register;
        private final boolean negated;
        private final boolean floating;

        Pair(int register, boolean negated, boolean floating) {
            this.register = register;
            this.negated = negated;
            this.floating = floating;
        }

        @Override
        public long read(SimtWarp warp, int lane) {
            long value = warp.readPair(lane, register);
            if (!negated) {
                return value;
            }
            return floating ? value ^ Long.MIN_VALUE : -value;
        }
    }

    private static final class Constant extends SimtWideOperandNode {
        private final long value;

        Constant(long value) {
            this.value = value;
        }

        @Override
        public long read(SimtWarp warp, int lane) {
            return value;
        }
    }

    private static final class Word extends SimtWideOperandNode {
        @Child private SimtOperandNode word;

        Word(SimtOperandNode word) {
            this.word = word;
        }

        @Override
        public long read(SimtWarp warp, int lane) {
            return word.read(warp, lane);
        }
    }
}
