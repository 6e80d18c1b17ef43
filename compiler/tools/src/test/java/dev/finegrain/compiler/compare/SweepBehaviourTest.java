package dev.finegrain.compiler.compare;

import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.compiler.backend.Backend;
import dev.finegrain.compiler.backend.BackendRun;
import dev.finegrain.compiler.ir.KernelExecutionException;
import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.jvm.JvmBackend;
import dev.finegrain.compiler.backend.reference.ReferenceBackend;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LibraryKernel;
import dev.finegrain.dsl.LockMechanism;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static dev.finegrain.dsl.Finegrain.LONG;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dataParallel;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static dev.finegrain.dsl.Finegrain.wavefront;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A sweep reports what it cannot run or what fails as rows, runs the rest, and says what it leaves out. */
class SweepBehaviourTest {

    /** Pascal's rule in longs: the jvm's tiny-lock (a ready bit beside a 32-bit int) cannot carry it. */
    private static final Kernel PASCAL = kernel("pascal")
            .domain(dim("i", "rows"), dim("j", "cols"))
            .state("c", LONG, boundary(constant(1)))
            .actor("sum", "c", a -> a.read("c", -1, 0).plus(a.read("c", 0, -1)))
            .build();

    private static final LibraryKernel PASCAL_ENTRY = new LibraryKernel(PASCAL, "pascal", "pascal",
            (kernel, sizes, seed) -> kernel.invocation().sizes(sizes).build(), List.of(new int[] {8, 8}));

    private static ComparisonRequest.Builder pascal() {
        return ComparisonRequest.builder(PASCAL_ENTRY);
    }

    /**
     * The reference and JVM backends cut the tiles at the high edges short, as the GPU targets do: every tile shape at
     * sizes it does not divide, under data-parallel and dynamic dataflow, checked against the oracle (by the schedule
     * checker on the reference backend, by the oracle's outputs on the JVM, whose short tiles run scalar loops).
     */
    @Test
    void sizesTheTilesDoNotDivideRunWithTheEdgeTilesCutShort() {
        Comparison comparison = ComparisonRunner.run(pascal().sizes(List.of(new int[] {20, 20}, new int[] {7, 33}, new int[] {16, 16}))
                .schedules(List.of(dataParallel(16), dataParallel(3, 5), dev.finegrain.dsl.Finegrain.dynamicDataflow().tile(16, 4)))
                .backends(List.of(new ReferenceBackend(), new JvmBackend())).threads(2).build());
        assertEquals(18, comparison.rows().size());
        assertTrue(comparison.rows().stream().allMatch(ResultRow::verified),
                comparison.rows().stream().map(r -> r.size() + " " + r.schedule() + " " + r.status() + " " + r.problem()).toList().toString());
    }

    @Test
    void aBackendThatCannotRunTheKernelSkipsItsRowsAndTheOthersRun() {
        Kernel cube = kernel("cube").domain(dim("i", "n"), dim("j", "m"), dim("k", "p"))
                .state("a", LONG, boundary(constant(1)))
                .state("b", LONG, boundary(constant(2)))
                .actor("a", "a", x -> x.read("a", -1, 0, 0).plus(x.read("a", 0, -1, 0)).plus(x.read("a", 0, 0, -1)))
                .actor("b", "b", x -> x.read("b", -1, 0, 0).plus(x.read("b", 0, -1, 0)).plus(x.read("b", 0, 0, -1))
                        .plus(x.read("a", 0, 0, 0)))
                .build();
        LibraryKernel entry = new LibraryKernel(cube, "cube", "cube", (kernel, sizes, seed) -> kernel.invocation()
                .sizes(sizes).build(), List.of(new int[] {4, 4, 4}));
        Backend gpu = Backends.byName("gpu-model:fermi-gtx570").orElseThrow();
        Comparison comparison = ComparisonRunner.run(ComparisonRequest.builder(entry).schedules(List.of(lockDataflow()))
                .backends(List.of(new ReferenceBackend(), gpu)).build());
        assertEquals(List.of(RowStatus.VERIFIED, RowStatus.SKIPPED), comparison.rows().stream().map(ResultRow::status).toList());
        assertTrue(comparison.rows().getLast().problem().startsWith("backend 'gpu-model:fermi-gtx570' has no lock mechanism"
                + " for lock-dataflow of kernel 'cube'") && comparison.rows().getLast().problem().contains("6 channels"),
                comparison.rows().getLast().problem());
    }

