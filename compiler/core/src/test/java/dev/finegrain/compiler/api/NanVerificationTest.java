package dev.finegrain.compiler.api;

import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.resolve.VariantResolver;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.Schedule;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.finegrain.dsl.Finegrain.DOUBLE;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static dev.finegrain.dsl.Finegrain.select;
import static dev.finegrain.dsl.Finegrain.wavefront;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * NaN across HotSpot's tiers: Java leaves a NaN's sign and payload unspecified; x86's {@code 0.0 / 0.0} at run time is
 * the "default NaN" 0xfff8000000000000, while {@code Double.NaN} (and a quotient javac folds) is 0x7ff8000000000000,
 * and which one a tier's code yields is not ours to pin. Verification treats
 * every NaN as equal to every NaN ({@code KernelOutputs.firstDifference}) and still tells +0.0 from -0.0 and NaN
 * from a number; a kernel that computes NaN verifies against the oracle on every run while its code moves from the
 * interpreter to C1 and C2.
 */
class NanVerificationTest {

    private static final double NEGATIVE_QUIET_NAN = Double.longBitsToDouble(0xfff8000000000000L);
    private static final double POSITIVE_QUIET_NAN = Double.longBitsToDouble(0x7ff8000000000000L);
    private static final double SIGNALLING_PAYLOAD_NAN = Double.longBitsToDouble(0x7ff0000000000001L);

    /** A chain of doubles: where the input is not positive the actor computes (x - x) / (x - x), a NaN that then flows on. */
    private static Kernel nanChain() {
        return kernel("nan-chain").domain(dim("i", "n")).input("x", DOUBLE).state("y", DOUBLE, boundary(constant(0.0)))
                .actor("step", "y", a -> select(a.read("x", 0).greaterThan(constant(0.0)),
                        a.read("y", -1).times(0.5).plus(a.read("x", 0)),
                        a.read("x", 0).minus(a.read("x", 0)).dividedBy(a.read("x", 0).minus(a.read("x", 0)))))
                .build();
    }

    private static KernelOutputs outputs(double... y) {
        return new KernelOutputs(Map.of("y", y));
    }

    @Test
    void everyNanEqualsEveryNanWhileSignedZerosAndNumbersStillDiffer() {
        KernelGraph graph = new VariantResolver().graph(nanChain());
        int[] sizes = {3};
        KernelOutputs nans = outputs(NEGATIVE_QUIET_NAN, POSITIVE_QUIET_NAN, SIGNALLING_PAYLOAD_NAN);
        assertTrue(Double.isNaN(SIGNALLING_PAYLOAD_NAN) && Double.doubleToRawLongBits(NEGATIVE_QUIET_NAN) != Double.doubleToRawLongBits(POSITIVE_QUIET_NAN));
        for (KernelOutputs other : List.of(outputs(POSITIVE_QUIET_NAN, SIGNALLING_PAYLOAD_NAN, NEGATIVE_QUIET_NAN),
                outputs(SIGNALLING_PAYLOAD_NAN, NEGATIVE_QUIET_NAN, POSITIVE_QUIET_NAN), outputs(Double.NaN, 0.0 / 0.0, Math.sqrt(-1)))) {
            assertEquals(Optional.empty(), nans.firstDifference(graph, sizes, other));
            assertEquals(Optional.empty(), other.firstDifference(graph, sizes, nans));
        }
        assertEquals(Optional.of("y[1]: expected 0.0, got -0.0"),
                outputs(1.0, 0.0, 2.0).firstDifference(graph, sizes, outputs(1.0, -0.0, 2.0)));
        assertEquals(Optional.of("y[2]: expected NaN, got 2.0"),
                outputs(1.0, 0.0, NEGATIVE_QUIET_NAN).firstDifference(graph, sizes, outputs(1.0, 0.0, 2.0)));
        assertEquals(Optional.of("y[0]: expected 1.0, got NaN"),
                outputs(1.0, 0.0, 2.0).firstDifference(graph, sizes, outputs(SIGNALLING_PAYLOAD_NAN, 0.0, 2.0)));
    }

    /**
     * 20,000 small runs per schedule of the compiled kernel and of the oracle, each compared: the generated code and the
     * oracle's interpreter are compiled by C1 and then C2 along the way (their loops run millions of times), and any
     * tier's NaN must verify against any other's.
     */
    @Test
    void aKernelComputingNanVerifiesOnEveryRunAcrossTheJitsTiers() {
        Kernel kernel = nanChain();
        double[] x = new double[64];
        for (int i = 0; i < x.length; i++) {
            x[i] = i % 5 == 3 ? 0.0 : i % 7 == 1 ? -1.5 : i + 0.25;
        }
        Invocation invocation = kernel.invocation().sizes(x.length).input("x", x).build();
        for (Schedule schedule : List.of(wavefront(), lockDataflow())) {
            CompiledKernel compiled = CompiledKernel.compile(kernel, schedule);
            int nanRuns = 0;
            for (int run = 0; run < 20_000; run++) {
                KernelResult oracle = KernelResult.oracle(invocation);
                KernelResult result = compiled.run(invocation, 1);
                Optional<String> difference = result.firstDifference(oracle);
                if (difference.isPresent()) {
                    throw new AssertionError(schedule.cliName() + " run " + run + " does not verify: " + difference.get());
                }
                double[] y = result.doubles("y");
                if (Double.isNaN(y[3]) && Double.isNaN(y[y.length - 1])) {
                    nanRuns++;
                }
            }
            assertEquals(20_000, nanRuns, schedule.cliName() + ": every run computed its NaNs");
        }
    }
}
