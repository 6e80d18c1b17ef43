package dev.finegrain.compiler.api;

import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.jvm.JvmBackend;
import dev.finegrain.compiler.backend.jvm.JvmCodegen;
import dev.finegrain.compiler.resolve.VariantRequest;
import dev.finegrain.compiler.resolve.VariantResolver;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.KernelDefinitionException;
import dev.finegrain.dsl.Schedule;
import dev.finegrain.dsl.Storage;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static dev.finegrain.dsl.Finegrain.DOUBLE;
import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dataParallel;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.index;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static dev.finegrain.dsl.Finegrain.max;
import static dev.finegrain.dsl.Finegrain.wavefront;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@link CompiledKernel#run} checks of an invocation beyond {@code Invocation.build()}: byte inputs written out of
 * range since (the jvm backend narrows them where it reads them), and an invocation of another definition of the kernel.
 */
class InvocationChecksTest {

    /** Needleman-Wunsch's shape with its scores declared in bytes, which the jvm backend keeps in a byte[]. */
    private static Kernel scores() {
        return kernel("byte-scores").domain(dim("i", "rows"), dim("j", "cols")).input("w", INT, Storage.BYTE)
                .state("f", INT, boundary(index("i").plus(index("j")).times(-3)))
                .actor("cell", "f", a -> max(a.read("f", -1, -1).plus(a.read("w", 0, 0)), a.read("f", -1, 0).minus(constant(3)),
                        a.read("f", 0, -1).minus(constant(3))))
                .build();
    }

    private static int[] inRange(int length) {
        int[] w = new java.util.Random(7).ints(length, -128, 128).toArray();
        w[0] = -128;
        w[length - 1] = 127;
        return w;
    }

    /**
     * Found in review: 1000 written into a byte input after build() wrapped to -24 on the jvm backend, silently. Now the
     * run refuses it with the invocation's own message: the input, the element, the value, and where it was built.
     */
    @Test
    void aByteInputWrittenOutOfRangeAfterBuildIsRefusedWhereTheRunReadsIt() {
        Kernel kernel = scores();
        int[] w = inRange(12 * 20);
        int line = new Throwable().getStackTrace()[0].getLineNumber() + 1;
        Invocation invocation = kernel.invocation().sizes(12, 20).input("w", w).build();
        for (Schedule schedule : List.of(wavefront(), lockDataflow(), dataParallel(4))) {
            CompiledKernel compiled = CompiledKernel.compile(kernel, schedule);
            assertEquals(Optional.empty(), compiled.run(invocation, 2).firstDifference(KernelResult.oracle(invocation)),
                    schedule.cliName() + ": values in range still run and verify");
            w[37] = 1000;
            KernelDefinitionException refused = assertThrows(KernelDefinitionException.class, () -> compiled.run(invocation, 2),
                    schedule.cliName());
            assertEquals("kernel 'byte-scores': input 'w' holds 1000 at element 37 (point [1, 17]), outside the byte it is declared to fit"
                    + " (Storage.BYTE: -128 to 127); pass values that fit, or declare the input without Storage.BYTE"
                    + " (at InvocationChecksTest.java:" + line + ")", refused.getMessage(), schedule.cliName());
            w[37] = -129;
            assertTrue(assertThrows(KernelDefinitionException.class, () -> compiled.run(invocation)).getMessage()
                    .contains("holds -129 at element 37 (point [1, 17])"), schedule.cliName());
            w[37] = 5;
        }
    }

    private static Kernel decay(double factor) {
        return kernel("decay").domain(dim("i", "n")).state("x", DOUBLE, boundary(constant(1)))
                .actor("step", "x", c -> c.read("x", -1).times(factor)).build();
    }

    private static String fingerprint(Kernel kernel, Schedule schedule) {
        Variant variant = new VariantResolver().resolve(VariantRequest.of(kernel, schedule, new JvmBackend())).variant().orElseThrow();
        return JvmCodegen.fingerprint(variant.plan(), variant.mechanism());
    }

    /** Found in review: run() compared only the kernels' names, so another definition's invocation ran this class. */
    @Test
    void anInvocationOfAnotherDefinitionOfTheKernelIsRefusedNamingBothFingerprints() {
        Kernel before = decay(0.5);
        Kernel after = decay(0.25);
        CompiledKernel compiled = CompiledKernel.compile(before, wavefront());
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> compiled.run(after.invocation().sizes(8).build()));
        assertEquals("the invocation was built from another definition of kernel 'decay' (fingerprint "
                + fingerprint(after, wavefront()) + ") than this compiled kernel's (fingerprint " + fingerprint(before, wavefront())
                + "); build the invocation with compiled.kernel().invocation(), or compile the invocation's kernel", refused.getMessage());
        assertEquals(1, refused.getMessage().lines().count());
    }

    @Test
    void theSameDefinitionBuiltAgainRunsAndAnotherKernelIsRefusedSayingWhatToDo() {
        CompiledKernel compiled = CompiledKernel.compile(decay(0.5), lockDataflow());
        Invocation again = decay(0.5).invocation().sizes(8).build();
        assertEquals(Optional.empty(), compiled.run(again).firstDifference(KernelResult.oracle(again)));
        assertEquals(Optional.empty(), compiled.run(again).firstDifference(KernelResult.oracle(again)), "a second run, compared once");
        Kernel other = kernel("growth").domain(dim("i", "n")).state("x", DOUBLE, boundary(constant(1)))
                .actor("step", "x", c -> c.read("x", -1).times(2.0)).build();
        assertEquals("an invocation of kernel 'growth' cannot run kernel 'decay'; build it with this kernel's invocation()"
                        + " (compiled.kernel().invocation())",
                assertThrows(IllegalArgumentException.class, () -> compiled.run(other.invocation().sizes(8).build())).getMessage());
    }

    /** A definition that does not compile under the class's schedule at all has no fingerprint to compare. */
    @Test
    void anotherDefinitionThatDoesNotCompileUnderTheScheduleIsRefusedSayingSo() {
        Kernel straight = kernel("anti").domain(dim("i", "n"), dim("j", "m")).state("a", INT, boundary(constant(0)))
                .actor("add", "a", c -> c.read("a", -1, 0).plus(1)).build();
        Kernel antiDiagonal = kernel("anti").domain(dim("i", "n"), dim("j", "m")).state("a", INT, boundary(constant(0)))
                .actor("add", "a", c -> c.read("a", -1, 1).plus(1)).build();
        CompiledKernel compiled = CompiledKernel.compile(straight, dataParallel(4));
        String message = assertThrows(IllegalArgumentException.class,
                () -> compiled.run(antiDiagonal.invocation().sizes(8, 8).build())).getMessage();
        assertTrue(message.startsWith("the invocation was built from another definition of kernel 'anti' (fingerprint none:"
                + " it does not compile under data-parallel:4) than this compiled kernel's (fingerprint "), message);
    }
}