    @Test
    void aScheduleThatCannotPlanTheKernelIsSkippedNotAnAbort() {
        Kernel antiDiagonal = kernel("anti").domain(dim("i", "n"), dim("j", "m")).state("s", LONG, boundary(constant(0)))
                .actor("a", "s", c -> c.read("s", -1, 1).plus(1)).build();
        LibraryKernel entry = new LibraryKernel(antiDiagonal, "anti", "anti", (kernel, sizes, seed) -> kernel.invocation()
                .sizes(sizes).build(), List.of(new int[] {8, 8}));
        Comparison comparison = ComparisonRunner.run(ComparisonRequest.builder(entry)
                .schedules(List.of(wavefront(), dataParallel(4))).backends(List.of(new ReferenceBackend())).build());
        assertEquals(List.of(RowStatus.VERIFIED, RowStatus.SKIPPED), comparison.rows().stream().map(ResultRow::status).toList());
        assertTrue(comparison.rows().getLast().problem().startsWith("data-parallel:4x4 cannot run kernel 'anti':"
                + " rectangular tiles cannot respect dependence (1,-1)"), comparison.rows().getLast().problem());
    }

    @Test
    void anErrorInOneRowFailsThatRowAndTheSweepGoesOn() {
        Comparison comparison = ComparisonRunner.run(pascal().schedules(List.of(wavefront(), lockDataflow()))
                .backends(List.of(new FailingBackend(), new ReferenceBackend())).build());
        assertEquals(List.of("wavefront failing failed", "wavefront reference verified", "lock-dataflow failing failed",
                "lock-dataflow reference verified"), comparison.rows().stream()
                .map(r -> r.schedule() + " " + r.backend() + " " + r.status()).toList());
        assertEquals("kernel 'pascal': the device fell over", comparison.rows().getFirst().problem());
        assertTrue(comparison.hasProblems(), "a failed row makes the comparison's exit status 1");
    }

    @Test
    void mechanismsABackendCannotUseForTheKernelAreNamedInOneNote() {
        Comparison comparison = ComparisonRunner.run(pascal().schedules(List.of(lockDataflow()))
                .backends(List.of(new JvmBackend())).build());
        assertTrue(comparison.rows().stream().noneMatch(row -> row.mechanism().equals("tiny-lock")), "tiny-lock is left out");
        assertEquals(List.of("left out of the mechanism sweep (the backend cannot use them for kernel 'pascal'): jvm lock-dataflow"
                + " tiny-lock (tiny-lock packs the ready bit beside a 32-bit int value, and state field 'c' is long)"), comparison.notes());
    }

    @Test
    void aListedMechanismABackendCannotUseIsASkippedRow() {
        Comparison comparison = ComparisonRunner.run(pascal().schedules(List.of(lockDataflow())).backends(List.of(new JvmBackend()))
                .mechanisms(MechanismChoice.listed(List.of(LockMechanism.TINY_LOCK, LockMechanism.ACQUIRE_RELEASE_FLAG))).build());
        assertEquals(List.of("tiny-lock skipped", "acquire-release verified"), comparison.rows().stream()
                .map(r -> r.mechanism() + " " + r.status()).toList());
        assertEquals("backend 'jvm' cannot use mechanism 'tiny-lock' for kernel 'pascal': tiny-lock packs the ready bit beside"
                + " a 32-bit int value, and state field 'c' is long", comparison.rows().getFirst().problem());
    }

    @Test
    void aMechanismSweepKeepsTheReferenceRowAsItsBaseline() {
        Comparison comparison = ComparisonRunner.run(pascal().schedules(List.of(lockDataflow()))
                .backends(List.of(new ReferenceBackend(), new JvmBackend()))
                .mechanisms(MechanismChoice.listed(List.of(LockMechanism.ATOMIC_SPIN_LOCK, LockMechanism.ACQUIRE_RELEASE_FLAG))).build());
        assertEquals(List.of("reference - verified", "jvm atomic-spin-lock verified", "jvm acquire-release verified"),
                comparison.rows().stream().map(r -> r.backend() + " " + r.mechanism() + " " + r.status()).toList());
        assertEquals(List.of(), comparison.notes());
    }

