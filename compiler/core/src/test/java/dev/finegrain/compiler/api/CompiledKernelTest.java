package dev.finegrain.compiler.api;

import dev.finegrain.compiler.pass.GoldenKernels;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import static dev.finegrain.dsl.Finegrain.DOUBLE;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dataParallel;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static dev.finegrain.dsl.Finegrain.wavefront;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Running kernels from Java: compiled at run time, or loaded from the classes the Maven plugin writes. */
class CompiledKernelTest {

    private static final Kernel NW = GoldenKernels.needlemanWunsch();

    private static Invocation nw(int rows, int cols, long seed) {
        Random random = new Random(seed);
        int[] reference = random.ints(rows * cols, -10, 11).toArray();
        return NW.invocation().sizes(rows, cols).param("penalty", 10).input("reference", reference).build();
    }

    @Test
    void aKernelCompiledAtRunTimeComputesWhatTheOracleComputes() {
        Invocation invocation = nw(48, 40, 3);
        KernelResult oracle = KernelResult.oracle(invocation);
        for (Schedule schedule : List.of(wavefront(), lockDataflow(), lockDataflow().mechanism(LockMechanism.TINY_LOCK),
                dataParallel(8))) {
            CompiledKernel compiled = CompiledKernel.compile(NW, schedule);
            KernelResult result = compiled.run(invocation, 2);
            assertEquals(Optional.empty(), result.firstDifference(oracle), schedule.cliName());
            assertArrayEquals(oracle.ints("score"), result.ints("score"));
        }
    }

