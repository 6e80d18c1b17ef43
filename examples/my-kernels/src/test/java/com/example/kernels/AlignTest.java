package com.example.kernels;

import dev.finegrain.compiler.api.CompiledKernel;
import dev.finegrain.compiler.api.KernelResult;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LockMechanism;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static dev.finegrain.dsl.Finegrain.dataParallel;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static dev.finegrain.dsl.Finegrain.wavefront;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The classes the plugin compiled, used from this project's own code, compute what the sequential oracle computes. */
class AlignTest {

    private final Kernel kernel = EditDistance.definition();

    @Test
    void everyCompiledScheduleOfTheEditDistanceMatchesTheOracle() {
        Invocation invocation = EditDistance.inputs(kernel, new int[] {96, 80}, 7);
        KernelResult oracle = KernelResult.oracle(invocation);
        for (var schedule : java.util.List.of(wavefront(), lockDataflow(), lockDataflow().mechanism(LockMechanism.TINY_LOCK),
                dataParallel(16))) {
            CompiledKernel compiled = CompiledKernel.load(kernel, schedule, "com.example.finegrain");
            assertTrue(compiled.className().startsWith("com.example.finegrain.EditTraceback"), compiled.className());
            assertEquals(Optional.empty(), compiled.run(invocation, 2).firstDifference(oracle), schedule.cliName());
        }
    }

    @Test
    void theTracebackLeadsFromTheCornerToTheStart() {
        String alignment = Align.align(EditDistance.inputs(kernel, new int[] {12, 12}, 1));
        assertTrue(alignment.matches("distance \\d+ on com\\.example\\.finegrain\\.EditTracebackLockDataflowAcquireReleasePerThreadShared,"
                + " moves from the corner: [DNW]+"), alignment);
    }
}
