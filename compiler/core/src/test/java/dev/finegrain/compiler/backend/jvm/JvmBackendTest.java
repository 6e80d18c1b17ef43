package dev.finegrain.compiler.backend.jvm;

import dev.finegrain.compiler.backend.BackendRun;
import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.jvm.code.AsmEmitter;
import dev.finegrain.compiler.backend.jvm.code.JClass;
import dev.finegrain.compiler.backend.jvm.code.JavaSourceEmitter;
import dev.finegrain.compiler.backend.jvm.layout.StepBarriers;
import dev.finegrain.compiler.backend.jvm.layout.SyncLayout;
import dev.finegrain.compiler.backend.reference.SequentialOracle;
import dev.finegrain.compiler.ir.IrChannel;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.GoldenKernels;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.DataflowPlan;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.ChannelPolicy;
import dev.finegrain.dsl.GridBarrier;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;
import dev.finegrain.runtime.jvm.StallException;
import dev.finegrain.runtime.jvm.WorkerTeam;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.util.CheckClassAdapter;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dataParallel;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static dev.finegrain.dsl.Finegrain.max;
import static dev.finegrain.dsl.Finegrain.wavefront;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JvmBackendTest {

    private final JvmBackend backend = new JvmBackend();

    /** Every variant of a kernel: schedules x the mechanisms the backend supports for each. */
    private List<Variant> variants(Kernel kernel) {
        KernelGraph graph = Pipeline.compile(kernel);
        List<Schedule> schedules = new ArrayList<>(List.of(wavefront(), wavefront().barrier(GridBarrier.ATOMIC),
                wavefront().barrier(GridBarrier.XF).waitPolicy(dev.finegrain.dsl.WaitPolicy.SLEEP),
                wavefront().waitPolicy(dev.finegrain.dsl.WaitPolicy.SPIN), wavefront().barrier(GridBarrier.DISSEMINATION),
                lockDataflow(), lockDataflow().interleaved(),
                lockDataflow().mutex(dev.finegrain.dsl.Mutex.TICKET), lockDataflow().mutex(dev.finegrain.dsl.Mutex.TEST_AND_SET)));
        if (graph.tiling().legal()) {
            schedules.add(dataParallel(2));
            schedules.add(new Schedule.DynamicDataflow().tile(2));
            schedules.add(new Schedule.DynamicDataflow().tile(1).ready(dev.finegrain.dsl.ReadyQueue.LOCKED));
        }
        List<Variant> variants = new ArrayList<>();
        for (Schedule schedule : schedules) {
            ExecutionPlan plan = SchedulePlanner.plan(graph, schedule);
            List<LockMechanism> mechanisms = backend.mechanisms(SchedulePlanner.plan(graph, schedule));
            if (mechanisms.isEmpty()) {
                variants.add(new Variant(graph, plan, Optional.empty()));
            }
            mechanisms.forEach(m -> variants.add(new Variant(graph, plan, Optional.of(m))));
        }
        return variants;
    }

    /** Random inputs and params of every type for a kernel (small positive params, values in [-50, 50)). */
    static Invocation inputs(Kernel kernel, int[] sizes, long seed) {
        return GoldenKernels.randomInputs(kernel, sizes, seed);
    }

    private static int[] sizesFor(Kernel kernel) {
        return switch (kernel.rank()) {
            case 1 -> new int[] {70};
            case 2 -> new int[] {12, 10};
            default -> new int[] {4, 6, 4};
        };
    }

    @Test
    void aWavefrontMeetsAtTheBarrierItNamesOrIsSkippedWithTheReason() {
        KernelGraph graph = Pipeline.compile(GoldenKernels.needlemanWunsch());
        java.util.function.Function<Schedule, String> barrierOf = schedule -> StepBarriers.create(
                SchedulePlanner.plan(graph, schedule), 2).getClass().getSimpleName();
        assertEquals("CountingBarrier", barrierOf.apply(wavefront().barrier(GridBarrier.ATOMIC)));
        assertEquals("XfBarrier", barrierOf.apply(wavefront().barrier(GridBarrier.XF)));
        assertEquals("SenseBarrier", barrierOf.apply(wavefront()));
        assertEquals("DisseminationBarrier", barrierOf.apply(wavefront().barrier(GridBarrier.DISSEMINATION)));
        assertEquals("SenseBarrier", barrierOf.apply(dataParallel(2)));
        for (GridBarrier launch : List.of(GridBarrier.COOPERATIVE, GridBarrier.RELAUNCH)) {
            assertEquals(Optional.of("its wavefront's workers are one team of threads for the whole run; the " + launch
                    + " barrier is a GPU launch's (use atomic, xf, dissemination, or none for its sense-reversing barrier)"),
                    backend.neverRuns(wavefront().barrier(launch)));
        }
        assertEquals(Optional.empty(), backend.neverRuns(wavefront().barrier(GridBarrier.XF)));
    }

    @Test
    void everyGeneratedClassPassesTheBytecodeChecker() {
        for (Kernel kernel : GoldenKernels.all().values()) {
            for (Variant variant : variants(kernel)) {
                JClass generated = JvmCodegen.generate(variant.plan(), variant.mechanism(), "dev.finegrain.generated");
                StringWriter problems = new StringWriter();
                CheckClassAdapter.verify(new ClassReader(AsmEmitter.emit(generated)), getClass().getClassLoader(), false,
                        new PrintWriter(problems));
                assertEquals("", problems.toString(), generated.name());
            }
        }
    }

    @Test
    void everyVariantMatchesTheOracleOnOneTwoAndThreeThreads() {
        for (Kernel kernel : GoldenKernels.all().values()) {
            int[] sizes = sizesFor(kernel);
            Invocation invocation = inputs(kernel, sizes, 7);
            KernelOutputs oracle = SequentialOracle.run(Pipeline.compile(kernel), invocation);
            for (Variant variant : variants(kernel)) {
                for (int threads = 1; threads <= 3; threads++) {
                    String name = kernel.name() + " " + variant.plan().schedule().cliName() + " " + variant.mechanism() + " threads " + threads;
                    int workers = threads;
                    BackendRun run = org.junit.jupiter.api.Assertions.assertDoesNotThrow(
                            () -> backend.run(variant, invocation, new RunSettings(1, workers, false, 2_000_000_000L)), name);
                    assertEquals(Optional.empty(), oracle.firstDifference(variant.graph(), sizes, run.outputs()),
                            kernel.name() + " " + variant.plan().schedule().cliName() + " " + variant.mechanism() + " threads " + threads);
                }
            }
        }
    }

    @Test
    void aWestValueCarriedAlongTheRowIsThePreviousColumnsEvenWhenItsWriterFiresFirst() {
        // "first" fires before "second" at each point, so when "second" reads f one column west, "first" has already
        // stored f here: the carried west value must still be the previous column's, across tile and band edges too
        Kernel kernel = kernel("west-carry").domain(dim("i", "rows"), dim("j", "cols")).input("w", INT)
                .state("f", INT, boundary(constant(3)))
                .state("g", INT, boundary(constant(-2)))
                .actor("first", "f", a -> a.read("f", 0, -1).times(3).plus(a.read("w", 0, 0)).minus(a.read("f", -1, 0)))
                .actor("second", "g", a -> a.read("f", 0, -1).times(5).plus(a.read("f", 0, 0)).minus(a.read("g", 0, -1)))
                .build();
        KernelGraph graph = Pipeline.compile(kernel);
        Invocation invocation = inputs(kernel, new int[] {6, 12}, 9);
        KernelOutputs oracle = SequentialOracle.run(graph, invocation);
        List<Variant> variants = new ArrayList<>(variants(kernel));
        variants.add(new Variant(graph, SchedulePlanner.plan(graph, dataParallel(3, 4)), Optional.empty()));
        for (Variant variant : variants) {
            for (int threads = 1; threads <= 3; threads++) {
                BackendRun run = backend.run(variant, invocation, RunSettings.once(1, threads));
                assertEquals(Optional.empty(), oracle.firstDifference(graph, invocation.sizes(), run.outputs()),
                        variant.plan().schedule().cliName() + " " + variant.mechanism() + " threads " + threads);
            }
        }
    }

    /**
     * Found in review: a private channel along a column (north, which one worker keeps within its band) got a word
     * array as large as the domain that nothing touched, allocated on every run.
     */
    @Test
    void onlyChannelsThatNeedATokenGetWordArrays() {
        KernelGraph graph = Pipeline.compile(GoldenKernels.needlemanWunsch().toBuilder().channelPolicy(ChannelPolicy.PRIVATE).build());
        DataflowPlan plan = (DataflowPlan) SchedulePlanner.plan(graph, lockDataflow());
        SyncLayout layout = SyncLayout.of(plan, LockMechanism.ACQUIRE_RELEASE_FLAG);
        long crossing = plan.waits().stream().filter(c -> c.vector()[1] != 0).count();
        assertTrue(crossing < plan.waits().size(), "some wait stays within a column: " + plan.waits());
        assertEquals(crossing, layout.arrays(), "one array per private channel that crosses columns");
    }

    @Test
    void warpSharedAndPrivateChannelsMatchTheOracle() {
        Kernel base = GoldenKernels.needlemanWunsch();
        for (Kernel kernel : List.of(base.toBuilder().warpShared(4).build(),
                base.toBuilder().channelPolicy(ChannelPolicy.PRIVATE).build(),
                base.toBuilder().warpShared(3).channelPolicy(ChannelPolicy.PRIVATE).build())) {
            Invocation invocation = inputs(kernel, new int[] {14, 12}, 3);
            KernelOutputs oracle = SequentialOracle.run(Pipeline.compile(kernel), invocation);
            for (Variant variant : variants(kernel)) {
                BackendRun run = backend.run(variant, invocation, RunSettings.once(1, 2));
                assertEquals(Optional.empty(), oracle.firstDifference(variant.graph(), invocation.sizes(), run.outputs()),
                        kernel.granularity() + " " + kernel.channelPolicy() + " " + variant.mechanism());
            }
        }
    }

    @Test
    void javaSourceCompilesAndComputesWhatTheBytecodeComputes() throws Exception {
        Kernel kernel = GoldenKernels.needlemanWunsch();
        Invocation invocation = inputs(kernel, new int[] {10, 14}, 5);
        for (Variant variant : variants(kernel)) {
            JClass generated = JvmCodegen.generate(variant.plan(), variant.mechanism(), "dev.finegrain.generated.source");
            Class<?> compiled = SourceCompiler.compile(generated.name(), JavaSourceEmitter.emit(generated).toString());
            BackendRun fromSource = backend.runWith(compiled, variant, invocation, RunSettings.once(1, 2));
            BackendRun fromBytecode = backend.run(variant, invocation, RunSettings.once(1, 2));
            assertEquals(Optional.empty(), fromBytecode.outputs().firstDifference(variant.graph(), invocation.sizes(), fromSource.outputs()),
                    generated.name());
        }
    }

    /**
     * Found in review: names the DSL accepts but Java source cannot use as they are (a field 'int', a param 'java'
     * that shadows java.lang.Math), a bool param (cast from long) and a negated negative constant ('--3') made
     * source that did not compile or crashed JavaPoet. The source compiles and agrees with the bytecode now.
     */
    @Test
    void javaSourceCompilesForNamesThatClashWithJava() throws Exception {
        Kernel kernel = kernel("clash").domain(dim("i", "n")).param("java", dev.finegrain.dsl.Finegrain.BOOL)
                .param("Integer", INT).state("int", INT, boundary(constant(0)))
                .actor("a", "int", c -> dev.finegrain.dsl.Finegrain.select(c.param("java"),
                        max(c.read("int", -1), c.param("Integer")).plus(constant(-3).negate()), c.read("int", -1).minus(1)))
                .build();
        for (boolean java : new boolean[] {true, false}) {
            Invocation invocation = kernel.invocation().sizes(40).param("java", java).param("Integer", 7).build();
            KernelOutputs oracle = SequentialOracle.run(Pipeline.compile(kernel), invocation);
            for (Variant variant : variants(kernel)) {
                JClass generated = JvmCodegen.generate(variant.plan(), variant.mechanism(), "dev.finegrain.generated.source");
                Class<?> compiled = SourceCompiler.compile(generated.name(), JavaSourceEmitter.emit(generated).toString());
                BackendRun fromSource = backend.runWith(compiled, variant, invocation, RunSettings.once(1, 2));
                assertEquals(Optional.empty(), oracle.firstDifference(variant.graph(), invocation.sizes(), fromSource.outputs()),
                        generated.name() + " with java = " + java);
            }
        }
    }

    @Test
    void aBrokenPlanStallsAndTheWatchdogNamesTheWaitingInstances() {
        Kernel kernel = GoldenKernels.needlemanWunsch();
        KernelGraph graph = Pipeline.compile(kernel);
        IrChannel north = graph.syncChannels().stream().filter(c -> c.vector()[0] == 1).findFirst().orElseThrow();
        // workers own bands of columns, so the future producer sits across a band edge (below and to the east), and
        // the western band's worker waits for it while the eastern one waits for the west channel
        IrChannel fromBelow = new IrChannel(north.producer(), north.consumer(), new int[] {-1, -1}, "score[i+1, j+1]",
                ChannelPolicy.SHARED, false, List.of());
        List<IrChannel> waits = new ArrayList<>(graph.syncChannels());
        waits.add(fromBelow);
        DataflowPlan broken = new DataflowPlan(graph, waits);
        Invocation invocation = inputs(kernel, new int[] {8, 8}, 1);
        long started = System.nanoTime();
        StallException stall = assertThrows(StallException.class, () -> backend.run(
                new Variant(graph, broken, Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG)), invocation,
                new RunSettings(1, 2, false, 300_000_000L)));
        assertTrue(System.nanoTime() - started < 5_000_000_000L, "the stall is reported within seconds");
        assertTrue(stall.waits().stream().anyMatch(w -> w.startsWith("cell[") && w.contains(" waits on channel score[i+1, j+1] for cell[")),
                String.join("\n", stall.waits()));
        // found in review: the wrapper aborted on the stall itself, so a timed-out wait read as another worker's failure
        assertTrue(stall.getMessage().startsWith("stall: a wait made no progress for 300 ms; "), stall.getMessage());
    }

    /**
     * Found in review: barrier waits were timed like token waits, so a worker with no tile, waiting while its peer
     * ran one long tile, declared a stall. Here the one tile covering 512 x 512 outlasts a 1 ms stall timeout.
     */
    @Test
    void aTileLongerThanTheStallTimeoutIsNoStall() {
        Kernel kernel = GoldenKernels.needlemanWunsch();
        Invocation invocation = inputs(kernel, new int[] {512, 512}, 3);
        CompiledJvmKernel compiled = compiled(kernel, dataParallel(512), Optional.empty());
        BackendRun run = backend.run(compiled.variant(), invocation, new RunSettings(3, 2, false, 1_000_000L));
        assertEquals(Optional.empty(), SequentialOracle.run(compiled.variant().graph(), invocation)
                .firstDifference(compiled.variant().graph(), invocation.sizes(), run.outputs()));
    }

    /** Found in review: a team of another size overran the barrier's slots or hung until the watchdog fired. */
    @Test
    void aPreparedRunRefusesATeamOfAnotherSizeAndASecondRun() {
        Kernel kernel = GoldenKernels.needlemanWunsch();
        Invocation invocation = inputs(kernel, new int[] {16, 16}, 3);
        CompiledJvmKernel compiled = compiled(kernel, dataParallel(4), Optional.empty());
        CompiledJvmKernel.Prepared prepared = compiled.prepare(invocation, 2, RunSettings.DEFAULT_STALL_TIMEOUT_NANOS);
        try (WorkerTeam three = new WorkerTeam(3); WorkerTeam two = new WorkerTeam(2)) {
            IllegalArgumentException wrongTeam = assertThrows(IllegalArgumentException.class, () -> prepared.runOn(three));
            assertEquals("this run of kernel 'nw' was prepared for 2 workers but the team has 3; prepare it with team.size()",
                    wrongTeam.getMessage());
            prepared.runOn(two);
            IllegalStateException again = assertThrows(IllegalStateException.class, () -> prepared.runOn(two));
            assertEquals("this run of kernel 'nw' has run already; prepare a new one for each run", again.getMessage());
        }
    }

    @Test
    void mechanismsThatCannotHoldTheFieldsAreRefusedWithAReason() {
        Kernel doubles = kernel("doubles").domain(dim("i", "n")).state("x", dev.finegrain.dsl.Finegrain.DOUBLE,
                boundary(constant(0.0))).actor("a", "x", c -> c.read("x", -1).plus(1.0)).build();
        KernelGraph graph = Pipeline.compile(doubles);
        assertEquals(Optional.of("tiny-lock packs the ready bit beside a 32-bit int value, and state field 'x' is double"),
                backend.unsupported(SchedulePlanner.plan(graph, lockDataflow()), LockMechanism.TINY_LOCK));
        assertTrue(!backend.mechanisms(SchedulePlanner.plan(graph, lockDataflow())).contains(LockMechanism.TINY_LOCK));
        assertEquals(List.of(), backend.mechanisms(SchedulePlanner.plan(graph, wavefront())), "barrier schedules take no lock mechanism");
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> compiled(doubles, lockDataflow(), Optional.of(LockMechanism.TINY_LOCK)));
        assertEquals("the jvm backend cannot use mechanism 'tiny-lock' for kernel 'doubles': tiny-lock packs the ready bit beside "
                + "a 32-bit int value, and state field 'x' is double", refused.getMessage());
    }

    @Test
    void aChainOfBlocksPipelinesAcrossWorkers() {
        Kernel chain = kernel("chain").domain(dim("i", "n")).state("a", INT, boundary(constant(1)))
                .actor("link", "a", c -> max(c.read("a", -32), c.read("a", -1)).plus(c.index("i"))).build();
        Invocation invocation = chain.invocation().sizes(1000).build();
        KernelOutputs oracle = SequentialOracle.run(Pipeline.compile(chain), invocation);
        for (Variant variant : variants(chain)) {
            BackendRun run = backend.run(variant, invocation, RunSettings.once(1, 2));
            assertEquals(Optional.empty(), oracle.firstDifference(variant.graph(), invocation.sizes(), run.outputs()),
                    variant.plan().schedule().cliName() + " " + variant.mechanism());
        }
    }

    /**
     * Seed 003's efficiency loop: a chain whose links add independent work. Plain lock-dataflow runs a chain on worker 0;
     * interleaved deals the links to the workers one each, and each computes its independent fold before it awaits its
     * predecessor's token.
     */
    @Test
    void anInterleavedChainDealsItsLinksInTurnAndComputesTheIndependentWorkFirst() {
        Kernel loop = kernel("efficiency").domain(dim("i", "n")).param("work", INT).input("b", INT)
                .state("a", INT, boundary(constant(0)))
                .actor("link", "a", c -> c.read("a", -1).plus(dev.finegrain.dsl.Finegrain.iterate(c.param("work"), constant(0),
                        acc -> acc.times(3).plus(c.read("b", 0)))))
                .build();
        KernelGraph graph = Pipeline.compile(loop);
        String interleaved = JavaSourceEmitter.emit(JvmCodegen.generate(SchedulePlanner.plan(graph, lockDataflow().interleaved()),
                Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG), "dev.finegrain.generated")).toString();
        String plain = JavaSourceEmitter.emit(JvmCodegen.generate(SchedulePlanner.plan(graph, lockDataflow()),
                Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG), "dev.finegrain.generated")).toString();
        assertTrue(plain.contains("a chain: every instance waits for the one before it, so worker 0 runs them all"), plain);
        assertTrue(interleaved.contains("blocks of 1 consecutive instances, dealt to workers in turn"), interleaved);
        assertTrue(interleaved.indexOf("the independent work first") < interleaved.indexOf("ReadyFlags.await"), interleaved);
        Invocation invocation = inputs(loop, new int[] {300}, 11);
        KernelOutputs oracle = SequentialOracle.run(graph, invocation);
        for (LockMechanism mechanism : backend.mechanisms(SchedulePlanner.plan(graph, lockDataflow().interleaved()))) {
            for (int threads = 1; threads <= 3; threads++) {
                BackendRun run = backend.run(new Variant(graph, SchedulePlanner.plan(graph, lockDataflow().interleaved()),
                        Optional.of(mechanism)), invocation, RunSettings.once(1, threads));
                assertEquals(Optional.empty(), oracle.firstDifference(graph, invocation.sizes(), run.outputs()),
                        mechanism + " on " + threads + " threads");
            }
        }
    }

    @Test
    void aFoldInAnUntakenBranchDoesNotRun() {
        Kernel guarded = kernel("guarded").domain(dim("i", "n")).param("d", INT).state("x", INT, boundary(constant(0)))
                .actor("a", "x", c -> c.read("x", -1).plus(dev.finegrain.dsl.Finegrain.select(
                        c.param("d").isNotEqualTo(constant(0)),
                        dev.finegrain.dsl.Finegrain.iterate(constant(3), c.index("i"), acc -> acc.dividedBy(c.param("d"))),
                        constant(7))))
                .build();
        Invocation invocation = guarded.invocation().sizes(40).param("d", 0).build();
        KernelOutputs oracle = SequentialOracle.run(Pipeline.compile(guarded), invocation);
        for (Variant variant : variants(guarded)) {
            BackendRun run = backend.run(variant, invocation, RunSettings.once(1, 2));
            assertEquals(Optional.empty(), oracle.firstDifference(variant.graph(), invocation.sizes(), run.outputs()),
                    variant.plan().schedule().cliName() + " " + variant.mechanism());
        }
    }

    @Test
    void aDivisionByZeroOnTwoThreadsFailsFastWithOneLine() {
        Kernel dividing = kernel("dividing").domain(dim("i", "n")).param("d", INT).state("x", INT, boundary(constant(1)))
                .actor("a", "x", c -> c.read("x", -1).plus(c.index("i").dividedBy(c.param("d")))).build();
        Invocation invocation = dividing.invocation().sizes(5000).param("d", 0).build();
        KernelGraph graph = Pipeline.compile(dividing);
        Variant variant = new Variant(graph, SchedulePlanner.plan(graph, lockDataflow()), Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG));
        long started = System.nanoTime();
        var failure = assertThrows(dev.finegrain.compiler.ir.KernelExecutionException.class,
                () -> backend.run(variant, invocation, RunSettings.once(1, 2)));
        assertTrue(System.nanoTime() - started < 5_000_000_000L, "the other worker stops waiting at once, not after the 10 s timeout");
        assertEquals("kernel 'dividing': integer division by zero in an actor body on the jvm backend; guard the divisor with select(...)",
                failure.getMessage());
    }

    @Test
    void warmUpWaitsForSlowCompilesOfLargeRunsButNotForever() {
        long second = 1_000_000_000L;
        assertFalse(JvmBackend.warmedUp(9, 20 * second), "at least 10 runs");
        assertFalse(JvmBackend.warmedUp(999, second), "a small domain's runs go on towards C2's invocation count");
        assertTrue(JvmBackend.warmedUp(1000, second / 2));
        assertFalse(JvmBackend.warmedUp(12, 2 * second), "a large domain's slow run method: C2 may still be compiling it");
        assertTrue(JvmBackend.warmedUp(30, 2 * second), "30 runs and 2 s");
        assertTrue(JvmBackend.warmedUp(10, 10 * second), "runs too slow for 30 stop at 10 s");
    }

    /** The class of a kernel under a schedule, planned here as the resolver would, so that the backend's own refusals show. */
    private static CompiledJvmKernel compiled(Kernel kernel, Schedule schedule, Optional<LockMechanism> mechanism) {
        KernelGraph graph = Pipeline.compile(kernel);
        return CompiledJvmKernel.compile(new Variant(graph, SchedulePlanner.plan(graph, schedule), mechanism));
    }
}
