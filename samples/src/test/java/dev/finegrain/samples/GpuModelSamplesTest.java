package dev.finegrain.samples;

import dev.finegrain.compiler.backend.gpu.model.GpuModelBackend;
import dev.finegrain.compiler.compare.ComparisonRequest;
import dev.finegrain.compiler.compare.ComparisonRunner;
import dev.finegrain.compiler.compare.ResultRow;
import dev.finegrain.compiler.compare.RowStatus;
import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.ir.KernelExecutionException;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LibraryKernel;
import dev.finegrain.dsl.Schedule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static dev.finegrain.dsl.Finegrain.dataParallel;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static dev.finegrain.dsl.Finegrain.wavefront;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every sample (int, long and double kernels alike) runs on the GPU model of Fermi and of Hopper under wavefront,
 * data-parallel and lock-dataflow with every mechanism the model offers for it, and each row equals the oracle bit for
 * bit. A mechanism may be refused for a kernel (warp-vote for channels inside a warp, tiny-lock for a 64-bit state
 * field); every schedule still has a verified row, and nothing fails.
 */
class GpuModelSamplesTest {

    static Stream<Arguments> samplesOnProfiles() {
        return new SampleLibrary().kernels().stream().flatMap(sample -> Stream.of("fermi-gtx570", "hopper-h200")
                .map(profile -> Arguments.of(sample.kernel().name(), profile)));
    }

    /** A lookup index outside its table stops a model run with one line naming the table and the axis. */
    @Test
    void aLookupIndexOutsideItsTableStopsTheModelRunNamingTheTableAndAxis() {
        Kernel kernel = Sample09SequenceAlignment.needlemanWunsch();
        Invocation invocation = kernel.invocation().sizes(3, 4).param("penalty", 10).input("a", new int[] {1, 2, 3})
                .input("b", new int[] {4, 30, 5, 6}).input("blosum62", Blosum62.table()).build();
        KernelGraph graph = Pipeline.compile(kernel);
        KernelExecutionException error = assertThrows(KernelExecutionException.class, () -> new GpuModelBackend("hopper-h200")
                .run(new Variant(graph, SchedulePlanner.plan(graph, wavefront()), Optional.empty()), invocation, RunSettings.once(1, 1)));
        assertTrue(error.getMessage().startsWith("kernel 'needleman-wunsch-seq': a lookup of table 'blosum62' got an index outside"
                + " axis 1 on the GPU model"), error.getMessage());
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
