package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.BackendRun;
import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.gpu.GpuGoldenCatalog;
import dev.finegrain.compiler.backend.reference.SequentialOracle;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.GoldenKernels;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;
import dev.finegrain.dsl.Type;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.Random;

import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.index;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.along;
import static dev.finegrain.dsl.Finegrain.max;
import static dev.finegrain.dsl.Finegrain.select;
import static dev.finegrain.dsl.Type.DOUBLE;
import static dev.finegrain.dsl.Type.INT;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The GPU model runs lock-dataflow:persistent with lanes of several columns, as CUDA does: a read reaching left of a
 * lane's first column comes from the lane it reaches (several lanes back where the read reaches past a lane's width) or
 * the edge window, one of the lane's own columns otherwise; rings are copied and written a row at a time, coalesced; the
 * last band may be narrower than the others. Every mechanism the Hopper profile offers, each run against the oracle.
 */
class BandLanesModelTest {

    private static final GpuModelBackend HOPPER = new GpuModelBackend("hopper-h200");

    private static Schedule.LockDataflow lanes(int columns) {
        return new Schedule.LockDataflow().persistent().columnsPerLane(columns);
    }

    /** Two actors, a read three columns back (past a lane of two columns), a same-point read and one two rows up. */
    private static final Kernel REACH = kernel("reach")
            .domain(dim("i", "rows"), dim("j", "cols"))
            .input("r", INT)
            .state("a", INT, boundary(index("i").plus(index("j"))))
            .state("b", INT, boundary(constant(3)))
            .actor("a", "a", c -> max(c.read("a", 0, -1).plus(c.read("r", 0, 0)), c.read("a", -1, -3).minus(2))
                    .xor(c.read("b", -1, 0)))
            .actor("b", "b", c -> c.read("a", 0, 0).minus(c.read("a", -2, 0)).plus(c.read("b", -1, -1)))
            .build();

    /** Doubles: a register pair a value, shuffled and carried in two halves. */
    private static final Kernel SMOOTH = kernel("smooth")
            .domain(dim("i", "rows"), dim("j", "cols"))
            .state("u", DOUBLE, boundary(index("i").minus(index("j")).castTo(Type.DOUBLE).times(0.5)))
            .actor("average", "u", a -> a.read("u", -1, 0).plus(a.read("u", 0, -1)).times(0.5).plus(a.read("u", -1, -1).times(0.25)))
            .build();

    /**
     * A profiled lookup inside a select's branch (taken in some columns only) beside an unconditional one: only the
     * unconditional lookup's index is checked once for all of a lane's columns; the branch's is checked where taken.
     */
    private static final Kernel BRANCH_LOOKUP = kernel("branch-lookup")
            .domain(dim("i", "rows"), dim("j", "cols"))
            .input("a", INT, along("i"))
            .input("b", INT, along("j"))
            .table("sub", INT, 24, 24)
            .state("h", INT, boundary(index("i").minus(index("j"))))
            .actor("cell", "h", c -> max(c.read("h", -1, -1).plus(c.lookup("sub", c.read("a", 0), c.read("b", 0))),
                    select(c.read("b", 0).greaterThan(11),
                            c.lookup("sub", c.read("a", 0).plus(1).remainder(24), c.read("b", 0)).plus(c.read("h", -1, 0).dividedBy(2)),
                            c.read("h", -1, 0).minus(3)),
                    c.read("h", 0, -1).minus(3)))
            .build();

    @Test
    void aLookupInABranchIsCheckedWhereTaken() {
        for (int columns : new int[] {1, 2, 4}) {
            assertAllVerified(HOPPER, BRANCH_LOOKUP, new int[] {70, 45}, lanes(columns));
            assertAllVerified(HOPPER, BRANCH_LOOKUP, new int[] {130, 300}, lanes(columns));
        }
    }

