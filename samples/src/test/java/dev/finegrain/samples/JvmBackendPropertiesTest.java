package dev.finegrain.samples;

import dev.finegrain.compiler.backend.jvm.JvmBackend;
import dev.finegrain.compiler.compare.ComparisonRequest;
import dev.finegrain.compiler.compare.ComparisonRunner;
import dev.finegrain.compiler.compare.ResultRow;
import dev.finegrain.dsl.ChannelPolicy;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LibraryKernel;
import dev.finegrain.dsl.Schedule;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

import java.util.List;

import static dev.finegrain.dsl.Finegrain.dataParallel;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static dev.finegrain.dsl.Finegrain.wavefront;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every sample under every schedule x mechanism x granularity x channel policy on the jvm backend is bit-identical to
 * the oracle, on random sizes (multiples of the tile, so data-parallel applies), inputs and thread counts.
 */
class JvmBackendPropertiesTest {

    @Property(tries = 25, seed = "20261122")
    void everyVariantOfEverySampleMatchesTheOracle(@ForAll @IntRange(min = 0, max = 6) int sampleIndex,
                                                   @ForAll @IntRange(min = 1, max = 6) int tiles,
                                                   @ForAll @IntRange(min = 1, max = 5) int otherTiles,
                                                   @ForAll @IntRange(min = 1, max = 9) int groupSize,
                                                   @ForAll boolean warpShared, @ForAll boolean privateChannels,
                                                   @ForAll @IntRange(min = 1, max = 3) int threads,
                                                   @ForAll long seed) {
        LibraryKernel sample = new SampleLibrary().kernels().get(sampleIndex);
        Kernel.Builder variant = sample.kernel().toBuilder().channelPolicy(privateChannels ? ChannelPolicy.PRIVATE : ChannelPolicy.SHARED);
        if (warpShared) {
            variant.warpShared(groupSize);
        }
        Kernel kernel = variant.build();
        LibraryKernel library = new LibraryKernel(kernel, sample.summary(), sample.description(), sample.inputs(), sample.defaultSizes());
        int tile = 4;
        int[] size = kernel.rank() == 1 ? new int[] {tile * tiles * 8 + 3 * tile} : new int[] {tile * tiles, tile * otherTiles};
        List<Schedule> schedules = List.of(wavefront(), lockDataflow(), dataParallel(tile));
        List<ResultRow> rows = ComparisonRunner.run(ComparisonRequest.builder(library).sizes(List.of(size)).schedules(schedules)
                .backends(List.of(new JvmBackend())).seed(seed).threads(threads).build()).rows();
        for (ResultRow row : rows) {
            assertTrue(row.verified(), kernel.name() + " " + ComparisonRunner.sizeText(size) + " " + row.schedule() + " "
                    + row.mechanism() + " " + row.granularity() + " " + row.channels() + " threads " + threads + ": " + row.problem());
        }
    }
}
