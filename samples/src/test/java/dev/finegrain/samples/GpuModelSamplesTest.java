package dev.finegrain.samples;

import dev.finegrain.compiler.backend.gpu.model.GpuModelBackend;
import dev.finegrain.compiler.backend.gpu.model.SimtLowering;
import dev.finegrain.compiler.compare.ComparisonRequest;
import dev.finegrain.compiler.compare.ComparisonRunner;
import dev.finegrain.compiler.compare.ResultRow;
import dev.finegrain.compiler.compare.RowStatus;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.dsl.LibraryKernel;
import dev.finegrain.dsl.Schedule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static dev.finegrain.dsl.Finegrain.dataParallel;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static dev.finegrain.dsl.Finegrain.wavefront;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every sample (int, long and double kernels alike) runs on the GPU model of Fermi and of Hopper under wavefront,
 * data-parallel and lock-dataflow with every mechanism the model offers for it, and each row equals the oracle bit for
 * bit. A mechanism may be refused for a kernel (warp-vote for channels inside a warp, tiny-lock for a 64-bit state
 * field); every schedule still has a verified row, and nothing fails.
 */
class GpuModelSamplesTest {

    /** The samples the model runs: all but those over sequences and tables, which it refuses with the reason. */
    static Stream<Arguments> samplesOnProfiles() {
        return new SampleLibrary().kernels().stream().filter(sample -> SimtLowering.unsupportedKernel(Pipeline.compile(sample.kernel())).isEmpty())
                .flatMap(sample -> Stream.of("fermi-gtx570", "hopper-h200").map(profile -> Arguments.of(sample.kernel().name(), profile)));
    }

    @Test
    void theSamplesOverSequencesAreSkippedWithTheReasonAndNoOthers() {
        List<String> refused = new SampleLibrary().kernels().stream()
                .filter(sample -> SimtLowering.unsupportedKernel(Pipeline.compile(sample.kernel())).isPresent()).map(s -> s.kernel().name()).toList();
        assertEquals(List.of(Sample09SequenceAlignment.NEEDLEMAN_WUNSCH, Sample09SequenceAlignment.SMITH_WATERMAN), refused);
        LibraryKernel sample = Sample09SequenceAlignment.needlemanWunschEntry();
        List<ResultRow> rows = ComparisonRunner.run(ComparisonRequest.builder(sample).sizes(List.of(new int[] {12, 12}))
                .schedules(List.of(wavefront(), lockDataflow())).backends(List.of(new GpuModelBackend("hopper-h200"))).seed(5).build()).rows();
        assertTrue(!rows.isEmpty() && rows.stream().allMatch(row -> row.status() == RowStatus.SKIPPED
                && row.problem().contains("the GPU model's programs have no form for sequence inputs and lookup tables")), rows.toString());
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("samplesOnProfiles")
    void everyScheduleOfTheSampleVerifiesOnTheModel(String name, String profile) {
        LibraryKernel sample = new SampleLibrary().kernels().stream().filter(k -> k.kernel().name().equals(name))
                .findFirst().orElseThrow();
        int[] size = sample.kernel().rank() == 1 ? new int[] {96} : new int[] {12, 12};
        Schedule tiles = sample.kernel().rank() == 1 ? dataParallel(24) : dataParallel(4, 4);
        List<Schedule> schedules = List.of(wavefront(), tiles, lockDataflow());
        List<ResultRow> rows = ComparisonRunner.run(ComparisonRequest.builder(sample).sizes(List.of(size))
                .schedules(schedules).backends(List.of(new GpuModelBackend(profile))).seed(5).build()).rows();
        for (ResultRow row : rows) {
            assertTrue(row.status() == RowStatus.VERIFIED || row.status() == RowStatus.SKIPPED,
                    name + " " + row.schedule() + " " + row.mechanism() + ": " + row.status() + " " + row.problem());
        }
        for (Schedule schedule : schedules) {
            assertTrue(rows.stream().anyMatch(row -> row.schedule().equals(schedule.cliName())
                    && row.status() == RowStatus.VERIFIED), name + " has no verified row under " + schedule.cliName()
                    + ": " + rows.stream().map(r -> r.schedule() + " " + r.mechanism() + " " + r.problem()).toList());
        }
        assertEquals(0, rows.stream().filter(row -> row.status() == RowStatus.SKIPPED && row.schedule().equals("wavefront"))
                .count(), "wavefront runs every sample");
    }
}
