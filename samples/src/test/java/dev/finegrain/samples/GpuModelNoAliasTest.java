package dev.finegrain.samples;

import dev.finegrain.compiler.backend.gpu.model.GpuModelBackend;
import dev.finegrain.compiler.compare.ComparisonRequest;
import dev.finegrain.compiler.compare.ComparisonRunner;
import dev.finegrain.compiler.compare.ResultRow;
import dev.finegrain.compiler.compare.RowStatus;
import dev.finegrain.dsl.LibraryKernel;
import dev.finegrain.dsl.Schedule;
import dev.finegrain.gpu.runtime.SimtProfile;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No wrong answers from a built-in profile: every sample on every built-in profile, at the first two sizes of seed 001's
 * Table 3 (31 and 62, neither a multiple of a tile, so every edge tile is ragged), under every schedule and mechanism
 * the model runs for it (compare's default sweep), every row verified. A run in which an LDSLK finds its lock bit held
 * by another block's thread (co-resident blocks aliasing in the lock unit) is a failed row, so verified also means
 * that no lock bit aliased. Larger sizes of Table 3, whose runs take minutes each on the model, are swept by
 * {@code bench/model/no-alias.sh} with their rows committed under docs/results.
 */
class GpuModelNoAliasTest {

    static Stream<Arguments> samplesOnEveryProfile() {
        return new SampleLibrary().kernels().stream().flatMap(sample -> SimtProfile.BUILT_IN.stream()
                .map(profile -> Arguments.of(sample.kernel().name(), profile)));
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("samplesOnEveryProfile")
    void everyVariantOfTheSampleAtTable3sFirstSizesIsVerified(String name, String profile) {
        LibraryKernel sample = new SampleLibrary().kernels().stream().filter(k -> k.kernel().name().equals(name))
                .findFirst().orElseThrow();
        List<int[]> sizes = sample.kernel().rank() == 1 ? List.of(new int[] {31}, new int[] {62})
                : List.of(new int[] {31, 31}, new int[] {62, 62});
        // compare's default schedules and mechanisms; the runner leaves lock-dataflow:persistent out (the model has no warp shuffle)
        List<Schedule> schedules = List.of(new Schedule.Wavefront(), new Schedule.LockDataflow(), new Schedule.LockDataflow().persistent(),
                new Schedule.DataParallel(List.of(16)), new Schedule.DynamicDataflow());
        List<ResultRow> rows = ComparisonRunner.run(ComparisonRequest.builder(sample).sizes(sizes).schedules(schedules)
                .backends(List.of(new GpuModelBackend(profile))).seed(31).jobs(2).build()).rows();
        assertFalse(rows.isEmpty(), name + " ran no variant on " + profile);
        for (ResultRow row : rows) {
            assertTrue(row.status() == RowStatus.VERIFIED, name + " " + row.size() + " " + row.schedule() + " "
                    + row.mechanism() + " on " + profile + ": " + row.status() + " " + row.problem());
        }
    }
}
