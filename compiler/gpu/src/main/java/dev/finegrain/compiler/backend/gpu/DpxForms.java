package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.dsl.BinaryOperator;
import dev.finegrain.dsl.Type;

import java.util.Optional;
import java.util.function.Predicate;

/**
 * Where a GPU with DPX instructions ({@link GpuTarget#dpx}, Hopper's) takes an int max of a sum as one add-then-max:
 * {@code max(a + b, c)}, or {@code max(a - b, c)} as {@code max(a + (-b), c)}, is {@code __viaddmax_s32(a, b, c)} in
 * CUDA and VIADDMNMX in the model ISA, one instruction where an add and a max were two (the model spelled the max as a
 * compare and a select: three). Needleman-Wunsch's and Smith-Waterman's cells are two of them each. The decision is
 * made here once; the emitters spell it. On an H200 the instruction's dependent chain measured 4.04 cycles, and nvcc
 * fuses a plainly written {@code max(x + a, b)} into the same instruction (4.13): the CUDA spelling changes nothing
 * there but makes the choice visible; the model's cycles change, as the real ones did all along.
 *
 * <p>Where the rest of the max is itself a max with a zero among its terms, as Smith-Waterman's
 * {@code max(0, d + s, u - g, l - g)}, the zero becomes the instruction's clamp ({@code __viaddmax_s32_relu},
 * VIADDMNMX.RELU: {@code max(a + b, c, 0)}) and leaves the rest: a cell of three add-then-max instructions becomes one
 * subtraction and two, as Needleman-Wunsch's. Max being associative and commutative on ints, the value is the same. On
 * an H200 it ran smith-waterman-seq at 65536² 2.2 % faster with four columns a lane and 4.8 % with eight (11.52 to
 * 11.27 ms, 15.50 to 14.76).
 */
public final class DpxForms {

    private DpxForms() {}

    /**
     * {@code max(augend + addend, floor)}, with {@code addend} negated for a difference, and clamped at zero where
     * {@code relu} (the zero taken out of the max it was a term of).
     */
    public record AddMax(IrExpr augend, IrExpr addend, boolean negateAddend, IrExpr floor, boolean relu) {

        /** The form without the clamp. */
        public AddMax(IrExpr augend, IrExpr addend, boolean negateAddend, IrExpr floor) {
            this(augend, addend, negateAddend, floor, false);
        }
    }

    /**
     * The add-then-max form of {@code max}, if the target has DPX, the max is of ints and one of its operands is an
     * int sum or difference that {@code computed} does not hold already (a state-free part evaluated before the waits
     * keeps its register; fusing it would compute it twice). The left operand is tried first.
     */
    public static Optional<AddMax> addMax(IrExpr.Binary max, GpuTarget target, Predicate<IrExpr> computed) {
        if (!target.dpx() || max.operator() != BinaryOperator.MAX || max.type() != Type.INT) {
            return Optional.empty();
        }
        return sum(max.left(), max.right(), computed).or(() -> sum(max.right(), max.left(), computed));
    }

    private static Optional<AddMax> sum(IrExpr candidate, IrExpr floor, Predicate<IrExpr> computed) {
        if (candidate instanceof IrExpr.Binary sum && sum.type() == Type.INT && !computed.test(sum)
                && (sum.operator() == BinaryOperator.ADD || sum.operator() == BinaryOperator.SUB)) {
            boolean negate = sum.operator() == BinaryOperator.SUB;
            return Optional.of(withoutZero(floor, computed)
                    .map(rest -> new AddMax(sum.left(), sum.right(), negate, rest, true))
                    .orElseGet(() -> new AddMax(sum.left(), sum.right(), negate, floor)));
        }
        return Optional.empty();
    }

    /**
     * {@code floor} without a zero term, where it is an int max (not computed already) with an int zero among the terms
     * that nested maxes reach: the max of the other terms; else empty.
     */
    private static Optional<IrExpr> withoutZero(IrExpr floor, Predicate<IrExpr> computed) {
        if (!(floor instanceof IrExpr.Binary max) || max.operator() != BinaryOperator.MAX || max.type() != Type.INT
                || computed.test(max)) {
            return Optional.empty();
        }
        if (isZero(max.left())) {
            return Optional.of(max.right());
        }
        if (isZero(max.right())) {
            return Optional.of(max.left());
        }
        return withoutZero(max.left(), computed).<IrExpr>map(left -> new IrExpr.Binary(BinaryOperator.MAX, left, max.right(), Type.INT))
                .or(() -> withoutZero(max.right(), computed).map(right -> new IrExpr.Binary(BinaryOperator.MAX, max.left(), right, Type.INT)));
    }

    private static boolean isZero(IrExpr expr) {
        return expr instanceof IrExpr.Const c && c.type() == Type.INT && c.integral() == 0;
    }
}
