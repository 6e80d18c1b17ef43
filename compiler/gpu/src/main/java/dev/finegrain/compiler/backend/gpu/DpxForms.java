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
 */
public final class DpxForms {

    private DpxForms() {}

    /** {@code max(augend + addend, floor)}, with {@code addend} negated for a difference. */
    public record AddMax(IrExpr augend, IrExpr addend, boolean negateAddend, IrExpr floor) {}

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
            return Optional.of(new AddMax(sum.left(), sum.right(), sum.operator() == BinaryOperator.SUB, floor));
        }
        return Optional.empty();
    }
}