    @Test
    void theKernelsOwnMechanismIsTheDefaultAndAllSweepsEveryOne() {
        LibraryKernel own = new LibraryKernel(PASCAL.toBuilder().mechanism(LockMechanism.ATOMIC_SPIN_LOCK).build(), "p", "p",
                PASCAL_ENTRY.inputs(), List.of(new int[] {8, 8}));
        ComparisonRequest.Builder request = ComparisonRequest.builder(own).schedules(List.of(lockDataflow()))
                .backends(List.of(new JvmBackend()));
        assertEquals(List.of("atomic-spin-lock"), mechanisms(ComparisonRunner.run(request.build())));
        assertEquals(List.of("acquire-release", "atomic-spin-lock", "shared-spin-lock", "blocking", "lock-box", "spsc-ring"),
                mechanisms(ComparisonRunner.run(request.mechanisms(MechanismChoice.all()).build())));
        assertEquals(List.of("blocking"), mechanisms(ComparisonRunner.run(request.mechanisms(MechanismChoice.ownOrAll())
                .schedules(List.of(lockDataflow().mechanism(LockMechanism.BLOCKING))).build())), "the schedule's choice wins");
    }

    @Test
    void lockChoicesOnTheScheduleShowInTheRows() {
        Comparison comparison = ComparisonRunner.run(pascal().schedules(List.of(lockDataflow()
                        .mechanism(LockMechanism.ACQUIRE_RELEASE_FLAG).warpShared(4)))
                .backends(List.of(new JvmBackend())).build());
        ResultRow row = comparison.rows().getFirst();
        assertAll(() -> assertEquals(RowStatus.VERIFIED, row.status(), row.problem()),
                () -> assertEquals("warp-shared:4", row.granularity(), "a group other than a warp of 32 is named with its size"),
                () -> assertEquals("acquire-release", row.mechanism()));
    }

    @Test
    void threadsOnBackendsWithoutThreadsIsANote() {
        Comparison comparison = ComparisonRunner.run(pascal().schedules(List.of(wavefront()))
                .backends(List.of(new ReferenceBackend())).threads(3).build());
        assertEquals(List.of("--threads applies to backends that run on threads (jvm); reference ignore it"), comparison.notes());
    }

    @Test
    void aParallelSweepGivesTheSameRowsAsASequentialOne() {
        ComparisonRequest.Builder request = ComparisonRequest.builder(PrefixSumEntry.ENTRY)
                .sizes(List.of(new int[] {64}, new int[] {96}))
                .schedules(List.of(wavefront(), lockDataflow(), dataParallel(32)))
                .backends(List.of(Backends.byName("gpu-model:fermi-gtx570").orElseThrow()));
        String sequential = ResultFormat.JSON.render(ComparisonRunner.run(request.jobs(1).build()).rows());
        String parallel = ResultFormat.JSON.render(ComparisonRunner.run(request.jobs(4).build()).rows());
        assertEquals(sequential, parallel);
        assertTrue(sequential.contains("\"status\": \"verified\""), sequential);
    }

    /**
     * Simulated rows share one pool across sizes (largest size first when nothing is timed); timed rows run alone
     * between them. Either way the rows come back in sweep order, each with the status a sequential run gives.
     */
    @Test
    void aMixedSweepOnAPoolKeepsSweepOrderAndStatuses() {
        ComparisonRequest.Builder request = ComparisonRequest.builder(PrefixSumEntry.ENTRY)
                .sizes(List.of(new int[] {32}, new int[] {96}, new int[] {64}))
                .schedules(List.of(wavefront(), lockDataflow()))
                .backends(List.of(Backends.byName("gpu-model:fermi-gtx570").orElseThrow(),
                        Backends.byName("jvm").orElseThrow(), Backends.byName("reference").orElseThrow()))
                .measure(false);
        List<String> sequential = ComparisonRunner.run(request.jobs(1).build()).rows().stream()
                .map(SweepBehaviourTest::identity).toList();
        List<String> parallel = ComparisonRunner.run(request.jobs(3).build()).rows().stream()
                .map(SweepBehaviourTest::identity).toList();
        assertEquals(sequential, parallel);
        assertTrue(sequential.getFirst().startsWith("32 "), sequential.toString());
        assertTrue(sequential.stream().allMatch(row -> row.endsWith("verified")), sequential.toString());
    }

