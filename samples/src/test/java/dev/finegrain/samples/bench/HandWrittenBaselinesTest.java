package dev.finegrain.samples.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The hand-written baselines compute what the kernels define, and their tear-down notices when they do not. */
class HandWrittenBaselinesTest {

    @Test
    void needlemanWunschBaselineMatchesTheOracle() {
        HandWrittenNeedlemanWunschBenchmark benchmark = new HandWrittenNeedlemanWunschBenchmark();
        benchmark.size = 45;
        benchmark.inputs();
        benchmark.freshMatrix();
        int[] matrix = benchmark.needle();
        benchmark.verify();

        matrix[matrix.length - 1]++;
        assertTrue(assertThrows(IllegalStateException.class, benchmark::verify).getMessage().contains("score[44, 44]"));
    }

    @Test
    void smithWatermanBaselineMatchesTheOracle() {
        HandWrittenSmithWatermanBenchmark benchmark = new HandWrittenSmithWatermanBenchmark();
        benchmark.size = 45;
        benchmark.inputs();
        benchmark.freshMatrix();
        int[] matrix = benchmark.smithWaterman();
        benchmark.verify();

        matrix[46 + 1]--;
        assertTrue(assertThrows(IllegalStateException.class, benchmark::verify).getMessage().contains("h[0, 0]"));
    }

    @Test
    void gaussSeidelBaselineMatchesTheOracleBitForBit() {
        HandWrittenGaussSeidelBenchmark benchmark = new HandWrittenGaussSeidelBenchmark();
        benchmark.size = 45;
        benchmark.inputs();
        benchmark.freshGrid();
        double[] u = benchmark.sweep();
        benchmark.verify();

        u[47 * 10 + 20] = Math.nextUp(u[47 * 10 + 20]);
        assertTrue(assertThrows(IllegalStateException.class, benchmark::verify).getMessage().contains("u[9, 19]"));
    }
}
