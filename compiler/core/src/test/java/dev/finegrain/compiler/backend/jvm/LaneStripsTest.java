package dev.finegrain.compiler.backend.jvm;

import dev.finegrain.compiler.backend.BackendRun;
import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.jvm.CompiledJvmKernel;
import dev.finegrain.compiler.backend.jvm.JvmBackend;
import dev.finegrain.compiler.backend.jvm.JvmCodegen;
import dev.finegrain.compiler.backend.jvm.code.AsmEmitter;
import dev.finegrain.compiler.backend.jvm.code.JClass;
import dev.finegrain.compiler.backend.jvm.code.JavaSourceEmitter;
import dev.finegrain.compiler.backend.jvm.generated.GeneratedKernels;
import dev.finegrain.compiler.backend.jvm.lanes.StripMapping;
import dev.finegrain.compiler.backend.jvm.layout.VectorWidth;
import dev.finegrain.compiler.backend.reference.SequentialOracle;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.GoldenKernels;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.util.CheckClassAdapter;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Optional;

import static dev.finegrain.dsl.Finegrain.DOUBLE;
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
import static dev.finegrain.dsl.Finegrain.select;
import static dev.finegrain.dsl.Finegrain.wavefront;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Strips of lanes against the oracle: every width (2 to 16 lanes), sizes around the strip's edges (fewer rows than
 * lanes, a prologue wider than the domain, one block, a ragged last block), every schedule that uses them, and the
 * kernels that stress a mapping (reads one row up at several distances, two actors at one point, long and double
 * lanes, a skew of 2, indices in the body).
 */
class LaneStripsTest {

    private static final int[] WIDTHS = {128, 256, 512};
    private static final List<int[]> SIZES = List.of(new int[] {3, 5}, new int[] {16, 31}, new int[] {17, 40}, new int[] {37, 53},
            new int[] {64, 90});

    /** Smith-Waterman's shape in longs, with the row index in its body. */
    static Kernel longsWithIndices() {
        return kernel("sw-long").domain(dim("i", "rows"), dim("j", "cols")).param("gap", LONG).input("similarity", LONG)
                .state("h", LONG, boundary(constant(0L)))
                .actor("cell", "h", a -> max(constant(0L), a.read("h", -1, -1).plus(a.read("similarity", 0, 0)),
                        a.read("h", -1, 0).minus(a.param("gap")), a.read("h", 0, -1).minus(a.param("gap"))))
                .build();
    }

    /** Reads one row up at three distances and two columns west; the row and column indices select the branch. */
    static Kernel reachesAndIndices() {
        return kernel("reaches").domain(dim("i", "rows"), dim("j", "cols")).input("w", INT, 1)
                .state("f", INT, boundary(index("i").minus(index("j"))))
                .actor("cell", "f", a -> select(index("i").lessThan(index("j")),
                        a.read("f", -1, -2).plus(a.read("w", 1, 1)).minus(a.read("f", 0, -2)),
                        a.read("f", -1, 0).times(3).plus(a.read("f", -1, 1)).minus(a.read("f", 0, -1)).plus(a.read("w", -1, 0))))
                .build();
    }

    /** Two actors at a point: the second reads the first's value at the same point and one row up. */
    static Kernel twoActorsInLanes() {
        return kernel("pair").domain(dim("i", "rows"), dim("j", "cols")).input("x", DOUBLE)
                .state("a", DOUBLE, boundary(constant(0.5)))
                .state("b", DOUBLE, boundary(constant(-1.0)))
                .actor("second", "b", c -> c.read("a", 0, 0).times(0.5).plus(c.read("b", -1, 0)).minus(c.read("a", -1, -1)))
                .actor("first", "a", c -> c.read("a", 0, -1).times(0.25).plus(c.read("x", 0, 0)).plus(c.read("b", -1, 1).times(0.125)))
                .build();
    }

