package dev.finegrain.dsl.test;

import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.Schedule;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dataParallel;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.iterate;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.max;
import static org.junit.jupiter.api.Assertions.assertEquals;

class ScheduleAndPrintingTest {

    @Test
    void schedulesParseFromTheirCommandLineNames() {
        assertEquals(Optional.of(new Schedule.Wavefront()), Schedule.parse("wavefront"));
        assertEquals(Optional.of(new Schedule.LockDataflow()), Schedule.parse("lock-dataflow"));
        assertEquals(Optional.of(new Schedule.DataParallel(List.of(16))), Schedule.parse("data-parallel"));
        assertEquals(Optional.of(new Schedule.DataParallel(List.of(8, 4))), Schedule.parse("data-parallel:8x4"));
        assertEquals(Optional.empty(), Schedule.parse("data-parallel:0"));
        assertEquals(Optional.empty(), Schedule.parse("diagonal"));
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
    void toBuilderCopiesAndModifies() {
        Kernel original = kernel("k").domain(dim("i", "n")).state("s", INT).actor("a", "s", c -> constant(1)).build();
        Kernel warpShared = original.toBuilder().warpShared(16).build();
        assertEquals(dev.finegrain.dsl.LockGranularity.PER_THREAD, original.granularity());
        assertEquals(dev.finegrain.dsl.LockGranularity.WARP_SHARED, warpShared.granularity());
        assertEquals(16, warpShared.groupSize());
    }
}
