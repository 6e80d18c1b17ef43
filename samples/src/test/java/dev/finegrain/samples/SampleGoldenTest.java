package dev.finegrain.samples;

import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.reference.ReferenceBackend;
import dev.finegrain.compiler.backend.reference.SequentialOracle;
import dev.finegrain.compiler.compare.ComparisonRequest;
import dev.finegrain.compiler.compare.ComparisonRunner;
import dev.finegrain.compiler.compare.ResultRow;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LibraryKernel;
import dev.finegrain.dsl.Schedule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static dev.finegrain.dsl.Finegrain.dataParallel;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static dev.finegrain.dsl.Finegrain.wavefront;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every sample's oracle equals a plain hand-written Java implementation on the same seeded inputs, at several
 * sizes, including sizes that are not powers of two; then every schedule of every sample verifies.
 */
class SampleGoldenTest {

    private static KernelOutputs oracle(Kernel kernel, Invocation invocation) {
        return SequentialOracle.run(Pipeline.compile(kernel), invocation);
    }

    @ParameterizedTest(name = "{0}x{1} seed {2}")
    @CsvSource({"1,1,1", "5,9,2", "31,31,3", "64,48,4"})
    void needlemanWunschMatchesRodiniaLoop(int rows, int cols, long seed) {
        Kernel kernel = Sample02NeedlemanWunsch.definition();
        Invocation invocation = Sample02NeedlemanWunsch.inputs(kernel, new int[] {rows, cols}, seed);
        int[] expected = HandWritten.needlemanWunsch((int[]) invocation.input("reference"), rows, cols, Sample02NeedlemanWunsch.PENALTY);
        assertArrayEquals(expected, (int[]) oracle(kernel, invocation).field("score"));
    }

    @ParameterizedTest(name = "{0}x{1} seed {2}")
    @CsvSource({"1,1,1", "7,5,2", "40,33,3"})
    void smithWatermanMatchesHandWritten(int rows, int cols, long seed) {
        Kernel kernel = Sample03SmithWaterman.definition();
        Invocation invocation = Sample03SmithWaterman.inputs(kernel, new int[] {rows, cols}, seed);
        int[] expected = HandWritten.smithWaterman((int[]) invocation.input("similarity"), rows, cols, Sample03SmithWaterman.GAP);
        assertArrayEquals(expected, (int[]) oracle(kernel, invocation).field("h"));
    }

    @ParameterizedTest(name = "{0}x{1} seed {2}")
    @CsvSource({"1,1,1", "5,9,2", "31,31,3", "64,48,4"})
    void needlemanWunschOverSequencesScoresAsOverTheMatrix(int rows, int cols, long seed) {
        Kernel matrix = Sample02NeedlemanWunsch.definition();
        Kernel sequences = Sample09SequenceAlignment.needlemanWunsch();
        int[] sizes = {rows, cols};
        int[] whole = (int[]) oracle(matrix, Sample02NeedlemanWunsch.inputs(matrix, sizes, seed)).field("score");
        assertArrayEquals(new int[] {whole[rows * cols - 1]},
                (int[]) oracle(sequences, Sample09SequenceAlignment.needlemanWunschInputs(sequences, sizes, seed)).field("score"));
    }

    @ParameterizedTest(name = "{0}x{1} seed {2}")
    @CsvSource({"1,1,1", "7,5,2", "40,33,3"})
    void smithWatermanOverSequencesScoresAsOverTheMatrix(int rows, int cols, long seed) {
        Kernel matrix = Sample03SmithWaterman.definition();
        Kernel sequences = Sample09SequenceAlignment.smithWaterman();
        int[] sizes = {rows, cols};
        int[] whole = (int[]) oracle(matrix, Sample03SmithWaterman.inputs(matrix, sizes, seed)).field("h");
        KernelOutputs seq = oracle(sequences, Sample09SequenceAlignment.smithWatermanInputs(sequences, sizes, seed));
        assertArrayEquals(java.util.Arrays.copyOfRange(whole, (rows - 1) * cols, rows * cols), (int[]) seq.field("h"));
        int best = 0;
        for (int p = 1; p < whole.length; p++) {
            best = whole[p] > whole[best] ? p : best;
        }
        assertEquals(new KernelOutputs.Reduced(whole[best], List.of(best / cols, best % cols)), seq.reduction("max(h)").orElseThrow());
    }

    /** A row shows what the kernel keeps small: each reduction, and a field kept as its final value alone. */
    @Test
    void aRowShowsTheReductionsAndTheFinalScores() {
        for (LibraryKernel sample : List.of(Sample09SequenceAlignment.smithWatermanEntry(), Sample09SequenceAlignment.needlemanWunschEntry())) {
            List<ResultRow> rows = ComparisonRunner.run(ComparisonRequest.builder(sample).sizes(List.of(new int[] {40, 33}))
                    .schedules(List.of(wavefront())).backends(List.of(new ReferenceBackend())).seed(3).build()).rows();
            KernelOutputs oracle = oracle(sample.kernel(), sample.inputs().generate(sample.kernel(), new int[] {40, 33}, 3));
            Object expected = sample.kernel().reductions().isEmpty()
                    ? (Object) ((int[]) oracle.field("score"))[0] : oracle.reduction("max(h)").orElseThrow().toString();
            String key = sample.kernel().reductions().isEmpty() ? "final(score)" : "max(h)";
            assertEquals(expected, rows.getFirst().details().get(key), rows.getFirst().details().toString());
        }
    }