    /** Every dependence points at least one column west, so the hyperplane is (0,1) and lanes are not skewed at all. */
    static Kernel unskewed() {
        return kernel("unskewed").domain(dim("i", "rows"), dim("j", "cols")).input("w", INT)
                .state("f", INT, boundary(index("j")))
                .actor("cell", "f", a -> a.read("f", -1, -1).times(2).minus(a.read("f", 0, -1)).plus(a.read("f", -1, -3)).plus(a.read("w", 0, 0)))
                .build();
    }

    static List<Kernel> kernels() {
        return List.of(GoldenKernels.needlemanWunsch(), JavaSourceGoldenTest.gaussSeidel(), longsWithIndices(), reachesAndIndices(),
                twoActorsInLanes(), unskewed());
    }

    @Test
    void everyKernelHereMapsToStrips() {
        for (Kernel kernel : kernels()) {
            StripMapping.Decision decision = StripMapping.of(Pipeline.compile(kernel));
            assertTrue(decision.mapping().isPresent(), kernel.name() + ": " + decision.reason());
        }
        assertEquals(2, StripMapping.of(Pipeline.compile(reachesAndIndices())).mapping().orElseThrow().skew(), "f[i-1, j+1] asks skew 2");
        assertEquals(0, StripMapping.of(Pipeline.compile(unskewed())).mapping().orElseThrow().skew(), "every read is a column west");
    }