    @Test
    void lanesOfSeveralColumnsMatchTheOracle() {
        for (int columns : new int[] {2, 4, 8}) {
            // 300 columns: bands of 64, 128 or 256 columns, the last narrower; 130 rows: steady chunks
            for (Kernel kernel : List.of(GoldenKernels.needlemanWunsch(), SMOOTH, GpuGoldenCatalog.foldLastRow())) {
                assertAllVerified(HOPPER, kernel, new int[] {130, 300}, lanes(columns));
            }
        }
        // two actors' rings of lanes of eight columns pass a block's shared memory (the mapping refuses them, as on CUDA)
        for (int columns : new int[] {2, 4}) {
            assertAllVerified(HOPPER, REACH, new int[] {130, 300}, lanes(columns));
        }
        assertAllVerified(HOPPER, GpuGoldenCatalog.foldMix(), new int[] {70, 200}, lanes(4));
        assertAllVerified(HOPPER, GpuGoldenCatalog.nwSequences(), new int[] {100, 300}, lanes(4));
    }

    /** A ring edge with lanes of four columns, token groups of 6 rows, and bands walked in rounds on one SM. */
    @Test
    void ringsGroupsAndRoundsWithLanesMatchTheOracle() {
        assertAllVerified(HOPPER, GpuGoldenCatalog.foldLastRow(), new int[] {1100, 300}, lanes(4));
        assertAllVerified(HOPPER, REACH, new int[] {100, 300}, lanes(4).warpShared(6));
        assertAllVerified(new GpuModelBackend("hopper-h200@sm.count=1@sm.maxBlocks=1"), GpuGoldenCatalog.foldLastRow(),
                new int[] {2048, 1100}, lanes(2));
    }

    @Test
    void aLaneOfSeveralColumnsCopiesAndWritesRowsCoalesced() {
        KernelGraph graph = Pipeline.compile(GoldenKernels.needlemanWunsch());
        String program = HOPPER.lower(new Variant(graph, SchedulePlanner.plan(graph, lanes(4)), Optional.of(LockMechanism.TINY_LOCK)),
                new int[] {130, 300}).program();
        assertTrue(program.contains("the rows it finished, from the warp's ring to global memory, coalesced"), program);
        assertTrue(program.contains("my lane's column of reference at the first row copied"), program);
        assertTrue(program.contains("from lane l-1's column 3"), program);
    }

    private static void assertAllVerified(GpuModelBackend backend, Kernel kernel, int[] sizes, Schedule schedule) {
        KernelGraph graph = Pipeline.compile(kernel);
        Invocation invocation = inputs(kernel, graph, sizes);
        KernelOutputs oracle = SequentialOracle.run(graph, invocation);
        List<LockMechanism> mechanisms = backend.mechanisms(SchedulePlanner.plan(graph, schedule));
        assertFalse(mechanisms.isEmpty(), kernel.name() + " " + schedule.cliName());
        for (LockMechanism mechanism : mechanisms) {
            Variant variant = new Variant(graph, SchedulePlanner.plan(graph, schedule), Optional.of(mechanism));
            String name = backend.name() + " " + kernel.name() + " " + sizes[0] + "x" + sizes[1] + " " + schedule.cliName() + " " + mechanism;
            BackendRun run = assertDoesNotThrow(() -> backend.run(variant, invocation, RunSettings.once(1, 1)), name);
            assertEquals(Optional.empty(), run.failure(), name);
            assertEquals(Optional.empty(), oracle.firstDifference(graph, sizes, run.outputs()), name);
        }
    }

    /** Random inputs: a matrix input over the domain, a sequence of table indices along its dimension, a table, int params. */
    private static Invocation inputs(Kernel kernel, KernelGraph graph, int[] sizes) {
        Random random = new Random(5);
        Invocation.Builder builder = kernel.invocation().sizes(sizes);
        for (var param : kernel.params()) {
            builder.param(param.name(), 10);
        }
        for (IrField field : graph.fields()) {
            if (field.isSequence()) {
                builder.input(field.name(), random.ints(field.spans()[0] ? sizes[0] : sizes[1], 0, 24).toArray());
            } else if (field.isInput()) {
                builder.input(field.name(), random.ints(sizes[0] * sizes[1], -9, 12).toArray());
            }
        }
        for (var table : kernel.tables()) {
            builder.input(table.name(), random.ints(table.length(), -6, 9).toArray());
        }
        return builder.build();
    }
}
