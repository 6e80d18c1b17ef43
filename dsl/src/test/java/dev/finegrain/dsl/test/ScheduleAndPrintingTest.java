package dev.finegrain.dsl.test;

import dev.finegrain.dsl.ChannelPolicy;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.KernelDefinitionException;
import dev.finegrain.dsl.LockGranularity;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.ReadyQueue;
import dev.finegrain.dsl.Schedule;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static dev.finegrain.dsl.Finegrain.DOUBLE;
import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.LONG;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static dev.finegrain.dsl.Finegrain.select;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dataParallel;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.iterate;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.max;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ScheduleAndPrintingTest {

    @Test
    void schedulesParseFromTheirCommandLineNames() {
        assertEquals(Optional.of(new Schedule.Wavefront()), Schedule.parse("wavefront"));
        assertEquals(Optional.of(new Schedule.LockDataflow()), Schedule.parse("lock-dataflow"));
        assertEquals(Optional.of(new Schedule.DataParallel(List.of(16))), Schedule.parse("data-parallel"));
        assertEquals(Optional.of(new Schedule.DataParallel(List.of(8, 4))), Schedule.parse("data-parallel:8x4"));
        assertEquals(Optional.empty(), Schedule.parse("diagonal"));
        assertEquals(Optional.empty(), Schedule.parse("data-parallel:8y4"));
        assertEquals(Optional.of(new Schedule.DynamicDataflow()), Schedule.parse("dynamic-dataflow"));
        assertEquals(Optional.of(new Schedule.DynamicDataflow().tile(8, 4).ready(ReadyQueue.MICHAEL_SCOTT)),
                Schedule.parse("dynamic-dataflow:8x4:ms-queue"));
        assertEquals(Optional.of(new Schedule.DynamicDataflow().ready(ReadyQueue.LOCKED)),
                Schedule.parse("dynamic-dataflow:locked-queue"));
        assertEquals(Optional.of(new Schedule.DynamicDataflow().tile(1)), Schedule.parse("dynamic-dataflow:1"));
        for (String wrong : List.of("dynamic-dataflow:stack", "dynamic-dataflow:ms-queue:8", "dynamic-dataflow:8:8",
                "dynamic-dataflowx")) {
            assertEquals(Optional.empty(), Schedule.parse(wrong), wrong);
        }
    }

    @Test
    void aPersistentBandNamesItsColumnsPerLaneAndRefusesWhatItCannotBe() {
        Schedule.LockDataflow four = new Schedule.LockDataflow().persistent().columnsPerLane(4);
        assertEquals("lock-dataflow:persistent:columns=4", four.cliName());
        assertEquals(Optional.of(four), Schedule.parse("lock-dataflow:persistent:columns=4"));
        assertEquals(Optional.of(four.capacity(64)), Schedule.parse("lock-dataflow:persistent:columns=4:capacity=64"));
        assertEquals("lock-dataflow:persistent:columns=4:capacity=64", four.capacity(64).cliName());
        assertEquals(Optional.empty(), Schedule.parse("lock-dataflow:persistent:columns=x"));
        for (String wrong : List.of("lock-dataflow:persistent:columns=3", "lock-dataflow:columns=4")) {
            assertEquals("columns per lane are 1, 2, 4 or 8 of lock-dataflow:persistent's bands, not " + wrong
                    + "; use e.g. lock-dataflow:persistent:columns=4",
                    assertThrows(IllegalArgumentException.class, () -> Schedule.parse(wrong)).getMessage());
        }
        assertTrue(assertThrows(KernelDefinitionException.class, () -> new Schedule.LockDataflow().columnsPerLane(4))
                .getMessage().startsWith("lockDataflow().columnsPerLane(4): columns per lane widen lock-dataflow:persistent's"
                        + " bands; call persistent() first (at "));
        assertTrue(assertThrows(KernelDefinitionException.class, () -> new Schedule.LockDataflow().persistent().columnsPerLane(16))
                .getMessage().startsWith("lockDataflow().persistent().columnsPerLane(16): a lane owns 1, 2, 4 or 8 columns"));
    }

    @Test
    void aDynamicDataflowScheduleNamesItsTileAndTheReadyStructureItNames() {
        assertEquals("dynamic-dataflow:16", new Schedule.DynamicDataflow().cliName());
        // the default is the target's (work-stealing on the JVM, the ring on a GPU), so a named one is always said
        assertEquals("dynamic-dataflow:16:work-stealing", new Schedule.DynamicDataflow().ready(ReadyQueue.WORK_STEALING).cliName());
        assertEquals("dynamic-dataflow:32x8:locked-queue",
                new Schedule.DynamicDataflow().tile(32, 8).ready(ReadyQueue.LOCKED).cliName());
        assertEquals(new Schedule.DynamicDataflow().tile(16, 16), new Schedule.DynamicDataflow().normalized(2));
        assertThrows(IllegalArgumentException.class, () -> new Schedule.DynamicDataflow().tile(0));
    }

    @Test
    void aDataParallelTileOfZeroOrOfFourExtentsIsRefusedWhereverItIsMade() {
        for (String spelling : List.of("data-parallel:0", "data-parallel:8x0", "data-parallel:2x2x2x2")) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> Schedule.parse(spelling));
            assertEquals("tile extents must be positive, one for all dimensions or one per dimension (at most 3), e.g. "
                    + "data-parallel:16 or data-parallel:32x8", refused.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> new Schedule.DataParallel(List.of()));
        assertThrows(IllegalArgumentException.class, () -> new Schedule.DataParallel(List.of(16, -1)));
    }

    @Test
    void aDataParallelScheduleNamesItsTile() {
        assertEquals("data-parallel:32x8", dataParallel(32, 8).cliName());
        assertEquals(16, ((Schedule.DataParallel) dataParallel(16)).extent(1, 2));
    }

    @Test
    void aKernelPrintsAsReadableText() {
        Kernel kernel = kernel("k")
                .domain(dim("i", "n"), dim("j", "m"))
                .param("w", INT)
                .state("s", INT, boundary(constant(0)))
                .actor("a", "s", c -> max(c.read("s", -1, 0), c.read("s", 0, -1))
                        .plus(iterate(c.param("w"), c.index("i"), acc -> acc.times(3))))
                .build();
        assertEquals("""
                kernel k over [i < n, j < m]
                  param w: int
                  state s: int, boundary 0
                  actor a: s = max(s[i-1, j], s[i, j-1]) + iterate(w, i, acc -> acc * 3)
                  channels shared, granularity per-thread
                """, kernel.toString());
    }

    @Test
    void anIntLiteralTakesTheTypeOfTheLongOrDoubleOperandBesideIt() {
        Kernel kernel = kernel("k")
                .domain(dim("i", "n"))
                .param("rate", DOUBLE)
                .state("total", LONG, boundary(constant(0)))
                .state("decayed", DOUBLE, boundary(constant(1)))
                .actor("sum", "total", c -> c.read("total", -1).times(3).plus(constant(1)))
                .actor("decay", "decayed", c -> select(c.read("decayed", -1).greaterThan(2), c.read("decayed", -1).times(c.param("rate")), constant(0)))
                .build();
        assertEquals("""
                kernel k over [i < n]
                  param rate: double
                  state total: long, boundary 0L
                  state decayed: double, boundary 1.0
                  actor sum: total = (total[i-1] * 3L) + 1L
                  actor decay: decayed = select(decayed[i-1] > 2.0, decayed[i-1] * rate, 0.0)
                  channels shared, granularity per-thread
                """, kernel.toString());
    }

    @Test
    void shiftCountsAndIntOperandsKeepTheirType() {
        Kernel kernel = kernel("k").domain(dim("i", "n")).state("bits", LONG, boundary(constant(1L)))
                .actor("a", "bits", c -> c.read("bits", -1).shiftLeft(1).castTo(INT).plus(2).castTo(LONG)).build();
        assertEquals("bits = long(int(bits[i-1] << 1) + 2)", kernel.toString().lines()
                .filter(line -> line.contains("actor a")).findFirst().orElseThrow().replace("  actor a: ", ""));
    }

    @Test
    void lockChoicesOnTheScheduleOverrideTheKernels() {
        Kernel original = kernel("k").domain(dim("i", "n")).state("s", INT, boundary(constant(0)))
                .actor("a", "s", c -> c.read("s", -1).plus(1)).mechanism(LockMechanism.ATOMIC_SPIN_LOCK).build();
        Schedule.LockDataflow plain = lockDataflow();
        assertEquals(Optional.empty(), plain.granularity(), "no choices: the kernel's apply");
        assertEquals(Optional.of(LockMechanism.ATOMIC_SPIN_LOCK), plain.mechanismFor(original));
        Schedule.LockDataflow chosen = lockDataflow().mechanism(LockMechanism.TINY_LOCK).warpShared(8).channels(ChannelPolicy.PRIVATE);
        assertEquals(Optional.of(LockMechanism.TINY_LOCK), chosen.mechanismFor(original));
        assertEquals(Optional.of(LockGranularity.WARP_SHARED), chosen.granularity());
        assertEquals(Optional.of(8), chosen.groupSize());
        assertEquals(Optional.of(ChannelPolicy.PRIVATE), chosen.channelPolicy());
        assertEquals(Optional.of(LockGranularity.PER_THREAD), chosen.perThread().granularity());
        assertEquals(Optional.empty(), chosen.perThread().groupSize(), "per-thread drops the group size");
        assertEquals("lock-dataflow", chosen.cliName());
    }

    @Test
    void aOneExtentTileIsSpelledInFullForItsRank() {
        assertEquals(new Schedule.DataParallel(List.of(16, 16)), dataParallel(16).normalized(2));
        assertEquals(dataParallel(8, 4), dataParallel(8, 4).normalized(2));
        assertEquals(dataParallel(16), dataParallel(16).normalized(1));
    }

    @Test
    void toBuilderCopiesAndModifies() {
        Kernel original = kernel("k").domain(dim("i", "n")).state("s", INT).actor("a", "s", c -> constant(1)).build();
        Kernel warpShared = original.toBuilder().warpShared(16).build();
        assertEquals(dev.finegrain.dsl.LockGranularity.PER_THREAD, original.granularity());
        assertEquals(dev.finegrain.dsl.LockGranularity.WARP_SHARED, warpShared.granularity());
        assertEquals(16, warpShared.groupSize());
    }
}