    @Test
    void theGeneratedClassSaysWhetherItHasLanesAndWhyNot() {
        Kernel nw = GoldenKernels.needlemanWunsch();
        VectorWidth avx512 = VectorWidth.of(512);
        assertEquals("Lanes: strips of 16 rows, one int lane per row (IntVector.SPECIES_512, fixed at generation: a width of 512 bits "
                + "chosen by the caller), each row 0 column(s) behind the one above, from the hyperplane (0,1).",
                lanes(unskewed(), dataParallel(64, 64), Optional.empty(), avx512));
        assertTrue(lanes(nw, dataParallel(64, 64), Optional.empty(), avx512).contains("Row scan: a tile's row is 4 vectors of 16 cells"));
        assertTrue(lanes(nw, dataParallel(64, 80), Optional.empty(), avx512).contains("Row scan: a tile's row runs in vectors of 16 cells"));
        assertTrue(lanes(nw, dataParallel(8, 24), Optional.empty(), avx512).contains("Row scan: a tile's row runs in vectors of 16 cells"));
        assertEquals("Lanes: none; lanes across tiles need tiles as wide as the 16 lanes, one row a vector, and these are 8 wide; tiles of "
                + "8 x 8 hold neither a block of a strip (16 rows by 31 columns) nor whole strips of 16 rows by 16 columns; tiles 16 "
                        + "columns wide run a row scan (data-parallel:8x16).",
                lanes(nw, dataParallel(8, 8), Optional.empty(), avx512));
        // skewed strips only in tiles more than 8 vectors wide; narrower ones run scalar loops
        Kernel sums = kernel("sums").domain(dim("i", "rows"), dim("j", "cols")).input("w", INT).state("f", INT, boundary(constant(1)))
                .actor("cell", "f", a -> a.read("w", 0, 0).plus(a.read("f", -1, 0)).plus(a.read("f", 0, -1))).build();
        assertTrue(lanes(sums, dataParallel(64, 128), Optional.empty(), avx512).startsWith("Lanes: none; skewed strips lose to scalar"
                + " loops in tiles at most 8 vectors wide (128 columns), and these are 128; lanes across tiles need"));
        assertTrue(lanes(sums, dataParallel(64, 144), Optional.empty(), avx512).startsWith("Lanes: strips of 16 rows"));

        assertTrue(lanes(unskewed(), lockDataflow(), Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG), avx512).startsWith("Lanes: strips of 16 rows"));
        assertTrue(lanes(nw, lockDataflow(), Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG), avx512).contains("Row scan: a band's row"));
        assertEquals("Lanes: none; tiny-lock keeps a ready bit in every data word, which whole-vector stores would not set.",
                lanes(nw, lockDataflow(), Optional.of(LockMechanism.TINY_LOCK), avx512));
        assertEquals("Lanes: none; channel f[i-1, j+1] takes tokens from the band to the east, and a strip waits for a whole strip of them.",
                lanes(reachesAndIndices(), lockDataflow(), Optional.of(LockMechanism.BLOCKING), avx512));
        assertEquals("Lanes: none; this JVM runs without --add-modules jdk.incubator.vector.",
                lanes(nw, dataParallel(64, 64), Optional.empty(), VectorWidth.none("this JVM runs without --add-modules jdk.incubator.vector")));
        Kernel dividing = kernel("dividing").domain(dim("i", "rows"), dim("j", "cols")).state("f", INT, boundary(constant(1)))
                .actor("cell", "f", a -> a.read("f", -1, 0).plus(a.read("f", 0, -1)).dividedBy(constant(3))).build();
        assertEquals("Lanes: none; actor 'cell': integer division may throw per cell, so it keeps scalar loops.",
                lanes(dividing, dataParallel(64, 64), Optional.empty(), avx512));
        Kernel wide = kernel("wide").domain(dim("i", "rows"), dim("j", "cols")).input("w", INT, 2).state("f", INT, boundary(constant(1)))
                .actor("cell", "f", a -> a.read("f", -1, 0).plus(a.read("f", 0, -1)).plus(a.read("w", 0, 0)).plus(a.read("w", 1, 0))
                        .plus(a.read("w", 0, 1)).plus(a.read("w", 2, 0)).plus(a.read("w", 0, 2)).plus(a.read("w", -1, 0))).build();
        // the wavefront along hyperplanes loads each read once per vector, so even this many reads keep its method small
        assertTrue(lanes(wide, wavefront(), Optional.empty(), avx512).startsWith("Lanes: 16 int lanes"));
        assertTrue(lanes(wide, lockDataflow(), Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG), avx512).matches(
                "Lanes: none; with lanes the method stripBlocks holds \\d+ bytes of bytecode, more than the 8000 HotSpot compiles\\."));
    }

    static String lanes(Kernel kernel, Schedule schedule, Optional<LockMechanism> mechanism, VectorWidth width) {
        JClass generated = JvmCodegen.generate(SchedulePlanner.plan(Pipeline.compile(kernel), schedule), mechanism, "p", width);
        return generated.javadoc().lines().filter(line -> line.startsWith("Lanes: ")).findFirst().orElseThrow();
    }

    @Test
    void stripsInOneTileMatchTheOracle() {
        for (Kernel kernel : kernels().stream().filter(k -> Pipeline.compile(k).tiling().legal()).toList()) {
            for (int[] sizes : SIZES) {
                for (int bits : WIDTHS) {
                    check(kernel, sizes, dataParallel(sizes), Optional.empty(), bits, 1);
                }
            }
        }
    }

    @Test
    void stripsInColumnBandsMatchTheOracleWithEveryMechanism() {
        for (Kernel kernel : kernels()) {
            KernelGraph graph = Pipeline.compile(kernel);
            List<LockMechanism> mechanisms = new JvmBackend().mechanisms(SchedulePlanner.plan(graph, lockDataflow()));
            for (int[] sizes : SIZES) {
                for (int threads = 1; threads <= 3; threads++) {
                    for (LockMechanism mechanism : mechanisms) {
                        check(kernel, sizes, lockDataflow(), Optional.of(mechanism), 128, threads);
                    }
                    check(kernel.toBuilder().warpShared(4).build(), sizes, lockDataflow(), Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG),
                            256, threads);
                }
            }
        }
    }

    @Test
    void theWavefrontAlongHyperplanesMatchesTheOracle() {
        for (Kernel kernel : kernels()) {
            for (int[] sizes : SIZES) {
                for (int threads = 1; threads <= 3; threads++) {
                    check(kernel, sizes, wavefront(), Optional.empty(), threads == 2 ? 512 : 128, threads);
                }
            }
            // hyperplanes of up to 40 points in vectors of 4 lanes: chunks of several vectors per worker, ragged last
            // vectors, and workers with nothing to do on the short hyperplanes at the corners
            check(kernel, new int[] {258, 40}, wavefront(), Optional.empty(), 128, 2);
            check(kernel, new int[] {258, 40}, wavefront(), Optional.empty(), 128, 3);
        }
        // every read two columns west: hyperplanes are columns, two to a step, the second past the last column on odd widths
        Kernel twoColumnsWest = kernel("two-west").domain(dim("i", "rows"), dim("j", "cols")).input("w", INT)
                .state("f", INT, boundary(index("i")))
                .actor("cell", "f", a -> a.read("f", 0, -2).times(3).plus(a.read("f", -1, -2)).minus(a.read("w", 0, 0))).build();
        for (int threads = 1; threads <= 3; threads++) {
            check(twoColumnsWest, new int[] {37, 9}, wavefront(), Optional.empty(), 512, threads);
        }
        assertTrue(lanes(twoColumnsWest, wavefront(), Optional.empty(), VectorWidth.of(512)).startsWith("Lanes: 16 int lanes"));
        String twoWide = JavaSourceEmitter.emit(JvmCodegen.generate(SchedulePlanner.plan(Pipeline.compile(twoColumnsWest), wavefront()),
                Optional.empty(), "p", VectorWidth.of(512))).toString();
        assertTrue(twoWide.contains("FINEGRAIN_ROW_SKEW = 0;") && twoWide.contains("steps are 2 wide"), "unskewed, two columns a step:\n" + twoWide);
        // two rows up: past what a strip's lane shift brings, so lock-dataflow keeps its scalar loops, but the wavefront
        // loads every read from its hyperplane and takes lanes
        Kernel twoRowsUp = kernel("two-up").domain(dim("i", "rows"), dim("j", "cols")).input("w", DOUBLE)
                .state("f", DOUBLE, boundary(constant(0.25)))
                .actor("cell", "f", a -> a.read("f", -2, 1).times(0.5).plus(a.read("f", 0, -1).times(0.25)).plus(a.read("w", 0, 0))).build();
        for (int threads = 1; threads <= 3; threads++) {
            check(twoRowsUp, new int[] {29, 23}, wavefront(), Optional.empty(), 512, threads);
        }
        assertTrue(lanes(twoRowsUp, wavefront(), Optional.empty(), VectorWidth.of(512)).startsWith("Lanes: 8 double lanes"));
        assertTrue(lanes(twoRowsUp, lockDataflow(), Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG), VectorWidth.of(512)).contains("2 rows up"));
        // no dependences at all: one step holds every hyperplane
        Kernel independent = kernel("independent").domain(dim("i", "rows"), dim("j", "cols")).input("w", INT)
                .state("f", INT, boundary(constant(0)))
                .actor("cell", "f", a -> a.read("w", 0, 0).times(3).plus(index("i").minus(index("j")))).build();
        for (int threads = 1; threads <= 3; threads++) {
            check(independent, new int[] {19, 33}, wavefront(), Optional.empty(), 512, threads);
        }
        assertTrue(lanes(independent, wavefront(), Optional.empty(), VectorWidth.of(512)).startsWith("Lanes: 16 int lanes"));
        assertTrue(lanes(GoldenKernels.needlemanWunsch(), wavefront(), Optional.empty(), VectorWidth.of(512)).startsWith("Lanes: 16 int lanes"));
    }

    @Test
    void stripsInSeveralTilesMatchTheOracle() {
        for (Kernel kernel : kernels().stream().filter(k -> Pipeline.compile(k).tiling().legal()).toList()) {
            check(kernel, new int[] {48, 80}, dataParallel(16, 40), Optional.empty(), 128, 2);
            check(kernel, new int[] {48, 80}, dataParallel(24, 80), Optional.empty(), 256, 3);
        }
    }

    @Test
    void tilesOneStripWideMatchTheOracle() {
        for (Kernel kernel : kernels().stream().filter(k -> Pipeline.compile(k).tiling().legal()).toList()) {
            for (int bits : WIDTHS) {
                int k = bits / (kernel.fields().stream().anyMatch(f -> f.type() == dev.finegrain.dsl.Type.INT) ? 32 : 64);
                // lanes only if k is the lane count the compiler picks (else scalar loops run and match the oracle too):
                // a skewed kernel's tile runs in lanes across tiles or as one strip of tile lanes, an unskewed one's holds whole strips
                for (Schedule tile : List.of(dataParallel(k, k), dataParallel(2 * k, k))) {
                    String summary = lanes(kernel, tile, Optional.empty(), VectorWidth.of(bits));
                    assertTrue(summary.contains("A tile is " + k + " columns wide") || summary.contains("Lanes across tiles")
                                    || summary.contains("Row scan") || summary.startsWith("Lanes: strips of " + k + " rows"),
                            kernel.name() + " " + tile.cliName() + " at " + bits + " bits runs in tile lanes: " + summary);
                }
                for (int threads = 1; threads <= 3; threads++) {
                    check(kernel, new int[] {3 * k, 4 * k}, dataParallel(k, k), Optional.empty(), bits, threads);
                    check(kernel, new int[] {4 * k, 2 * k}, dataParallel(2 * k, k), Optional.empty(), bits, threads);
                }
            }
        }
        assertTrue(lanes(TileGroupLanesTest.westTwo(), dataParallel(16), Optional.empty(), VectorWidth.of(512))
                .endsWith("A tile is 16 columns wide: one strip of its rows is 31 steps, its loads and stores rotated and transposed whole."));
        for (int threads = 1; threads <= 3; threads++) {
            check(TileGroupLanesTest.westTwo(), new int[] {48, 64}, dataParallel(16), Optional.empty(), 512, threads);
            // column blocks one column wide, narrower than the two columns read to the west: a tile's farther halo column
            // comes from the west block's own halo, which that block's tile copied; two columns wide: both from the west block
            check(TileGroupLanesTest.westTwo(), new int[] {12, 8}, dataParallel(4, 1), Optional.empty(), 512, threads);
            check(TileGroupLanesTest.westTwo(), new int[] {12, 8}, dataParallel(4, 2), Optional.empty(), 512, threads);
        }
        for (int width = 1; width <= 2; width++) {
            JClass generated = JvmCodegen.generate(SchedulePlanner.plan(Pipeline.compile(TileGroupLanesTest.westTwo()), dataParallel(4, width)),
                    Optional.empty(), "p", VectorWidth.of(512));
            assertTrue(generated.javadoc().contains("Storage: blocks of " + width + " columns"), "tiles " + width + " wide: " + generated.javadoc());
        }
    }

    @Test
    void stripsInAlignedRowsMatchTheOracle() {
        // small arrays never start on a region here, so the layout is forced both ways under the same class: aligned
        // rows (a pitch of skew modulo k, fronts, blocks from the aligned column) and dense rows (blocks as early as they can)
        for (Kernel kernel : kernels()) {
            KernelGraph graph = Pipeline.compile(kernel);
            ExecutionPlan plan = SchedulePlanner.plan(graph, lockDataflow());
            for (LockMechanism mechanism : new JvmBackend().mechanisms(SchedulePlanner.plan(graph, lockDataflow()))) {
                JClass generated = JvmCodegen.generate(plan, Optional.of(mechanism), GeneratedKernels.PACKAGE, VectorWidth.of(512));
                if (generated.rows().isEmpty()) {
                    continue;
                }
                CompiledJvmKernel compiled;
                try {
                    compiled = CompiledJvmKernel.of(new Variant(graph, plan, Optional.of(mechanism)), GeneratedKernels.define(AsmEmitter.emit(generated)));
                } catch (IllegalAccessException e) {
                    throw new AssertionError(e);
                }
                for (int[] sizes : List.of(new int[] {16, 31}, new int[] {37, 53}, new int[] {64, 90})) {
                    Invocation invocation = inputs(kernel, sizes);
                    KernelOutputs oracle = SequentialOracle.run(graph, invocation);
                    for (boolean aligned : new boolean[] {true, false}) {
                        // one template, two runs: each run's state is a fresh copy
                        CompiledJvmKernel.Runs runs = compiled.runsOf(invocation, bytes -> aligned);
                        for (int threads = 1; threads <= 2; threads++) {
                            CompiledJvmKernel.Prepared run = runs.prepare(threads, RunSettings.DEFAULT_STALL_TIMEOUT_NANOS);
                            run.runOn(JvmBackend.team(threads));
                            assertEquals(Optional.empty(), oracle.firstDifference(graph, sizes, run.outputs()), kernel.name() + " "
                                    + sizes[0] + "x" + sizes[1] + " " + mechanism.cliName() + " " + threads + " thread(s), aligned " + aligned);
                        }
                    }
                }
            }
        }
        assertTrue(JvmCodegen.generate(SchedulePlanner.plan(Pipeline.compile(GoldenKernels.needlemanWunsch()), lockDataflow()),
                Optional.of(LockMechanism.ATOMIC_SPIN_LOCK), "p", VectorWidth.of(512)).rows().isPresent(), "a band's row scan aligns rows");
        assertTrue(JvmCodegen.generate(SchedulePlanner.plan(Pipeline.compile(unskewed()), lockDataflow()),
                Optional.of(LockMechanism.ATOMIC_SPIN_LOCK), "p", VectorWidth.of(512)).rows().isPresent(), "a band's strips align rows");
    }

    static void check(Kernel kernel, int[] sizes, Schedule schedule, Optional<LockMechanism> mechanism, int bits, int threads) {
        check(kernel, inputs(kernel, sizes), sizes, schedule, mechanism, bits, threads);
    }

    /** As above, on the given inputs and params. */
    static void check(Kernel kernel, Invocation invocation, int[] sizes, Schedule schedule, Optional<LockMechanism> mechanism, int bits,
                      int threads) {
        KernelGraph graph = Pipeline.compile(kernel);
        ExecutionPlan plan = SchedulePlanner.plan(graph, schedule);
        JClass generated = JvmCodegen.generate(plan, mechanism, GeneratedKernels.PACKAGE, VectorWidth.of(bits));
        String what = kernel.name() + " " + sizes[0] + "x" + sizes[1] + " " + schedule.cliName() + " " + mechanism.map(LockMechanism::cliName).orElse("")
                + " " + bits + " bits, " + threads + " thread(s)";
        StringWriter problems = new StringWriter();
        byte[] bytecode = AsmEmitter.emit(generated);
        CheckClassAdapter.verify(new ClassReader(bytecode), LaneStripsTest.class.getClassLoader(), false, new PrintWriter(problems));
        assertEquals("", problems.toString(), what);
        Variant variant = new Variant(graph, plan, mechanism);
        BackendRun run;
        try {
            run = new JvmBackend().runWith(GeneratedKernels.define(bytecode), variant, invocation, RunSettings.once(1, threads));
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
        KernelOutputs oracle = SequentialOracle.run(graph, invocation);
        assertEquals(Optional.empty(), oracle.firstDifference(graph, sizes, run.outputs()), what + "\n" + JavaSourceEmitter.emit(generated));
    }

    static Invocation inputs(Kernel kernel, int[] sizes) {
        return JvmBackendTest.inputs(kernel, sizes, sizes[0] * 1000L + sizes[1]);
    }
}