    /**
     * Sizes a tiled schedule's tiles do not divide run with the edge tiles cut short: compiled at run time (a second
     * class, compiled at the first such size), and compiled ahead of time (the plugin writes the second class beside the
     * first); without that second class, such a size is refused in one line naming the extent.
     */
    @Test
    void sizesTheTilesDoNotDivideRunWithTheEdgeTilesCutShort(@TempDir Path dir) throws Exception {
        CompiledKernel compiled = CompiledKernel.compile(NW, dataParallel(16));
        List<Invocation> invocations = List.of(nw(48, 40, 3), nw(32, 32, 4), nw(7, 70, 5));
        for (Invocation invocation : invocations) {
            assertEquals(Optional.empty(), compiled.run(invocation, 2).firstDifference(KernelResult.oracle(invocation)),
                    invocation.sizes()[0] + "x" + invocation.sizes()[1]);
        }
        KernelCompiler.compile(new CompileRequest(List.of(NW), List.of(dataParallel(16)), List.of(), "com.example.finegrain",
                dir.resolve("classes"), dir.resolve("sources")));
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.resolve("classes").toUri().toURL()}, getClass().getClassLoader())) {
            CompiledKernel aot = CompiledKernel.load(NW, dataParallel(16), "com.example.finegrain", loader);
            for (Invocation invocation : invocations) {
                assertEquals(Optional.empty(), aot.run(invocation, 2).firstDifference(KernelResult.oracle(invocation)));
            }
        }
        try (var classes = Files.list(dir.resolve("classes/com/example/finegrain"))) {
            for (Path ragged : classes.filter(file -> file.getFileName().toString().endsWith("RaggedTiles.class")).toList()) {
                Files.delete(ragged);
            }
        }
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.resolve("classes").toUri().toURL()}, getClass().getClassLoader())) {
            CompiledKernel wholeOnly = CompiledKernel.load(NW, dataParallel(16), "com.example.finegrain", loader);
            dev.finegrain.dsl.KernelDefinitionException refused = org.junit.jupiter.api.Assertions.assertThrows(
                    dev.finegrain.dsl.KernelDefinitionException.class, () -> wholeOnly.run(nw(48, 40, 3), 2));
            assertTrue(refused.getMessage().startsWith("kernel 'nw': dataParallel tile extent 16 does not divide cols = 40"),
                    refused.getMessage());
        }
    }

    @Test
    void lockDataflowUsesTheSchedulesThenTheKernelsMechanismThenAcquireRelease() {
        assertEquals(Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG), CompiledKernel.compile(NW, lockDataflow()).mechanism());
        Kernel withOwn = NW.toBuilder().mechanism(LockMechanism.BLOCKING).build();
        assertEquals(Optional.of(LockMechanism.BLOCKING), CompiledKernel.compile(withOwn, lockDataflow()).mechanism());
        assertEquals(Optional.of(LockMechanism.TINY_LOCK),
                CompiledKernel.compile(withOwn, lockDataflow().mechanism(LockMechanism.TINY_LOCK)).mechanism());
        assertEquals(Optional.empty(), CompiledKernel.compile(NW, wavefront()).mechanism());
    }

    @Test
    void aClassCompiledAheadOfTimeIsLoadedByKernelAndSchedule(@TempDir Path dir) throws Exception {
        KernelCompiler.compile(new CompileRequest(List.of(NW), List.of(lockDataflow(), wavefront()), List.of(), "com.example.finegrain",
                dir.resolve("classes"), dir.resolve("sources")));
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.resolve("classes").toUri().toURL()}, getClass().getClassLoader())) {
            CompiledKernel aot = CompiledKernel.load(NW, lockDataflow().mechanism(LockMechanism.ATOMIC_SPIN_LOCK),
                    "com.example.finegrain", loader);
            assertEquals("com.example.finegrain.NwLockDataflowAtomicSpinLockPerThreadShared", aot.className());
            Invocation invocation = nw(33, 70, 9);
            assertEquals(Optional.empty(), aot.run(invocation, 2).firstDifference(KernelResult.oracle(invocation)));
            assertEquals(Optional.empty(), CompiledKernel.load(NW, wavefront(), "com.example.finegrain", loader).run(invocation)
                    .firstDifference(KernelResult.oracle(invocation)));
        }
    }

    @Test
    void aClassCompiledFromAnotherDefinitionOfTheKernelIsRefused(@TempDir Path dir) throws Exception {
        Kernel before = kernel("decay").domain(dim("i", "n")).state("x", DOUBLE, boundary(constant(1)))
                .actor("step", "x", c -> c.read("x", -1).times(0.5)).build();
        Kernel after = kernel("decay").domain(dim("i", "n")).state("x", DOUBLE, boundary(constant(1)))
                .actor("step", "x", c -> c.read("x", -1).times(0.25)).build();
        KernelCompiler.compile(new CompileRequest(List.of(before), List.of(wavefront()), List.of(), "com.example.finegrain",
                dir.resolve("classes"), dir.resolve("sources")));
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.resolve("classes").toUri().toURL()}, getClass().getClassLoader())) {
            CompiledKernel.load(before, wavefront(), "com.example.finegrain", loader);
            IllegalStateException stale = assertThrows(IllegalStateException.class,
                    () -> CompiledKernel.load(after, wavefront(), "com.example.finegrain", loader));
            assertTrue(stale.getMessage().startsWith("class com.example.finegrain.DecayWavefront was generated from another "
                    + "definition of kernel 'decay'"), stale.getMessage());
            IllegalStateException missing = assertThrows(IllegalStateException.class,
                    () -> CompiledKernel.load(before, lockDataflow(), "com.example.finegrain", loader));
            assertTrue(missing.getMessage().startsWith("no class com.example.finegrain.DecayLockDataflowAcquireReleasePerThreadShared"
                    + " for kernel 'decay' under lock-dataflow with acquire-release: compile it with the finegrain-maven-plugin"),
                    missing.getMessage());
        }
    }

    @Test
    void aClassWithLanesLoadedWhereTheVectorApiIsMissingSaysWhichFlagToAdd(@TempDir Path dir) throws Exception {
        Schedule blocking = lockDataflow().mechanism(LockMechanism.BLOCKING);
        KernelCompiler.Output output = KernelCompiler.compile(new CompileRequest(List.of(NW), List.of(blocking), List.of(),
                "com.example.finegrain", dir.resolve("classes"), dir.resolve("sources")));
        KernelCompiler.Generated generated = output.classes().getFirst();
        assertTrue(java.nio.file.Files.readString(generated.sourceFile()).contains("IntVector"),
                "the class should compute in lanes, as this JVM has the Vector API");
        // a JVM started without --add-modules jdk.incubator.vector: the module's classes cannot be found
        ClassLoader withoutVectorApi = new ClassLoader(getClass().getClassLoader()) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                if (name.startsWith("jdk.incubator.vector.")) {
                    throw new ClassNotFoundException(name);
                }
                return super.loadClass(name, resolve);
            }
        };
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.resolve("classes").toUri().toURL()}, withoutVectorApi)) {
            IllegalStateException unlinkable = assertThrows(IllegalStateException.class,
                    () -> CompiledKernel.load(NW, blocking, "com.example.finegrain", loader));
            assertEquals("class " + generated.className() + " computes in SIMD "
                    + "lanes with the Vector API, which this JVM was started without: add --add-modules "
                    + "jdk.incubator.vector to the java command (and to surefire's argLine in tests), or compile the "
                    + "kernel without lanes on a JVM without it", unlinkable.getMessage());
        }
    }

    @Test
    void aWarpMechanismsClassIsNamedWarpSharedAsItsRowsAre() {
        CompiledKernel warp = CompiledKernel.compile(NW, lockDataflow().mechanism(LockMechanism.SHARED_SPIN_LOCK));
        assertTrue(warp.className().endsWith(".NwLockDataflowSharedSpinLockWarpSharedShared"), warp.className());
        CompiledKernel perThread = CompiledKernel.compile(NW, lockDataflow().mechanism(LockMechanism.ATOMIC_SPIN_LOCK));
        assertTrue(perThread.className().endsWith(".NwLockDataflowAtomicSpinLockPerThreadShared"), perThread.className());
    }

    @Test
    void askingForAFieldByTheWrongNameOrTypeSaysWhatToAskFor() {
        KernelResult result = CompiledKernel.compile(NW, wavefront()).run(nw(8, 8, 1));
        assertEquals("state field 'score' of kernel 'nw' is int, not double; ask for it with ints(\"score\")",
                assertThrows(IllegalArgumentException.class, () -> result.doubles("score")).getMessage());
        assertEquals("kernel 'nw' has no state field 'reference' (state fields: score)",
                assertThrows(IllegalArgumentException.class, () -> result.ints("reference")).getMessage());
    }

    @Test
    void aMechanismTheJvmCannotUseIsRefusedWithItsReason() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> CompiledKernel.compile(NW, lockDataflow().mechanism(LockMechanism.NAMED_BARRIER)));
        assertEquals("the jvm backend cannot use mechanism 'named-barrier' for kernel 'nw': named-barrier is a GPU warp "
                + "mechanism with no JVM analogue", refused.getMessage());
    }
}