    @Test
    void aSizeWhoseInputsRunOutOfMemoryFailsItsRowsAndTheOtherSizesRun() {
        LibraryKernel greedy = new LibraryKernel(PASCAL, "pascal", "pascal", (kernel, sizes, seed) -> {
            if (sizes[0] == 32) {
                throw new OutOfMemoryError("Java heap space");
            }
            return kernel.invocation().sizes(sizes).build();
        }, List.of(new int[] {8, 8}));
        Comparison comparison = ComparisonRunner.run(ComparisonRequest.builder(greedy).sizes(List.of(new int[] {32, 32},
                new int[] {8, 8})).schedules(List.of(wavefront())).backends(List.of(new ReferenceBackend())).build());
        assertEquals(List.of("32x32 wavefront reference - failed", "8x8 wavefront reference - verified"),
                comparison.rows().stream().map(SweepBehaviourTest::identity).toList());
        assertEquals("the kernel's input generator failed at size 32x32: OutOfMemoryError: Java heap space; use smaller sizes,"
                + " or give the JVM more with FINEGRAIN_JAVA_OPTS (-Xmx<size> for memory, -Xss<size> for stack)",
                comparison.rows().getFirst().problem());
    }

    @Test
    void aStackOverflowInOneRowFailsThatRowWithAdviceAndTheSweepGoesOn() {
        Backend deep = new FailingBackend() {
            @Override
            public String name() {
                return "deep";
            }

            @Override
            public BackendRun run(Variant variant, Invocation invocation, RunSettings settings) {
                throw new StackOverflowError();
            }
        };
        java.io.StringWriter progress = new java.io.StringWriter();
        Comparison comparison = ComparisonRunner.run(pascal().schedules(List.of(wavefront()))
                .backends(List.of(deep, new ReferenceBackend())).progress(new java.io.PrintWriter(progress)).build());
        assertEquals(List.of("failed", "verified"), comparison.rows().stream().map(r -> r.status().label()).toList());
        assertTrue(comparison.rows().getFirst().problem().startsWith("stack overflow while running this row; use smaller"
                + " sizes, or give the JVM more with FINEGRAIN_JAVA_OPTS"), comparison.rows().getFirst().problem());
        assertFalse(progress.toString().contains("internal error"), "a resource limit is no bug: " + progress);
    }

    @Test
    void everyFinishedRowIsHandedOnAtOnceAndAResumedSweepRunsOnlyTheRest() {
        List<ResultRow> journal = new java.util.concurrent.CopyOnWriteArrayList<>();
        Comparison whole = ComparisonRunner.run(pascal().schedules(List.of(wavefront(), lockDataflow()))
                .backends(List.of(new ReferenceBackend())).listener((position, row) -> journal.add(row)).build());
        assertEquals(whole.rows().size(), journal.size());
        List<ResultRow> resumedRuns = new java.util.concurrent.CopyOnWriteArrayList<>();
        Comparison resumed = ComparisonRunner.run(Sweep.of(pascal().schedules(List.of(wavefront(), lockDataflow()))
                .backends(List.of(new ReferenceBackend())).listener((position, row) -> resumedRuns.add(row)).build()),
                List.of(journal.getLast()));
        assertEquals(whole.rows().size() - 1, resumedRuns.size(), "the journaled row does not run again");
        assertEquals(whole.rows().stream().map(SweepBehaviourTest::identity).toList(),
                resumed.rows().stream().map(SweepBehaviourTest::identity).toList(), "in sweep order, the kept row in its place");
    }

    private static String identity(ResultRow row) {
        return row.size() + " " + row.schedule() + " " + row.backend() + " " + row.mechanism() + " " + row.status().label();
    }

    /** A backend whose every run ends in a run-time error, as a division by zero or a fault would. */
    private static class FailingBackend implements Backend {
        @Override
        public String name() {
            return "failing";
        }

        @Override
        public boolean modelsSyncAbstractly() {
            return true;
        }

        @Override
        public List<LockMechanism> sweep() {
            return List.of();
        }

        @Override
        public Optional<String> unsupported(ExecutionPlan plan, LockMechanism mechanism) {
            return Optional.of("none");
        }

        @Override
        public BackendRun run(Variant variant, Invocation invocation, RunSettings settings) {
            throw new KernelExecutionException("kernel '" + variant.graph().name() + "': the device fell over");
        }
    }

    private static List<String> mechanisms(Comparison comparison) {
        return comparison.rows().stream().map(ResultRow::mechanism).toList();
    }

    /** A size whose oracle runs long is said before it starts: from 2^28 points on. */
    @Test
    void aLongOracleIsSaidBeforeItStarts() {
        assertEquals(java.util.Optional.empty(), ComparisonRunner.longOracle(new int[] {16383, 16384}));
        assertEquals(java.util.Optional.of("the sequential oracle computes 16384x16384 first, on one thread (268435456 points),"
                + " before any row runs: tens of seconds or more at this size"), ComparisonRunner.longOracle(new int[] {16384, 16384}));
    }
}
