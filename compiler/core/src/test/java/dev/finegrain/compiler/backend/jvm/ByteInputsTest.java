package dev.finegrain.compiler.backend.jvm;

import dev.finegrain.compiler.backend.BackendRun;
import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.jvm.code.JClass;
import dev.finegrain.compiler.backend.jvm.code.JavaSourceEmitter;
import dev.finegrain.compiler.backend.jvm.layout.VectorWidth;
import dev.finegrain.compiler.backend.reference.SequentialOracle;
import dev.finegrain.compiler.ir.IrPrinter;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.KernelDefinitionException;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;
import dev.finegrain.dsl.Storage;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.LONG;
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
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Inputs declared {@link Storage#BYTE}: the jvm backend keeps them in a {@code byte[]} where its lanes are at least 8
 * ints wide (or it has none) and widens each load, scalar or vector (plain, masked, in strips' transposes, in lanes
 * across tiles' copies); every form against the oracle, with the byte range's ends among the values. An invocation
 * whose values do not fit and byte storage of a LONG input are refused, and the declaration changes the fingerprint.
 */
class ByteInputsTest {

    /** Needleman-Wunsch's shape: a row scan in tiles and bands, the hyperplane wavefront's masked loads. */
    private static Kernel scores() {
        return kernel("byte-scores").domain(dim("i", "rows"), dim("j", "cols")).input("w", INT, Storage.BYTE)
                .state("f", INT, boundary(index("i").plus(index("j")).times(-3)))
                .actor("cell", "f", a -> max(a.read("f", -1, -1).plus(a.read("w", 0, 0)), a.read("f", -1, 0).minus(constant(3)),
                        a.read("f", 0, -1).minus(constant(3))))
                .build();
    }

    /** A sum of the north and west neighbours and the input: no row scan, so strips, or lanes across tiles k wide. */
    private static Kernel sums() {
        return kernel("byte-sums").domain(dim("i", "rows"), dim("j", "cols")).input("w", INT, Storage.BYTE)
                .state("f", INT, boundary(constant(1)))
                .actor("cell", "f", a -> a.read("w", 0, 0).plus(a.read("f", -1, 0)).plus(a.read("f", 0, -1)).plus(a.read("f", -1, -1)))
                .build();
    }

    private static Invocation invocation(Kernel kernel, int[] sizes) {
        SplittableRandom random = new SplittableRandom(sizes[0] * 31L + sizes[1]);
        int[] w = random.ints(sizes[0] * sizes[1], -128, 128).toArray();
        w[0] = -128;
        w[w.length - 1] = 127;
        return kernel.invocation().sizes(sizes).input("w", w).build();
    }

    @Test
    void byteInputsMatchTheOracleInEveryForm() {
        for (Kernel kernel : List.of(scores(), sums())) {
            int[] sizes = {48, 288};
            Invocation invocation = invocation(kernel, sizes);
            List<Schedule> schedules = List.of(dataParallel(sizes), dataParallel(16), dataParallel(8, 96), dataParallel(16, 144),
                    dataParallel(8, 8), dataParallel(16, 32), wavefront(), lockDataflow());
            for (Schedule schedule : schedules) {
                Optional<LockMechanism> mechanism = schedule instanceof Schedule.LockDataflow
                        ? Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG) : Optional.empty();
                for (int bits : new int[] {128, 256, 512}) {
                    for (int threads = 1; threads <= 2; threads++) {
                        LaneStripsTest.check(kernel, invocation, sizes, schedule, mechanism, bits, threads);
                    }
                }
            }
            for (LockMechanism mechanism : List.of(LockMechanism.TINY_LOCK, LockMechanism.BLOCKING, LockMechanism.SHARED_SPIN_LOCK)) {
                LaneStripsTest.check(kernel, invocation, sizes, lockDataflow(), Optional.of(mechanism), 512, 2);
            }
        }
    }

    /** The Java source of each form that loads a byte input in lanes, compiled and run against the oracle. */
    @Test
    void theJavaSourceOfEachByteLoadComputesWhatTheOracleDoes() throws Exception {
        int[] sizes = {48, 288};
        for (Kernel kernel : List.of(scores(), sums())) {
            Invocation invocation = invocation(kernel, sizes);
            KernelGraph graph = Pipeline.compile(kernel);
            for (Schedule schedule : List.of(dataParallel(16), dataParallel(8, 96), dataParallel(16, 144), dataParallel(8, 16), wavefront(),
                    lockDataflow())) {
                Optional<LockMechanism> mechanism = schedule instanceof Schedule.LockDataflow
                        ? Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG) : Optional.empty();
                ExecutionPlan plan = SchedulePlanner.plan(graph, schedule);
                JClass generated = JvmCodegen.generate(plan, mechanism, "dev.finegrain.generated.source", VectorWidth.of(512));
                String source = JavaSourceEmitter.emit(generated).toString();
                // every form with lanes loads the input in byte vectors, but lanes across tiles, which copy inputs element by element
                assertTrue(source.contains("private final byte[] w;") && (source.contains("ByteVector.fromArray")
                                || generated.javadoc().contains("inputs copied element by element") || generated.javadoc().contains("Lanes: none")),
                        kernel.name() + " " + schedule.cliName() + ": " + generated.javadoc().lines().filter(l -> l.startsWith("Lanes")).toList());
                Class<?> compiled = SourceCompiler.compile(generated.name(), source);
                BackendRun fromSource = new JvmBackend().runWith(compiled, new Variant(graph, plan, mechanism), invocation, RunSettings.once(1, 2));
                assertEquals(Optional.empty(), SequentialOracle.run(graph, invocation).firstDifference(graph, sizes, fromSource.outputs()),
                        kernel.name() + " " + schedule.cliName());
            }
        }
    }

    /**
     * The forms the tests above take, pinned on the source: the wavefront's masked loads cast their mask to the byte
     * species, 8 int lanes widen from {@code SPECIES_64}, and the Java source of the 8-lane row scan and wavefront
     * compiles and runs too.
     */
    @Test
    void theByteLoadsTakeTheFormsTheTestsClaim() throws Exception {
        KernelGraph graph = Pipeline.compile(scores());
        ExecutionPlan wave = SchedulePlanner.plan(graph, wavefront());
        assertTrue(source(wave, VectorWidth.of(512)).contains(".cast(ByteVector.SPECIES_128)"));
        assertTrue(source(wave, VectorWidth.of(256)).contains(".cast(ByteVector.SPECIES_64)"));
        ExecutionPlan tiles = SchedulePlanner.plan(graph, dataParallel(16));
        assertTrue(source(tiles, VectorWidth.of(256)).contains("ByteVector.fromArray(ByteVector.SPECIES_64, w, "));
        assertTrue(source(SchedulePlanner.plan(Pipeline.compile(sums()), dataParallel(16, 144)), VectorWidth.of(512)).contains("Lanes: strips of 16 rows"));
        int[] sizes = {48, 288};
        Invocation invocation = invocation(scores(), sizes);
        for (ExecutionPlan plan : List.of(wave, tiles)) {
            JClass generated = JvmCodegen.generate(plan, Optional.empty(), "dev.finegrain.generated.source", VectorWidth.of(256));
            Class<?> compiled = SourceCompiler.compile(generated.name(), JavaSourceEmitter.emit(generated).toString());
            BackendRun fromSource = new JvmBackend().runWith(compiled, new Variant(graph, plan, Optional.empty()), invocation, RunSettings.once(1, 2));
            assertEquals(Optional.empty(), SequentialOracle.run(graph, invocation).firstDifference(graph, sizes, fromSource.outputs()));
        }
    }

    @Test
    void theClassKeepsTheInputInBytesWhereItsLanesHoldAtLeastEightInts() {
        var graph = Pipeline.compile(scores());
        var plan = SchedulePlanner.plan(graph, dataParallel(16));
        assertTrue(source(plan, VectorWidth.of(512)).contains("private final byte[] w;"));
        assertTrue(source(plan, VectorWidth.of(256)).contains("private final byte[] w;"));
        assertTrue(source(plan, VectorWidth.none("no lanes")).contains("private final byte[] w;"));
        assertTrue(source(plan, VectorWidth.of(128)).contains("private final int[] w;"), "no byte species of 4 lanes to widen");
        assertTrue(source(plan, VectorWidth.of(512)).contains(
                "((IntVector) ByteVector.fromArray(ByteVector.SPECIES_128, w, "), "a load widens 16 bytes to 16 ints");
    }

    private static String source(ExecutionPlan plan, VectorWidth width) {
        return JavaSourceEmitter.emit(JvmCodegen.generate(plan, Optional.empty(), "p", width)).toString();
    }

    /**
     * The kernel with its input in bytes and the same kernel declared with ints have the same IR but different
     * fingerprints, so a class compiled ahead of time for one is refused for the other ({@code CompiledKernel.load}),
     * and a class that keeps an input in bytes never meets an int that does not fit.
     */
    @Test
    void aByteInputChangesTheFingerprintButNotTheIr() {
        Kernel natural = kernel("byte-scores").domain(dim("i", "rows"), dim("j", "cols")).input("w", INT)
                .state("f", INT, boundary(index("i").plus(index("j")).times(-3)))
                .actor("cell", "f", a -> max(a.read("f", -1, -1).plus(a.read("w", 0, 0)), a.read("f", -1, 0).minus(constant(3)),
                        a.read("f", 0, -1).minus(constant(3))))
                .build();
        KernelGraph bytes = Pipeline.compile(scores());
        KernelGraph ints = Pipeline.compile(natural);
        assertEquals(IrPrinter.print(ints), IrPrinter.print(bytes));
        assertNotEquals(JvmCodegen.fingerprint(SchedulePlanner.plan(ints, dataParallel(16)), Optional.empty()),
                JvmCodegen.fingerprint(SchedulePlanner.plan(bytes, dataParallel(16)), Optional.empty()));
    }

    @Test
    void valuesOutsideAByteAndByteStorageOfALongAreRefusedWithOneLine() {
        int[] w = new int[4 * 4];
        w[5] = 128;
        KernelDefinitionException notByte = assertThrows(KernelDefinitionException.class,
                () -> scores().invocation().sizes(4, 4).input("w", w).build());
        assertTrue(notByte.getMessage().contains("input 'w' holds 128 at element 5 (point [1, 1]), outside the byte it is declared to fit"),
                notByte.getMessage());
        KernelDefinitionException notInt = assertThrows(KernelDefinitionException.class,
                () -> kernel("long-bytes").domain(dim("i", "n")).input("w", LONG, Storage.BYTE));
        assertTrue(notInt.getMessage().contains("input 'w' is long and declared Storage.BYTE"), notInt.getMessage());
        assertEquals(1, notInt.getMessage().lines().filter(line -> line.contains("Storage.BYTE")).count());
    }
}
