package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.backend.gpu.cuda.CudaLowering;
import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.dsl.BinaryOperator;
import dev.finegrain.dsl.Type;
import dev.finegrain.gpu.runtime.SimtProfile;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Where the mapping takes an int max of a sum as DPX's add-then-max, and where it leaves the max alone. */
class DpxFormsTest {

    private static final GpuTarget SM90 = CudaLowering.target("sm_90");
    private static final GpuTarget SM80 = CudaLowering.target("sm_80");
    private static final GpuTarget H200 = GpuTarget.of(SimtProfile.load("hopper-h200"));
    private static final GpuTarget FERMI = GpuTarget.of(SimtProfile.load("fermi-gtx570"));

    private static final IrExpr A = new IrExpr.IndexVar(0);
    private static final IrExpr B = new IrExpr.ParamVar(0, Type.INT);
    private static final IrExpr C = new IrExpr.IndexVar(1);

    private static IrExpr.Binary op(BinaryOperator operator, IrExpr left, IrExpr right, Type type) {
        return new IrExpr.Binary(operator, left, right, type);
    }

    @Test
    void anIntMaxOfASumOrDifferenceIsOneAddThenMax() {
        IrExpr.Binary sum = op(BinaryOperator.ADD, A, B, Type.INT);
        assertEquals(Optional.of(new DpxForms.AddMax(A, B, false, C)),
                DpxForms.addMax(op(BinaryOperator.MAX, sum, C, Type.INT), SM90, e -> false));
        assertEquals(Optional.of(new DpxForms.AddMax(A, B, false, C)),
                DpxForms.addMax(op(BinaryOperator.MAX, C, sum, Type.INT), H200, e -> false), "the sum on the right");
        IrExpr.Binary difference = op(BinaryOperator.SUB, A, B, Type.INT);
        assertEquals(Optional.of(new DpxForms.AddMax(A, B, true, C)),
                DpxForms.addMax(op(BinaryOperator.MAX, difference, C, Type.INT), SM90, e -> false));
    }

    @Test
    void aZeroAmongTheOtherTermsBecomesTheClamp() {
        IrExpr zero = new IrExpr.Const(Type.INT, 0, 0);
        IrExpr.Binary sum = op(BinaryOperator.ADD, A, B, Type.INT);
        IrExpr.Binary difference = op(BinaryOperator.SUB, C, B, Type.INT);
        // Smith-Waterman's shape: max(max(max(0, a + b), c - b), a - b)
        IrExpr.Binary inner = op(BinaryOperator.MAX, op(BinaryOperator.MAX, zero, sum, Type.INT), difference, Type.INT);
        IrExpr.Binary cell = op(BinaryOperator.MAX, inner, op(BinaryOperator.SUB, A, B, Type.INT), Type.INT);
        assertEquals(Optional.of(new DpxForms.AddMax(A, B, true, op(BinaryOperator.MAX, sum, difference, Type.INT), true)),
                DpxForms.addMax(cell, SM90, e -> false), "the zero leaves the rest's max and clamps the outer sum");
        assertEquals(Optional.of(new DpxForms.AddMax(A, B, false, C, true)),
                DpxForms.addMax(op(BinaryOperator.MAX, sum, op(BinaryOperator.MAX, C, zero, Type.INT), Type.INT), SM90, e -> false));
        assertEquals(Optional.of(new DpxForms.AddMax(A, B, false, zero)),
                DpxForms.addMax(op(BinaryOperator.MAX, zero, sum, Type.INT), SM90, e -> false), "a zero alone is the plain floor");
        IrExpr.Binary computedMax = op(BinaryOperator.MAX, C, zero, Type.INT);
        assertEquals(Optional.of(new DpxForms.AddMax(A, B, false, computedMax)),
                DpxForms.addMax(op(BinaryOperator.MAX, sum, computedMax, Type.INT), SM90, e -> e == computedMax),
                "a max computed already keeps its register");
    }

    @Test
    void otherMachinesTypesAndShapesKeepThePlainMax() {
        IrExpr.Binary max = op(BinaryOperator.MAX, op(BinaryOperator.ADD, A, B, Type.INT), C, Type.INT);
        assertTrue(DpxForms.addMax(max, SM80, e -> false).isEmpty(), "Ampere has no DPX");
        assertTrue(DpxForms.addMax(max, FERMI, e -> false).isEmpty(), "nor has Fermi");
        assertTrue(DpxForms.addMax(max, SM90, e -> e == max.left()).isEmpty(), "a sum computed before the waits keeps its register");
        assertTrue(DpxForms.addMax(op(BinaryOperator.MIN, max.left(), C, Type.INT), SM90, e -> false).isEmpty(), "a min");
        assertTrue(DpxForms.addMax(op(BinaryOperator.MAX, op(BinaryOperator.MUL, A, B, Type.INT), C, Type.INT), SM90,
                e -> false).isEmpty(), "a product");
        IrExpr longA = new IrExpr.Const(Type.LONG, 3, 0);
        assertTrue(DpxForms.addMax(op(BinaryOperator.MAX, op(BinaryOperator.ADD, longA, longA, Type.LONG), longA, Type.LONG),
                SM90, e -> false).isEmpty(), "longs");
    }
}
