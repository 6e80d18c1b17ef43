package dev.finegrain.compiler.api;

import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Keep;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.Reduction;
import org.junit.jupiter.api.Test;

import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.LONG;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A result gives a field's kept box alone and the kernel's reductions, the same from the oracle and a compiled run. */
class KeepAndReduceResultTest {

    /** s(i, j) = s(i-1, j) + w(i, j), the column sums so far; the last row is the sums of the columns. */
    private static Kernel columnSums() {
        return kernel("column-sums").domain(dim("i", "rows"), dim("j", "cols")).input("w", INT)
                .state("s", LONG, boundary(constant(0L)))
                .actor("add", "s", c -> c.read("s", -1, 0).plus(c.read("w", 0, 0).castTo(LONG)))
                .keep("s", Keep.LAST_ROW)
                .reduceWithPosition("s", Reduction.MAX)
                .reduce("s", Reduction.SUM)
                .build();
    }

    @Test
    void theOracleAndACompiledRunGiveTheKeptRowAndTheReductions() {
        Kernel kernel = columnSums();
        int[] w = {1, 2, 3,
                   4, -9, 6,
                   7, 8, -20};
        Invocation invocation = kernel.invocation().sizes(3, 3).input("w", w).build();
        for (KernelResult result : new KernelResult[] {KernelResult.oracle(invocation),
                CompiledKernel.compile(kernel, lockDataflow()).run(invocation, 2)}) {
            assertArrayEquals(new long[] {12, 1, -11}, result.longs("s"));
            assertEquals(12, result.reduction("s", Reduction.MAX));
            assertArrayEquals(new int[] {2, 0}, result.position("s", Reduction.MAX));
            // every partial column sum: 1+2+3 + 5-7+9 + 12+1-11
            assertEquals(15, result.reduction("s", Reduction.SUM));
        }
        assertEquals(java.util.Optional.empty(), CompiledKernel.compile(kernel, lockDataflow()).run(invocation, 2)
                .firstDifference(KernelResult.oracle(invocation)));
    }

    @Test
    void theIrSaysHowTheOracleFoldsAFieldItDoesNotKeepWhole() {
        String ir = dev.finegrain.compiler.ir.IrPrinter.print(dev.finegrain.compiler.pass.Pipeline.compile(columnSums()));
        assertTrue(ir.contains("  keep s: last-row; storage folded in the oracle to 2 rows along i, and by the jvm's spsc-ring where its class says so; whole in the other compiled backends\n"), ir);
        assertTrue(ir.contains("  reduce max(s) with its position\n  reduce sum(s)\n"), ir);
    }

    @Test
    void askingForAReductionTheKernelDoesNotDeclareSaysWhatItDeclares() {
        Kernel kernel = columnSums();
        Invocation invocation = kernel.invocation().sizes(2, 2).input("w", new int[4]).build();
        KernelResult result = KernelResult.oracle(invocation);
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> result.reduction("s", Reduction.MIN));
        assertEquals("kernel 'column-sums' declares no reduction min(s) (reductions: max(s), sum(s)); declare it with "
                + "reduce(\"s\", MIN)", none.getMessage());
        IllegalArgumentException position = assertThrows(IllegalArgumentException.class, () -> result.position("s", Reduction.SUM));
        assertTrue(position.getMessage().contains("without its position"), position.getMessage());
    }
}
