package dev.finegrain.compiler.plan;

import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.dsl.Keep;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.Reduction;
import dev.finegrain.dsl.Schedule;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RingFoldingTest {

    /** a[i] = a[i-32] + a[i-64] + b[i], the sum of a also kept: blocks of 32, reads reaching two blocks back. */
    private static Kernel chain(Keep keepA) {
        Kernel.Builder builder = kernel("two-back").domain(dim("i", "n")).input("b", INT)
                .state("a", INT, boundary(constant(1)))
                .state("s", INT, boundary(constant(0)))
                .actor("link", "a", c -> c.read("a", -32).plus(c.read("a", -64)).plus(c.read("b", 0)))
                .actor("sum", "s", c -> c.read("s", -1).plus(c.read("a", 0)))
                .reduce("s", Reduction.MAX);
        if (keepA != Keep.ALL) {
            builder.keep("a", keepA);
        }
        return builder.keep("s", Keep.FINAL).build();
    }

    private static RingFolding.Result rings(Kernel kernel, Schedule.LockDataflow schedule) {
        KernelGraph graph = Pipeline.compile(kernel);
        return RingFolding.of((DataflowPlan) SchedulePlanner.plan(graph, schedule));
    }

    @Test
    void fieldsKeptInPartFoldAndTheirReductionsStream() {
        KernelGraph graph = Pipeline.compile(chain(Keep.FINAL));
        RingFolding rings = rings(chain(Keep.FINAL), lockDataflow()).rings().orElseThrow();
        assertEquals(1, rings.block(), "the sum's chain of distance 1 sets the block");
        assertEquals(List.of(1, 2), rings.folded(), "a and s, fields 1 and 2 after the input b");
        assertEquals(64, rings.foldReach());
        assertEquals(1024, rings.capacity());
        assertEquals(List.of(), rings.keptWhole());
        assertEquals(List.of("max(s)"), rings.streamed(graph).stream().map(dev.finegrain.dsl.ReductionSpec::name).toList(),
                "s's maximum is streamed by each worker beside its counter");
        assertTrue(rings(chain(Keep.ALL), lockDataflow()).rings().orElseThrow().folded().equals(List.of(2)),
                "a kept whole stays whole; s still folds");
    }

    @Test
    void moreReductionsThanAWorkersLineHoldsKeepTheirFieldWhole() {
        Kernel many = kernel("many").domain(dim("i", "n"))
                .state("s", INT, boundary(constant(0))).state("t", INT, boundary(constant(0)))
                .actor("count", "s", c -> c.read("s", -1).plus(1)).actor("twice", "t", c -> c.read("t", -1).plus(2))
                .keep("s", Keep.FINAL).keep("t", Keep.FINAL)
                .reduce("s", Reduction.MAX).reduce("s", Reduction.MIN).reduce("t", Reduction.SUM).reduce("t", Reduction.MAX)
                .build();
        RingFolding rings = rings(many, lockDataflow()).rings().orElseThrow();
        assertEquals(List.of(0), rings.folded(), "s's two reductions stream");
        assertEquals(List.of("t is reduced, and at most 3 reductions stream beside a worker's counter; the others read every"
                + " value after the run"), rings.keptWhole(), "t's two more would make four");
    }

    @Test
    void aRingTooShortForABlockAndItsReadsIsRefusedWithTheCapacityThatHoldsThem() {
        RingFolding.Result refused = rings(chain(Keep.FINAL), lockDataflow().capacity(64));
        assertTrue(refused.rings().isEmpty());
        assertEquals("a ring of 64 slots cannot hold a block of 1 instances and the 64 before it that its reads reach;"
                + " use capacity 128 or more", refused.refusal().orElseThrow());
        assertEquals(128, rings(chain(Keep.FINAL), lockDataflow().capacity(128)).rings().orElseThrow().capacity());
    }

    /**
     * For every block, the last reader the back-pressure waits for is the latest block that reads any value whose slot
     * the block overwrites, and it comes before the block itself (a shorter wait would let a value go before its last
     * read; a block waiting for itself would deadlock).
     */
    @Test
    void eachBlockWaitsForExactlyTheLastReaderOfTheSlotsItOverwrites() {
        for (int block = 1; block <= 5; block++) {
            for (int reach = 0; reach <= 9; reach++) {
                for (int capacity = 2; capacity <= 64; capacity *= 2) {
                    if (capacity < block + reach) {
                        continue;
                    }
                    RingFolding rings = new RingFolding(1, capacity, block, 1, List.of(0), reach, List.of());
                    for (int b = 0; b < 40; b++) {
                        int lastReader = Integer.MIN_VALUE;
                        for (int i = b * block; i < (b + 1) * block; i++) {
                            int overwritten = i - capacity;
                            for (int d = 0; d <= reach; d++) {
                                lastReader = Math.max(lastReader, Math.floorDiv(overwritten + d, block));
                            }
                        }
                        assertEquals(lastReader, rings.lastReaderBefore(b), "block " + block + " reach " + reach + " capacity " + capacity + " b " + b);
                        assertTrue(rings.lastReaderBefore(b) < b);
                    }
                }
            }
        }
    }
}