    @ParameterizedTest(name = "{0}x{1} seed {2}")
    @CsvSource({"1,1,1", "6,11,2", "40,33,3"})
    void lcsMatchesHandWritten(int rows, int cols, long seed) {
        Kernel kernel = Sample04LongestCommonSubsequence.definition();
        Invocation invocation = Sample04LongestCommonSubsequence.inputs(kernel, new int[] {rows, cols}, seed);
        int[] expected = HandWritten.longestCommonSubsequence((int[]) invocation.input("same"), rows, cols);
        assertArrayEquals(expected, (int[]) oracle(kernel, invocation).field("length"));
    }

    @ParameterizedTest(name = "n={0} work={1}")
    @CsvSource({"1,0", "33,0", "512,0", "512,3", "100,7"})
    void chainMatchesListing10(int n, int work) {
        Kernel kernel = Sample01Chain.definition();
        Invocation invocation = kernel.invocation().sizes(n).param("work", work).build();
        assertArrayEquals(HandWritten.chain(n, work), (int[]) oracle(kernel, invocation).field("a"));
    }

    @ParameterizedTest(name = "n={0} work={1}")
    @CsvSource({"1,1", "100,1", "257,16", "64,128"})
    void efficiencyLoopMatchesHandWrittenBitForBit(int n, int work) {
        Kernel kernel = Sample05EfficiencyLoop.definition();
        Invocation invocation = Sample05EfficiencyLoop.inputs(kernel, new int[] {n}, 5, work);
        double[] expected = HandWritten.efficiencyLoop((double[]) invocation.input("b"), work, Sample05EfficiencyLoop.DECAY);
        assertArrayEquals(expected, (double[]) oracle(kernel, invocation).field("a"));
    }

    @ParameterizedTest(name = "{0}x{1}")
    @CsvSource({"1,1", "3,8", "33,17"})
    void gaussSeidelMatchesAnInPlaceSweepBitForBit(int rows, int cols) {
        Kernel kernel = Sample06GaussSeidel.definition();
        Invocation invocation = Sample06GaussSeidel.inputs(kernel, new int[] {rows, cols}, 9);
        double[] expected = HandWritten.gaussSeidel((double[]) invocation.input("grid"), rows, cols);
        assertArrayEquals(expected, (double[]) oracle(kernel, invocation).field("u"));
    }

    @ParameterizedTest(name = "n={0}")
    @CsvSource({"1", "2", "1000"})
    void livermore5MatchesHandWrittenBitForBit(int n) {
        Kernel kernel = Sample07Livermore5.definition();
        Invocation invocation = Sample07Livermore5.inputs(kernel, new int[] {n}, 11);
        double[] expected = HandWritten.livermore5((double[]) invocation.input("y"), (double[]) invocation.input("z"), Sample07Livermore5.X0);
        assertArrayEquals(expected, (double[]) oracle(kernel, invocation).field("x"));
    }

    @Test
    void everyScheduleOfEverySampleVerifiesAgainstTheOracle() {
        List<Schedule> schedules = List.of(wavefront(), lockDataflow(), dataParallel(16), dataParallel(8));
        for (LibraryKernel sample : new SampleLibrary().kernels()) {
            int[] size = sample.kernel().rank() == 1 ? new int[] {96} : new int[] {32, 48};
            for (long seed : new long[] {1, 2}) {
                List<ResultRow> rows = ComparisonRunner.run(ComparisonRequest.builder(sample).sizes(List.of(size))
                        .schedules(schedules).backends(List.of(new ReferenceBackend())).seed(seed).build()).rows();
                assertEquals(schedules.size(), rows.size());
                for (ResultRow row : rows) {
                    assertTrue(row.verified(), row.kernel() + " " + row.schedule() + ": " + row.problem());
                }
            }
        }
    }

    @Test
    void everySampleVerifiesOnTheJvmBackendUnderEveryScheduleAndMechanism() {
        List<Schedule> schedules = List.of(wavefront(), lockDataflow(), dataParallel(8));
        for (LibraryKernel sample : new SampleLibrary().kernels()) {
            int[] size = sample.kernel().rank() == 1 ? new int[] {200} : new int[] {24, 40};
            List<ResultRow> rows = ComparisonRunner.run(ComparisonRequest.builder(sample).sizes(List.of(size)).schedules(schedules)
                    .backends(List.of(new dev.finegrain.compiler.backend.jvm.JvmBackend())).seed(3).threads(2).build()).rows();
            assertTrue(rows.size() >= schedules.size() + 2, sample.name() + " ran " + rows.size() + " combinations");
            for (ResultRow row : rows) {
                assertTrue(row.verified(), row.kernel() + " " + row.schedule() + " " + row.mechanism() + ": " + row.problem());
            }
        }
    }

    @Test
    void needlemanWunschSynchronisesOnTwoChannelsPerCell() {
        String ir = dev.finegrain.compiler.ir.IrPrinter.print(Pipeline.compile(Sample02NeedlemanWunsch.definition()));
        assertTrue(ir.contains("channel #0 cell -> cell (1,1) via score[i-1, j-1], shared, implied by #1 + #2"), ir);
        assertEquals(2, Pipeline.compile(Sample02NeedlemanWunsch.definition()).syncChannels().size());
    }

    @Test
    void blosum62IsSymmetric() {
        for (int a = 0; a < Blosum62.RESIDUES; a++) {
            for (int b = 0; b < Blosum62.RESIDUES; b++) {
                assertEquals(Blosum62.score(a, b), Blosum62.score(b, a), "residues " + a + ", " + b);
            }
        }
        assertEquals(11, Blosum62.score(17, 17), "W/W");
        assertEquals(-4, Blosum62.score(23, 0), "*/A");
    }
}
